import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, scriptedModel, toolshed } from './helpers';
import { askToolshed, driver, historyOf, lastToolResultText, withSettings } from './chatHelpers';
import type { RecordedRequest } from '../driver/scriptedModel';

/**
 * The first hour in a real workbench: the numbers @toolshed shows agree with what
 * the model received, history carries answers only, the sidebar speaks only when needed.
 */
const WEATHER = 'fixture_weather_forecast';

/** Tokens of the tool definitions of one recorded request, counted the way the planner does. */
function definitionTokens(request: RecordedRequest): number {
  const text = request.tools.map((tool) => JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.inputSchema ?? {} })).join('\n');
  return Math.ceil(text.length / 4); // the scripted model's token counter
}

const weatherScript = () => [
  [{ toolCall: { name: 'tool_search', input: { query: 'weather forecast for a city' } } }],
  [{ toolCall: { name: WEATHER, input: { city: 'Oslo' } } }],
  (request: RecordedRequest) => `Oslo: ${lastToolResultText(request as never)}`,
];

const toolItems = () =>
  vscode.commands.executeCommand<{ items: Array<{ label: string; description?: string; depth: number }>; badge?: number }>('toolshed._activatedToolsItems');

suite('first hour: honest numbers and quiet surfaces', () => {
  setup(async () => {
    await toolshed();
    (await driver()).testTools.reset();
  });

  test('the footer sums every round, and /tools lists exactly what the last round sent', async () => {
    await withSettings({ 'toolshed.toolSearch.activationScope': 'session' }, async () => {
      const model = await scriptedModel();
      model.setScript(weatherScript() as never);
      const { result, recorded } = await askToolshed('What is the weather in Oslo?');
      assert.equal(model.requests.length, 3);
      const sentPerRound = model.requests.map((request) => request.toolNames.length);
      const footer =
        /_Toolshed sent ([\d +]+) of (\d+) tools over (\d+) rounds: ([\d,]+) tokens of tool definitions instead of ([\d,]+) for all \2 in every round \((\d+)% fewer\)\._/.exec(
          recorded.markdown(),
        );
      assert.ok(footer, `footer with every round: ${recorded.markdown()}`);
      assert.deepEqual(footer[1]!.split(' + ').map(Number), sentPerRound, 'per-round counts are the tools each request carried');
      assert.equal(Number(footer[3]), 3);
      const sentTokens = model.requests.map(definitionTokens).reduce((a, b) => a + b, 0);
      assert.equal(Number(footer[4]!.replace(/,/g, '')), sentTokens, 'tokens are those of the definitions the model received, all rounds');
      const all = Number(footer[5]!.replace(/,/g, ''));
      assert.equal(all % 3, 0, 'all tools are counted once per round');
      assert.equal(Number(footer[6]), Math.round(((all - sentTokens) / all) * 100));
      const tokens = (result.metadata as { toolshed: { tokens: { toolsSent: number } } }).toolshed.tokens;
      assert.equal(
        tokens.toolsSent,
        sentPerRound.reduce((a, b) => a + b, 0),
      );

      // /tools in the same conversation: always visible + activated = what the last round sent.
      const tools = await askToolshed('', { command: 'tools', history: historyOf('What is the weather in Oslo?', result, recorded.markdown()) });
      const text = tools.recorded.markdown();
      const listed = new Set([...text.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]!).filter((name) => !name.startsWith('toolshed')));
      assert.deepEqual([...listed].sort(), [...model.requests[2]!.toolNames].sort(), `/tools agrees with the model's last request:\n${text}`);
    });
  });

  test('earlier answers go back to the model without the footer or progress lines', async () => {
    const model = await scriptedModel();
    model.setScript(weatherScript() as never);
    const first = await askToolshed('What is the weather in Oslo?');
    assert.match(first.recorded.markdown(), /Toolshed sent/);
    model.setScript(['Still sunny.']);
    // The history VS Code keeps: every markdown part the first answer streamed, footer included.
    await askToolshed('And tomorrow?', { history: historyOf('What is the weather in Oslo?', first.result, first.recorded.markdown()) });
    const sent = JSON.stringify(model.requests[0]!.messages);
    assert.match(sent, /Oslo: Forecast for Oslo: sunny/, 'the earlier answer is sent back');
    assert.doesNotMatch(sent, /Toolshed sent|tokens of tool definitions|Searching tools for|Activated `/, 'no footer or progress text');
  });

  test('Clear Activated Tools clears the session registry too: the next turn no longer sees the tool', async () => {
    await withSettings({ 'toolshed.toolSearch.activationScope': 'session' }, async () => {
      const api = await toolshed();
      const model = await scriptedModel();
      model.setScript([[{ toolCall: { name: 'tool_search', input: { query: 'weather forecast' } } }], 'found it']);
      const first = await askToolshed('Find me a weather tool');
      assert.ok(model.requests[1]!.toolNames.includes(WEATHER));
      await vscode.commands.executeCommand('toolshed.clearActivatedTools');
      assert.deepEqual(api.services.tools.listActivations(), [], 'the tool service forgot the activations');
      model.setScript(['second turn']);
      await askToolshed('And now?', { history: historyOf('Find me a weather tool', first.result, 'found it') });
      assert.ok(!model.requests[0]!.toolNames.includes(WEATHER), `cleared tool not offered: ${model.requests[0]!.toolNames.join(', ')}`);
    });
  });

  test('agent mode: searches stay out of Activated Tools; tools run with tool_invoke are listed with their calls', async () => {
    await vscode.commands.executeCommand('toolshed.clearActivatedTools');
    for (const query of ['weather forecast for a city', 'create an issue', 'delete a repository']) {
      await vscode.lm.invokeTool('tool_search', { input: { query }, toolInvocationToken: undefined });
    }
    assert.deepEqual((await toolItems()).items, [], 'three searches list nothing');
    await vscode.lm.invokeTool('tool_invoke', { input: { name: WEATHER, input: { city: 'Oslo' } }, toolInvocationToken: undefined });
    await vscode.lm.invokeTool('tool_invoke', { input: { name: WEATHER, input: { city: 'Rome' } }, toolInvocationToken: undefined });
    const tree = await eventually(async () => {
      const rendered = await toolItems();
      return rendered.items.length ? rendered : undefined;
    }, 'the invoked tool listed');
    assert.deepEqual(
      tree.items.map((i) => [i.depth, i.label]),
      [
        [0, 'Copilot agent mode (tools run with tool_invoke)'],
        [1, WEATHER],
      ],
    );
    assert.match(tree.items[1]!.description ?? '', /2 calls/);
    assert.equal(tree.badge, undefined, 'activations are not a badge');
    await vscode.commands.executeCommand('toolshed.clearActivatedTools');
  });

  test('a request whose model is unavailable is answered with an available model, and says so', async () => {
    const gone = {
      id: 'gone-model',
      vendor: 'nobody',
      name: 'Gone Model',
      family: 'gone',
      version: '1',
      maxInputTokens: 1000,
      sendRequest: () => Promise.reject(new Error('Language model unavailable')),
      countTokens: () => Promise.resolve(1),
    } as unknown as vscode.LanguageModelChat;
    const model = await scriptedModel();
    model.setScript(['Answered anyway.']);
    const { result, recorded } = await askToolshed('Hello?', { model: gone });
    assert.equal(result.errorDetails, undefined, recorded.markdown());
    assert.match(recorded.markdown(), /Gone Model \(nobody\) is not available, so Toolshed answered with Scripted \(Toolshed tests\)/);
    assert.match(recorded.markdown(), /model picker/);
    assert.match(recorded.markdown(), /Answered anyway\./);
    assert.equal(model.requests.length, 1);
  });

  test('slash commands that need no model answer without one', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const model = await scriptedModel();
    model.setScript([]);
    for (const command of ['tools', 'skills']) {
      const { result, recorded } = await askToolshed('', { command, model: null });
      assert.equal(result.errorDetails, undefined, `/${command}: ${JSON.stringify(result.errorDetails)}`);
      assert.ok(recorded.markdown().length > 0, `/${command} answered`);
    }
    assert.equal(model.requests.length, 0);
  });

  test('Validate Skill Packs does not report absent default agent-skill folders', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const defaults = api.services.skillPacks
      .packs()
      .filter((pack) => pack.optional)
      .map((pack) => pack.root);
    assert.ok(
      defaults.some((root) => root.endsWith('.claude/skills')),
      `default folders resolved: ${defaults.join(', ')}`,
    );
    const result = await vscode.commands.executeCommand<{ problems: Array<{ file: string; severity: string; code: string }>; errors: number }>(
      'toolshed.validateSkillPacks',
    );
    const aboutDefaults = result.problems.filter((problem) => defaults.includes(problem.file));
    assert.deepEqual(aboutDefaults, [], 'no problem for a default folder that does not exist');
    assert.ok(!result.problems.some((problem) => problem.code === 'pack-not-found' && problem.severity === 'error'));
  });

  test('while MCP servers are still publishing tools, the answer says "Starting MCP servers…" and then sees them', async () => {
    const model = await scriptedModel();
    model.setScript([[{ toolCall: { name: 'tool_search', input: { query: 'weather forecast for a city' } } }], 'done']);
    const api = await toolshed();
    // Extension tools are declared statically, so the host cannot make vscode.lm.tools grow the
    // way a starting MCP server does; the catalog is told of a change instead.
    api.services.toolCatalogSettling.recordChange();
    assert.ok(api.services.toolCatalogSettling.isSettling);
    const { recorded } = await askToolshed('What is the weather in Oslo?');
    assert.equal(recorded.steps()[0], 'Starting MCP servers…', recorded.steps().join(' | '));
    assert.ok(lastToolResultText(model.requests[1] as never).includes(WEATHER), 'the republished tool is found');
    model.setScript(['quiet']);
    const later = await askToolshed('Again?');
    assert.ok(!later.recorded.steps().includes('Starting MCP servers…'), 'no wait once the catalog is quiet');
  });
});
