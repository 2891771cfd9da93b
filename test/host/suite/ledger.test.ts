import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import { readPublishedSkills } from '../../../src/core/runtimes/doors/publishedSkills';
import { eventually, scriptedModel, toolshed } from './helpers';
import { askToolshed, driver, lastToolResultText, withSettings } from './chatHelpers';

const SERVER = 'ledgerfix';

interface RenderedTree {
  description?: string;
  items: Array<{ label: string; description?: string; contextValue?: string; depth: number }>;
}

const ledgerItems = () => vscode.commands.executeCommand<RenderedTree>('toolshed._ledgerItems');
const numbers = (text: string | undefined) => (text?.match(/[\d,]+/g) ?? []).map((n) => Number(n.replace(/,/g, '')));

suite('ledger view: a turn appears with the footer numbers, and Off on a row takes the tool out of the next round', () => {
  teardown(async () => {
    (await driver()).toolBatch.clear();
  });

  test("a turn's definitions, tokens and calls appear in the Ledger view; Off on its row keeps the tool out of the next turn", async () => {
    await toolshed();
    const names = (await driver()).toolBatch.register(6, SERVER);
    await eventually(() => names.every((name) => vscode.lm.tools.some((tool) => tool.name === name)), 'batch tools in vscode.lm.tools');
    const word = (await driver()).toolBatch.wordOf(2);
    const target = names[2]!;
    const config = vscode.workspace.getConfiguration();
    await withSettings({ 'toolshed.toolSearch.mode': 'always', 'toolshed.toolSearch.preActivateTools': 0 }, async () => {
      const before = await ledgerItems();
      const summaryBefore = numbers(before.items.find((item) => item.contextValue === 'ledgerSummary')?.description);

      const model = await scriptedModel();
      model.setScript([
        [{ toolCall: { name: 'tool_search', input: { query: `fixture operation ${word} record` } } }],
        (request) => {
          const found = JSON.parse(lastToolResultText(request as never)) as { tools: Array<{ name: string }> };
          return [{ toolCall: { name: found.tools[0]?.name ?? 'nothing_found', input: { id: '7' } } }];
        },
        'Done.',
      ]);
      const { recorded } = await askToolshed(`Get the ${word} record`);
      const footer = recorded.markdown();
      const sent = /Toolshed sent ([\d + ]+) of \d+ tools over (\d+) rounds: ([\d,]+) tokens of tool definitions/.exec(footer);
      assert.ok(sent, footer);
      const requests = Number(/Model requests: (\d+)/.exec(footer)?.[1]);
      const sentWithTarget = model.requests.filter((request) => request.toolNames.includes(target)).length;

      // The view follows the ledger's change event: the totals grow by exactly this turn's footer.
      const after = await eventually(async () => {
        const tree = await ledgerItems();
        return tree.items.some((item) => item.label === target) ? tree : undefined;
      }, 'the tool row in the Ledger view');
      const summaryAfter = numbers(after.items.find((item) => item.contextValue === 'ledgerSummary')?.description);
      // turns · rounds · model requests · definition tokens
      assert.deepEqual(
        summaryAfter.map((value, i) => value - (summaryBefore[i] ?? 0)),
        [1, Number(sent[2]), requests, Number(sent[3]!.replace(/,/g, ''))],
        `${JSON.stringify(after.items[0])} after ${footer}`,
      );
      const server = after.items.find((item) => item.label === SERVER);
      assert.equal(server?.contextValue, 'ledgerMcpServer');
      const row = after.items.find((item) => item.label === target);
      assert.equal(row?.contextValue, 'ledgerTool');
      assert.match(row?.description ?? '', new RegExp(`\\b${sentWithTarget} sent · 1 call\\b`));
      const report = (await toolshed()).services.ledger.report(7);
      assert.equal(report.tools.find((tool) => tool.tool === target)?.activations.search, 1);

      try {
        await vscode.commands.executeCommand('toolshed.ledger.off', { type: 'tool', row: { tool: target } });
        assert.deepEqual(config.inspect('toolshed.tools.state')?.workspaceValue, { [target]: 'off' });
        const api = await toolshed();
        await eventually(() => api.services.settings.current.tools.state[target] === 'off', 'the setting applied');
        model.setScript([
          [{ toolCall: { name: 'tool_search', input: { query: `fixture operation ${word} record` } } }],
          (request) => [{ text: lastToolResultText(request as never) }],
        ]);
        await askToolshed(`Get the ${word} record again`);
        assert.ok(
          model.requests.every((request) => !request.toolNames.includes(target)),
          'never offered in the next turn',
        );
        assert.ok(!lastToolResultText(model.requests[1] as never).includes(target), 'and tool_search no longer finds it');
      } finally {
        await config.update('toolshed.tools.state', undefined, vscode.ConfigurationTarget.Workspace);
      }
    });
  });

  test('a tool called in 6 turns without being offered is sent in round 1 with the footer saying why, until its promotion is undone', async () => {
    await toolshed();
    const names = (await driver()).toolBatch.register(3, SERVER);
    await eventually(() => names.every((name) => vscode.lm.tools.some((tool) => tool.name === name)), 'batch tools in vscode.lm.tools');
    const target = names[1]!;
    // The ledger keeps the recent turns of every earlier suite in this host run (with the setting
    // off too): forget them, so the set learns from this test's turns only.
    await vscode.commands.executeCommand('toolshed.ledger.resetCoreSet');
    await withSettings({ 'toolshed.toolSearch.mode': 'always', 'toolshed.toolSearch.learnCoreSet': true }, async () => {
      const model = await scriptedModel();
      // Called by name, never offered in round 1: each of these turns counts toward a promotion (6 of the last 100).
      for (let i = 0; i < 6; i++) {
        model.setScript([[{ toolCall: { name: target, input: { id: String(i) } } }], 'Done.']);
        await askToolshed(`Fetch record ${i}`);
        assert.ok(!model.requests[0]!.toolNames.includes(target) || i > 0, 'deferred before it was learned');
      }
      try {
        model.setScript(['Done.']);
        const { recorded } = await askToolshed('Fetch the record again');
        assert.ok(model.requests[0]!.toolNames.includes(target), 'sent in round 1 without a search');
        assert.match(recorded.markdown(), new RegExp(`Visible without a search because you used it in 6 of the last 6 turns: \`${target}\``));
        const tree = await ledgerItems();
        assert.deepEqual(
          tree.items.filter((item) => item.contextValue === 'ledgerCoreTool').map((item) => item.label),
          [target],
        );
        await vscode.commands.executeCommand('toolshed.ledger.filter', 'no-such-name-anywhere');
        assert.ok(!(await ledgerItems()).items.some((item) => item.label === 'Learned core set'), 'the filter narrows the core set too');
        await vscode.commands.executeCommand('toolshed.ledger.filter', '');

        await vscode.commands.executeCommand('toolshed.ledger.undoPromotion', target);
        model.setScript(['Done.']);
        const after = await askToolshed('And once more');
        assert.ok(!model.requests[0]!.toolNames.includes(target), 'deferred again after the undo');
        assert.doesNotMatch(after.recorded.markdown(), /Visible without a search/);
      } finally {
        // Later suites (and page checks) start without this test's promotions, undo or filter.
        await vscode.commands.executeCommand('toolshed.ledger.filter', '');
        await vscode.commands.executeCommand('toolshed.ledger.resetCoreSet');
      }
    });
  });

  test('Retire on a skill row keeps the skill out of the next turn; Restore on its retired row brings it back', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const skill = 'pack.core.git.commit_message';
    const prompt = 'Write a commit message for my staged changes';
    const promptText = (model: Awaited<ReturnType<typeof scriptedModel>>) =>
      model.requests[0]!.messages.flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.value : ''))).join('\n');
    await withSettings({ 'toolshed.skills.selection': 'search' }, async () => {
      const model = await scriptedModel();
      const active = async () => {
        model.setScript(['Done.']);
        const { result } = await askToolshed(prompt);
        return ((result.metadata?.toolshed as { activeSkills?: Array<{ name: string }> }).activeSkills ?? []).map((entry) => entry.name);
      };
      assert.ok((await active()).includes(skill), 'injected before it is retired');
      const row = await eventually(async () => (await ledgerItems()).items.find((item) => item.label === skill), 'the skill row');
      assert.equal(row.contextValue, 'ledgerSkill');

      try {
        // The row action passes the tree node, as a click on the menu does.
        assert.equal(await vscode.commands.executeCommand('toolshed.ledger.retireSkill', { type: 'skill', row: { skill } }), true);
        const retired = await ledgerItems();
        assert.equal(
          retired.items.find((item) => item.label === skill && item.depth === 1 && item.contextValue !== 'ledgerRetiredSkill')?.contextValue,
          'ledgerSkillRetired',
        );
        assert.ok(
          retired.items.some((item) => item.contextValue === 'ledgerRetiredSkill' && item.label === skill),
          'listed under Retired skills',
        );

        assert.ok(!(await active()).includes(skill), 'not injected in the next turn');
        assert.ok(!promptText(model).includes(skill), 'not named anywhere in the request');
        const search = await vscode.lm.invokeTool('skill_search', { input: { query: 'commit message for staged changes' }, toolInvocationToken: undefined });
        const found = search.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
        assert.ok(!found.includes(skill), `skill_search leaves it out: ${found}`);
        // The hook and the MCP server of this workspace are told through its door folder.
        const doorRetired = () => {
          const read = readPublishedSkills(doorFolderFor(vscode.workspace.workspaceFolders![0]!.uri.fsPath));
          return read.status === 'read' ? read.skills.retired : [];
        };
        await eventually(() => doorRetired().includes(skill), 'the retirement published for the doors');

        // The Skill Directory shows it as retired (inactive), with Restore.
        const directoryRow = async () =>
          (await vscode.commands.executeCommand<RenderedTree>('toolshed._skillDirectoryItems')).items.find(
            (item) => item.label === skill || item.description?.startsWith(`${skill} — `),
          );
        assert.match((await directoryRow())?.contextValue ?? '', /^skill\.(pinned|unpinned)\.inactive\.retired/);
        assert.match((await directoryRow())?.description ?? '', /inactive: retired in this workspace/);

        assert.equal(await vscode.commands.executeCommand('toolshed.ledger.restoreSkill', { type: 'retiredSkill', skill, at: 0 }), true);
        assert.ok(!(await ledgerItems()).items.some((item) => item.contextValue === 'ledgerRetiredSkill'), 'no retired skills left');
        assert.match((await directoryRow())?.contextValue ?? '', /^skill\.(pinned|unpinned)\.active/);
        assert.ok((await active()).includes(skill), 'injected again after Restore');
        await eventually(() => !doorRetired().includes(skill), 'the restore published for the doors');

        // A row whose name the ledger keeps redacted names no skill: Retire is refused, with why.
        const redactedRow = { type: 'skill', row: { skill: 'deploy-[REDACTED_TOKEN]' } };
        assert.equal(await vscode.commands.executeCommand('toolshed.ledger.retireSkill', redactedRow), false);
        assert.ok(!(await ledgerItems()).items.some((item) => item.contextValue === 'ledgerRetiredSkill'), 'nothing retired');

        // Retire and Restore from the Skill Directory do the same.
        await vscode.commands.executeCommand('toolshed.retireSkill', skill);
        assert.ok((await ledgerItems()).items.some((item) => item.contextValue === 'ledgerRetiredSkill' && item.label === skill));
        assert.ok(!(await active()).includes(skill), 'retired from the Skill Directory: not injected');
        await vscode.commands.executeCommand('toolshed.restoreSkill', skill);
        assert.ok((await active()).includes(skill), 'restored from the Skill Directory');
      } finally {
        api.services.ledger.restoreSkill(skill);
      }
    });
  });

  test('the period, sort and filter of the view', async () => {
    try {
      await vscode.commands.executeCommand('toolshed.ledger.period', 30);
      await vscode.commands.executeCommand('toolshed.ledger.sort', 'calls');
      await vscode.commands.executeCommand('toolshed.ledger.filter', 'no-such-name-anywhere');
      const filtered = await ledgerItems();
      assert.equal(filtered.description, 'last 30 days · by calls · "no-such-name-anywhere"');
      assert.deepEqual(
        filtered.items.map((item) => item.contextValue),
        ['ledgerSummary'],
        `only the totals line: ${JSON.stringify(filtered.items.map((item) => item.label))}`,
      );
      assert.match(filtered.items[0]!.label, /^Last 30 days$/);
    } finally {
      // The view as it opens (the page check of the Ledger view reads it so).
      await vscode.commands.executeCommand('toolshed.ledger.filter', '');
      await vscode.commands.executeCommand('toolshed.ledger.period', 7);
      await vscode.commands.executeCommand('toolshed.ledger.sort', 'tokens');
    }
  });
});
