import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { eventually, scriptedModel, toolshed } from './helpers';
import { askToolshed, withSettings } from './chatHelpers';

const WEATHER = 'fixture_weather_forecast';
const ADMIN = 'fixture_admin_delete_repository';
const FOLDER = 'tool-skills';

/** A skill naming the (deferred) weather tool and the admin tool, loaded from a pack in the test workspace. */
async function withToolSkillPack<T>(settings: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  const root = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, FOLDER);
  mkdirSync(root, { recursive: true });
  const skill = {
    name: 'city-weather-report',
    title: 'City weather report',
    task_type: 'api',
    trigger: 'When someone asks for the weather report of a city.',
    tools: [WEATHER, ADMIN],
    steps: [`Call ${WEATHER} with the city.`, 'Summarise the forecast in one sentence.'],
    cluster: 'Weather Desk',
  };
  writeFileSync(path.join(root, 'weather.skill.jsonl'), `${JSON.stringify(skill)}\n`);
  try {
    return await withSettings({ 'toolshed.skills.packs': [{ name: FOLDER, path: FOLDER }], 'toolshed.skills.selection': 'search', ...settings }, async () => {
      const api = await toolshed();
      await eventually(async () => {
        await api.services.skillPacks.ready;
        return api.services.skills.listPacks().find((p) => p.name === FOLDER && p.skills.length === 1);
      }, `pack ${FOLDER} loaded`);
      return fn();
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
    // The settings are restored by now; wait until the pack is gone, so the next test's "pack
    // loaded" check cannot be met by this test's pack while its removal is still on the way.
    const api = await toolshed();
    await eventually(async () => {
      await api.services.skillPacks.ready;
      return api.services.skills.listPacks().some((p) => p.name === FOLDER) ? undefined : true;
    }, `pack ${FOLDER} unloaded`);
  }
}

suite('@toolshed: tools from skills (toolshed.learning.autoActivateTools)', () => {
  test('a skill naming a deferred tool, auto-activation on: the tool is offered in round 1, a denied one never; the footer counts it and the search round it saved', async () => {
    await withToolSkillPack({ 'toolshed.learning.autoActivateTools': true, 'toolshed.toolSearch.deny': ['fixture_admin_*'] }, async () => {
      const model = await scriptedModel();
      // Round 1 calls the pre-activated tool straight away (no tool_search first); round 2 answers.
      model.setScript([[{ toolCall: { name: WEATHER, input: { city: 'Oslo' } } }], 'Oslo: sunny.']);
      const { recorded, result } = await askToolshed('What is the weather report for the city of Oslo?');
      const round1 = model.requests[0]!;
      assert.ok(round1.toolNames.includes(WEATHER), `round 1 offered: ${round1.toolNames.join(', ')}`);
      assert.ok(!round1.toolNames.includes(ADMIN));
      assert.ok(!JSON.stringify(round1.tools).includes(ADMIN), 'the denied tool is named nowhere in the tool definitions');
      assert.ok(recorded.steps().includes(`Activated \`${WEATHER}\` (named by a skill)`), recorded.steps().join(' | '));
      assert.match(recorded.markdown(), /_Pre-activated 1 tool named by the skills before the first round/);
      assert.equal(model.requests.length, 2);
      const toolCalls = model.requests[1]!.messages.flatMap((m) => m.content)
        .filter((part) => part.type === 'toolCall')
        .map((part) => (part as { name: string }).name);
      assert.deepEqual(toolCalls, [WEATHER], 'the weather tool was called, and no tool_search');
      const tokens = (result.metadata as { toolshed: { tokens: { preActivatedTools?: string[]; searchSaving?: { tools: string[]; tokens: number } } } })
        .toolshed.tokens;
      assert.deepEqual(tokens.preActivatedTools, [WEATHER]);
      // The saving is measured: the weather tool was called before any search found it.
      assert.deepEqual(tokens.searchSaving?.tools, [WEATHER]);
      assert.ok((tokens.searchSaving?.tokens ?? 0) > 0);
      const saved = new RegExp(
        `The model called \`${WEATHER}\` before any \`tool_search\` found it: that saved 1 \`tool_search\` round \\(≈ ([\\d,]+) tokens of search call and result\\)`,
      ).exec(recorded.markdown());
      assert.ok(saved, recorded.markdown());
      assert.equal(Number(saved[1]!.replace(/,/g, '')), tokens.searchSaving!.tokens, 'the footer shows the measured number');
    });
  });

  test('auto-activation off (the default): the same skill leaves the tool deferred in round 1', async () => {
    await withToolSkillPack({}, async () => {
      const model = await scriptedModel();
      model.setScript(['ok']);
      const { recorded } = await askToolshed('What is the weather report for the city of Oslo?');
      assert.ok(
        recorded.steps().some((step) => step.startsWith('Using skill `city-weather-report`')),
        recorded.steps().join(' | '),
      );
      assert.ok(!model.requests[0]!.toolNames.includes(WEATHER), 'still deferred');
      assert.doesNotMatch(recorded.markdown(), /Pre-activated|saved 1 `tool_search` round/);
    });
  });

  test('toolshed.skills.directoryGroupBy: cluster groups the Skill Directory by the skills\' cluster, unclustered ones under "No cluster"', async () => {
    await withToolSkillPack({ 'toolshed.skills.directoryGroupBy': 'cluster' }, async () => {
      type Tree = { items: Array<{ label: string; depth: number; id?: string; tooltip?: string }> };
      const tree = await eventually(async () => {
        const rendered = await vscode.commands.executeCommand<Tree>('toolshed._skillDirectoryItems');
        return rendered.items.some((item) => item.id === 'cluster:Weather Desk') ? rendered : undefined;
      }, 'cluster group shown');
      const index = tree.items.findIndex((item) => item.id === 'cluster:Weather Desk');
      assert.equal(tree.items[index]!.depth, 0);
      assert.equal(tree.items[index + 1]!.label, 'City weather report');
      assert.equal(tree.items[index + 1]!.depth, 1);
      assert.ok(
        tree.items.some((item) => item.depth === 0 && item.label === 'No cluster'),
        'built-in skills without a cluster are grouped too',
      );
      assert.ok(!tree.items.some((item) => item.id?.startsWith('pack:') && item.label === FOLDER), 'no pack rows in the cluster grouping');
      // The view-title toggle switches back to packs (it writes the setting).
      await vscode.commands.executeCommand('toolshed.groupSkillsByPack');
      assert.equal(vscode.workspace.getConfiguration('toolshed').get('skills.directoryGroupBy'), 'pack');
      await eventually(async () => {
        const rendered = await vscode.commands.executeCommand<Tree>('toolshed._skillDirectoryItems');
        return rendered.items.some((item) => item.id === `pack:${FOLDER}`) && !rendered.items.some((item) => item.id?.startsWith('cluster:'))
          ? rendered
          : undefined;
      }, 'grouped by pack again');
    });
  });

  test('a learned skill approved while an alike skill has a cluster takes that cluster, and the cluster grouping shows it there', async () => {
    await withToolSkillPack({ 'toolshed.skills.directoryGroupBy': 'cluster' }, async () => {
      const api = await toolshed();
      const service = api.services.learning.service;
      const proposal = (
        await service.ingest({
          sessionId: 'cluster-on-approval',
          request: 'What is the weather report for the city of Oslo and Bergen?',
          stoppedBecause: 'done',
          skillsUsed: [],
          at: Date.now(),
          calls: [
            { tool: WEATHER, input: { city: 'Oslo' }, ok: true },
            { tool: WEATHER, input: { city: 'Bergen' }, ok: true },
          ],
        })
      ).proposal!;
      try {
        assert.equal(service.suggestedCluster(proposal.candidate)?.from, 'city-weather-report');
        const name = await vscode.commands.executeCommand<string>('toolshed.learning.approveProposal', proposal.id);
        assert.equal(api.services.skills.inspect(name)?.meta.cluster, 'Weather Desk');
        type Tree = { items: Array<{ label: string; depth: number; id?: string }> };
        const tree = await eventually(async () => {
          const rendered = await vscode.commands.executeCommand<Tree>('toolshed._skillDirectoryItems');
          const start = rendered.items.findIndex((item) => item.id === 'cluster:Weather Desk');
          if (start < 0) return undefined;
          const members: string[] = [];
          for (const item of rendered.items.slice(start + 1)) {
            if (item.depth === 0) break;
            members.push(item.label);
          }
          return members.includes(proposal.candidate.title) ? members : undefined;
        }, 'learned skill in the Weather Desk group');
        assert.ok(tree.includes('City weather report'), tree.join(', '));
      } finally {
        await service.discard(proposal.id);
      }
    });
  });
});
