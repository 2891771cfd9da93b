import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, scriptedModel, toolshed, acceptFirst } from './helpers';
import { askToolshed, driver, lastToolResultText, userFacingTexts, withSettings } from './chatHelpers';

const SERVER = 'fixturemcp';
const NO_SUCH_TOOL = /No such tool is available in this conversation/;

async function registerBatch(count: number): Promise<string[]> {
  const names = (await driver()).toolBatch.register(count, SERVER);
  await eventually(() => names.every((name) => vscode.lm.tools.some((tool) => tool.name === name)), `${count} batch tools in vscode.lm.tools`);
  return names;
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

suite('tool search mode: auto sends or defers by context share, Manage Tools turns tools off', () => {
  setup(async () => {
    await toolshed();
    (await driver()).toolBatch.clear();
  });

  teardown(async () => {
    (await driver()).toolBatch.clear();
  });

  test('with 40 small tools @toolshed sends all of them and the footer says why', async () => {
    const batch = await registerBatch(40);
    await withSettings({ 'toolshed.toolSearch.mode': 'auto' }, async () => {
      const model = await scriptedModel();
      model.setScript(['All tools are here.']);
      const { result, recorded } = await askToolshed('What can you do?');
      const sent = model.requests[0]!.toolNames;
      for (const name of batch) assert.ok(sent.includes(name), `${name} sent`);
      assert.ok(sent.includes('fixture_weather_forecast'), 'the other extension tools too');
      assert.ok(!sent.includes('tool_invoke'), 'tool_invoke stays out of the @toolshed loop');
      assert.ok(sent.length <= 128);
      const deferral = (result.metadata as { toolshed: { deferral: { deferred: boolean; reason: string; toolCount: number } } }).toolshed.deferral;
      assert.equal(deferral.deferred, false);
      assert.equal(deferral.reason, 'under_threshold');
      assert.equal(deferral.toolCount, sent.length, 'every tool the request could see was sent');
      assert.match(recorded.markdown(), /Tool search: \d+ tools, [\d.]+k? tokens = [\d.]+ % of 128k: all sent \(auto, at most 10 %\)/);
      assert.ok(!userFacingTexts(model.requests[0]!).includes('<tool_discovery>'), 'nothing deferred: no discovery block');
      assert.match((await toolshed()).services.activity.deferralSummary ?? '', /: all sent \(auto, at most 10 %\)$/, 'the Activated Tools view header line');
    });
  });

  test('Set Tool State… on a tool (Activated Tools context menu) walks the state and target steps and pins it', async () => {
    const batch = await registerBatch(3);
    const config = vscode.workspace.getConfiguration();
    try {
      // Steps 2 and 3 in the real QuickPicks: the first items are "Always" and "Workspace settings".
      await acceptFirst('toolshed.setToolState', { type: 'tool', entry: { toolName: batch[1] } });
      assert.deepEqual(config.inspect('toolshed.tools.state')?.workspaceValue, { [batch[1]!]: 'always' });
      const api = await toolshed();
      await eventually(() => api.services.settings.current.tools.state[batch[1]!] === 'always', 'the setting applied');
      const model = await scriptedModel();
      model.setScript(['ok']);
      await askToolshed('anything');
      assert.ok(model.requests[0]!.toolNames.includes(batch[1]!), 'pinned always: sent although the mode defers');
      assert.ok(!model.requests[0]!.toolNames.includes(batch[0]!), 'its neighbours stay deferred');
    } finally {
      await config.update('toolshed.tools.state', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('with 200 tools @toolshed defers them, names them, and tool_search finds one', async () => {
    const batch = await registerBatch(200);
    const word = (await driver()).toolBatch.wordOf(137);
    const target = batch[137]!;
    await withSettings({ 'toolshed.toolSearch.mode': 'auto' }, async () => {
      const model = await scriptedModel();
      model.setScript([
        [{ toolCall: { name: 'tool_search', input: { query: `fixture operation ${word} record` } } }],
        (request) => {
          const found = JSON.parse(lastToolResultText(request as never)) as { tools: Array<{ name: string }> };
          return [{ toolCall: { name: found.tools[0]?.name ?? 'nothing_found', input: { id: '1' } } }];
        },
        'Done.',
      ]);
      const { result, recorded } = await askToolshed(`Get the ${word} record`);
      const first = model.requests[0]!;
      assert.ok(first.toolNames.includes('tool_search'));
      assert.ok(!batch.some((name) => first.toolNames.includes(name)), 'batch tools deferred');
      assert.ok(first.toolNames.length < 20, `few tools sent: ${first.toolNames.length}`);
      assert.match(userFacingTexts(first), /<available_deferred_tools>/, 'deferred names are listed');
      const found = JSON.parse(lastToolResultText(model.requests[1] as never)) as { tools: Array<{ name: string }> };
      assert.equal(found.tools[0]?.name, target);
      assert.ok(found.tools.length <= 5, 'default limit 5');
      assert.ok(model.requests[1]!.toolNames.includes(target), 'activated for the next round');
      assert.deepEqual(
        (await driver()).toolBatch.calls.map((c) => c.name),
        [target],
      );
      const deferral = (result.metadata as { toolshed: { deferral: { deferred: boolean; reason: string } } }).toolshed.deferral;
      assert.equal(deferral.deferred, true);
      assert.equal(deferral.reason, 'over_tool_cap');
      assert.match(recorded.markdown(), /Tool search: 2\d\d tools, .* tokens = .* of 128k: deferred \(auto, over 128 tools\)/);
    });
  });

  test("Manage Tools… sets a server's tools to off: they vanish from tool_search, /tools and tool_invoke", async () => {
    const batch = await registerBatch(5);
    const word = (await driver()).toolBatch.wordOf(3);
    const search = async (query: string) => textOf(await vscode.lm.invokeTool('tool_search', { input: { query }, toolInvocationToken: undefined }));
    assert.match(await search(`fixture operation ${word}`), new RegExp(batch[3]!), 'found before');
    const config = vscode.workspace.getConfiguration();
    try {
      await acceptFirst('toolshed.manageTools', { filter: `All tools of MCP server ${SERVER}`, state: 'off', target: 'workspace' });
      assert.deepEqual(config.inspect('toolshed.tools.state')?.workspaceValue, { [`mcp_${SERVER}_*`]: 'off' });
      const api = await toolshed();
      await eventually(() => api.services.settings.current.tools.state[`mcp_${SERVER}_*`] === 'off', 'the setting applied');

      const after = await search(`fixture operation ${word}`);
      assert.ok(!after.includes(`mcp_${SERVER}`), after);
      const selected = await search(`select:${batch[3]}`);
      const unknown = await search('select:mcp_nothing_here');
      assert.equal(JSON.parse(selected).note, JSON.parse(unknown).note, 'off reads exactly like unknown');

      const { recorded } = await askToolshed('', { command: 'tools' });
      assert.ok(!recorded.markdown().includes(`mcp_${SERVER}`), recorded.markdown());
      assert.match(recorded.markdown(), /Turned off by you.*: 5 tools/);
      assert.match(
        recorded.markdown(),
        /\*\*Tool search\*\* \(`toolshed\.toolSearch\.mode` is always\): \d+ tools, .* tokens = .* of 128k: deferred \(mode always\)/,
        'the decision with its numbers',
      );

      const invoked = textOf(await vscode.lm.invokeTool('tool_invoke', { input: { name: batch[3], input: { id: '1' } }, toolInvocationToken: undefined }));
      assert.match(invoked, NO_SUCH_TOOL);
      assert.deepEqual((await driver()).toolBatch.calls, [], 'nothing ran');
    } finally {
      await config.update('toolshed.tools.state', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
