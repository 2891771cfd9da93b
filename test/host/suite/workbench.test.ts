import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { learningFollowups, recordChatFeedback } from '../../../src/vscode/chat/learningChat';
import type { ToolshedTurnMetadata } from '../../../src/vscode/chat/sessionMetadata';
import type { ToolGroup } from '../../../src/core/tools/modes/manageToolsModel';
import { eventually, scriptedModel, toolshed } from './helpers';
import { askToolshed, driver, historyOf, withSettings } from './chatHelpers';

const metadataOf = (result: vscode.ChatResult) => (result.metadata as { toolshed: ToolshedTurnMetadata }).toolshed;
type Button = { command: string; title: string; arguments?: unknown[] };
const buttons = (parts: Array<{ kind: string; value: string }>): Button[] => parts.filter((p) => p.kind === 'button').map((p) => JSON.parse(p.value) as Button);

async function registerBatch(count: number, server: string, tags?: string[]): Promise<string[]> {
  const names = (await driver()).toolBatch.register(count, server, tags);
  await eventually(() => names.every((name) => vscode.lm.tools.some((tool) => tool.name === name)), `${count} ${server} tools in vscode.lm.tools`);
  return names;
}

/**
 * What a new user sees in a real workbench must be true: `/tools` right after start-up and
 * above 128 tools, learning's proposals, names, text and ratings, and Manage Tools' groups.
 */
suite('What a user sees is true: /tools, learning, Manage Tools (scripted model)', function () {
  this.timeout(120_000);

  teardown(async () => {
    (await driver()).toolBatch.clear();
  });

  test('/tools while tools are still arriving says "starting", not "turned off by you"', async () => {
    const api = await toolshed();
    const names = await registerBatch(5, 'arriving');
    await eventually(() => names.every((name) => api.services.tools.registryMap().has(name)), 'the batch indexed');
    // As right after start-up: in vscode.lm.tools, not yet in Toolshed's catalog (the list itself has not changed since).
    api.services.tools.removeTools(names);
    const { recorded } = await askToolshed('', { command: 'tools' });
    const text = recorded.markdown();
    assert.doesNotMatch(text, /Turned off by you/, text);
    assert.match(text, /\*\*Starting\*\*: 5 tools are still being published/);
  });

  test('mode off with 236 tools: the model gets exactly 128 (tool_invoke and skill take no slot) and /tools names the list for what it is', async () => {
    await registerBatch(236, 'many');
    await withSettings({ 'toolshed.toolSearch.mode': 'off' }, async () => {
      const model = await scriptedModel();
      model.setScript(['ok']);
      const { result, recorded } = await askToolshed('What can you do?');
      const sent = model.requests[0]!.toolNames;
      assert.equal(sent.length, 128, `the model got ${sent.length}`);
      assert.ok(!sent.includes('tool_invoke') && !sent.includes('skill'));
      assert.match(recorded.markdown(), /: 128 sent, the rest deferred \(mode off\)/);
      assert.ok(metadataOf(result).deferral!.toolCount > 128);

      const tools = (await askToolshed('', { command: 'tools' })).recorded.markdown();
      assert.doesNotMatch(tools, /Sent because nothing is deferred/, tools);
      assert.match(tools, /\*\*Sent because tool search mode is off, up to the 128-tool limit per request\*\* \(\d+\)/);
      const deferred = /\*\*Deferred \((\d+) over the 128-tool limit; found on demand with `tool_search`\)\*\*: (\d+) tools/.exec(tools);
      assert.ok(deferred, tools);
      assert.equal(Number(deferred[1]), Number(deferred[2]), 'every deferred tool is over the limit (mode off defers nothing else)');
    });
  });

  test("learning: an unknown task type stays out of the name; chat's Approve is said as such; a turn that follows the learned skill proposes nothing and can be rated with the answer's buttons", async () => {
    const api = await toolshed();
    const learning = api.services.learning;
    const [echo, add] = await registerBatch(2, 'greeter');
    const model = await scriptedModel();
    const followSteps = () =>
      model.setScript([
        [{ toolCall: { name: echo!, input: { id: 'hello' } } }],
        [{ toolCall: { name: add!, input: { id: '2' } } }],
        'Echoed the greeting and added two.',
      ]);
    const proposals = () => learning.service.proposals().filter((p) => p.candidate.citations.tools.includes(echo!));
    let approvedId: string | undefined;
    try {
      followSteps();
      const prompt = 'Echo the greeting back, then add two';
      const first = await askToolshed(prompt);
      const { proposal } = await learning.latestResult(metadataOf(first.result).sessionId);
      assert.ok(proposal, 'the first turn proposes a skill');
      assert.equal(proposal.candidate.task_type, 'unknown');
      assert.match(proposal.candidate.name, /^learned\.[a-z0-9-]+$/);
      assert.doesNotMatch(proposal.candidate.name, /unknown/);
      const tree = await eventually(async () => {
        const rendered = await vscode.commands.executeCommand<{ items: Array<{ id?: string; description?: string }> }>('toolshed._skillDirectoryItems');
        return rendered.items.find((i) => i.id === `proposal:${proposal.id}`);
      }, 'the proposal in the Skill Directory');
      assert.doesNotMatch(tree.description ?? '', /unknown/, `Proposed label: ${tree.description}`);

      // Approved with chat's Approve button (/learn shows it), as a click runs it.
      const learn = await askToolshed('', { command: 'learn', history: historyOf(prompt, first.result, 'Echoed') });
      const approve = buttons(learn.recorded.parts).find((b) => b.title === 'Approve')!;
      const name = await vscode.commands.executeCommand<string>(approve.command, ...(approve.arguments ?? []));
      approvedId = proposal.id;
      assert.equal(name, proposal.candidate.name);
      const description = api.services.skills.inspect(name)?.description ?? '';
      assert.doesNotMatch(description, /editor/, description);
      assert.match(description, /approved with the Approve button in chat/);

      // A paraphrase in a new conversation follows the learned skill: nothing new is proposed.
      const before = proposals().length;
      const usesBefore = learning.service.counters(name)?.use_count ?? 0;
      followSteps();
      const second = await askToolshed('Echo a greeting back and add two');
      const meta = metadataOf(second.result);
      assert.ok(meta.learning?.skills.includes(name), `the learned skill was injected: ${meta.learning?.skills.join(', ')}`);
      const ingested = await learning.latestResult(meta.sessionId);
      assert.equal(ingested.proposal, undefined, 'nothing proposed');
      assert.equal(ingested.followed, name);
      assert.deepEqual(await learningFollowups(learning, meta), [], 'no "Save this as a skill…"');
      assert.equal(proposals().length, before, 'Proposed did not grow');
      assert.equal(learning.service.counters(name)?.use_count, usesBefore + 1, 'counted as a use of the skill');

      // Helpful / Not helpful under the answer: they work where VS Code hides 👍/👎, and count once per answer.
      const rate = buttons(second.recorded.parts).filter((b) => b.command === 'toolshed.learning.rateAnswer');
      assert.deepEqual(
        rate.map((b) => b.title),
        ['Helpful', 'Not helpful'],
      );
      const helpfulBefore = learning.service.counters(name)?.helpful ?? 0;
      assert.ok((await vscode.commands.executeCommand<number>(rate[0]!.command, ...(rate[0]!.arguments ?? []))) > 0);
      assert.equal(learning.service.counters(name)?.helpful, helpfulBefore + 1);
      assert.equal(await vscode.commands.executeCommand<number>(rate[1]!.command, ...(rate[1]!.arguments ?? [])), 0, 'rated already');
      assert.equal(
        await recordChatFeedback(learning, { result: second.result, kind: vscode.ChatResultFeedbackKind.Helpful }),
        0,
        "VS Code's 👍 on the same answer does not count twice",
      );
    } finally {
      if (approvedId) await vscode.commands.executeCommand('toolshed.learning.discardProposal', approvedId);
      for (const proposal of proposals()) await learning.service.discard(proposal.id);
    }
  });

  test("Manage Tools groups by what VS Code gives: MCP servers by tag under their mcp.json names, extension tools by their extension, VS Code's own as built-in", async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const mcpJson = path.join(folder, '.vscode', 'mcp.json');
    mkdirSync(path.dirname(mcpJson), { recursive: true });
    // A server that exits at once if VS Code starts it: only its name and definition matter here.
    writeFileSync(
      mcpJson,
      '{\n  // the name the user chose\n  "servers": { "memory": { "type": "stdio", "command": "node", "args": ["-e", "", "@modelcontextprotocol/server-memory"] }, },\n}\n',
    );
    try {
      const memoryTools = await registerBatch(3, 'memory-server', ['mcp']);
      const groups = await vscode.commands.executeCommand<ToolGroup[]>('toolshed._manageToolsGroups');
      const groupOf = (tool: string) => groups.find((g) => g.tools.some((t) => t.name === tool));
      const seen = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(mcpJson)));
      assert.equal(
        groupOf(memoryTools[0]!)?.label,
        'MCP server memory',
        `${JSON.stringify(groups.map((g) => g.label))}; mcp.json as read: ${seen}; tags: ${JSON.stringify(vscode.lm.tools.find((t) => t.name === memoryTools[0])?.tags)}`,
      );
      assert.equal(groupOf(memoryTools[0]!)?.server, 'memory-server', 'its state pattern keeps the tool-name prefix');
      assert.equal(groupOf('fixture_weather_forecast')?.label, 'Extension Toolshed test driver');
      assert.ok(!groups.some((g) => g.label === 'Extensions'), 'no catch-all "Extensions" group');
      const declared = new Set(
        vscode.extensions.all.flatMap((e) =>
          ((e.packageJSON as { contributes?: { languageModelTools?: Array<{ name: string }> } }).contributes?.languageModelTools ?? []).map((t) => t.name),
        ),
      );
      const vscodeOwn = vscode.lm.tools.filter((t) => !declared.has(t.name) && !t.tags.includes('mcp') && !t.name.startsWith('mcp_'));
      for (const tool of vscodeOwn) assert.equal(groupOf(tool.name)?.label, 'Built-in (VS Code)', tool.name);
      const builtIn = groups.find((g) => g.label === 'Built-in (VS Code)');
      for (const tool of builtIn?.tools ?? []) assert.ok(!declared.has(tool.name), `${tool.name} is an extension's, not VS Code's`);
    } finally {
      rmSync(mcpJson, { force: true });
    }
  });
});
