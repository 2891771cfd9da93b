import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedModel, toolshed } from './helpers';
import { askToolshed, driver, historyOf, lastToolResultText, userFacingTexts, withSettings } from './chatHelpers';

const WEATHER = 'fixture_weather_forecast';
const ADMIN = 'fixture_admin_delete_repository';

/** Round 2 of a discovery script: call whatever weather tool tool_search returned. */
function callFoundWeatherTool(request: { messages: never[] }) {
  const found = JSON.parse(lastToolResultText(request)) as { tools: Array<{ name: string }> };
  const tool = found.tools.find((t) => t.name.includes('weather'));
  return [{ toolCall: { name: tool ? tool.name : 'tool_not_found', input: { city: 'Oslo' } } }];
}

suite('@toolshed participant: planner loop with deferred tools (scripted model)', () => {
  setup(async () => {
    await toolshed();
    (await driver()).testTools.reset();
  });

  test('tool_search finds a deferred tool, it is activated, called, and the answer uses its result', async () => {
    const model = await scriptedModel();
    model.setScript([
      [{ toolCall: { name: 'tool_search', input: { query: 'weather forecast for a city' } } }],
      (request) => callFoundWeatherTool(request as never),
      (request) => `Oslo: ${lastToolResultText(request as never)}`,
    ]);
    const { recorded } = await askToolshed('What is the weather in Oslo?');

    assert.equal(model.requests.length, 3);
    assert.ok(!model.requests[0].toolNames.includes(WEATHER), 'deferred tool absent before discovery');
    assert.ok(model.requests[0].toolNames.includes('tool_search'));
    assert.ok(model.requests[1].toolNames.includes(WEATHER), 'found tool offered in the next round');
    const weather = model.requests[1].tools.find((tool) => tool.name === WEATHER);
    assert.match(weather?.description ?? '', /São Paulo/, 'the example from .vscode/team.tools.yaml is rendered under the description');
    assert.deepEqual((await driver()).testTools.calls, [{ name: WEATHER, input: { city: 'Oslo' } }]);
    assert.match(recorded.markdown(), /Oslo: Forecast for Oslo: sunny, 21°C/);
    assert.ok(
      recorded.steps().some((p) => p.includes('Searching tools for')),
      recorded.steps().join(' | '),
    );
    assert.ok(recorded.steps().includes(`Activated \`${WEATHER}\``), recorded.steps().join(' | '));
    // Every step is visible in the answer; none is a transient progress message that VS Code
    // would count in "Completed N steps" and then hide.
    assert.deepEqual(recorded.progress, []);
    assert.deepEqual(
      recorded.steps().filter((step) => !/^(Using skill|Starting MCP servers)/.test(step)),
      ['Searching tools for "weather forecast for a city"', `Activated \`${WEATHER}\``, `Running \`${WEATHER}\``],
    );
    assert.ok(model.requests[0].toolNames.length < 10, `only a few tools are sent: ${model.requests[0].toolNames.join(', ')}`);
  });

  test('a denied tool and an unknown tool get the same answer, and the denied name never reaches the model', async () => {
    await withSettings({ 'toolshed.toolSearch.deny': ['fixture_admin_*'] }, async () => {
      const model = await scriptedModel();
      model.setScript([
        [{ toolCall: { name: 'tool_search', input: { query: 'delete repository administration' } } }],
        [
          { toolCall: { name: ADMIN, input: { repository: 'x' }, callId: 'denied' } },
          { toolCall: { name: 'no_such_tool_anywhere', input: {}, callId: 'unknown' } },
        ],
        'ok',
      ]);
      await askToolshed('Delete the repository x');
      const results = model.requests[2].messages.flatMap((m) => m.content).filter((p) => p.type === 'toolResult') as Array<{
        callId: string;
        content: Array<{ value?: string }>;
      }>;
      const text = (id: string) =>
        results
          .find((r) => r.callId === id)
          ?.content.map((c) => c.value ?? '')
          .join('');
      assert.ok(text('denied'), 'the denied call got an answer');
      assert.equal(text('denied'), text('unknown'));
      for (const request of model.requests) {
        assert.ok(!request.toolNames.includes(ADMIN), 'never offered');
        assert.ok(!userFacingTexts(request).includes(ADMIN), `never named to the model in round ${request.index}`);
      }
      assert.deepEqual((await driver()).testTools.calls, [], 'nothing ran');
    });
  });

  test('skill_search then skill_get mid-run; pre-flight injection is present and within budget', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const model = await scriptedModel();
    model.setScript([
      [{ toolCall: { name: 'skill_search', input: { query: 'write a commit message' } } }],
      (request) => {
        const found = JSON.parse(lastToolResultText(request as never)) as { skills: Array<{ name: string }> };
        return [{ toolCall: { name: 'skill_get', input: { names: [found.skills[0]?.name ?? 'missing'] } } }];
      },
      'Following the skill.',
    ]);
    const { result } = await askToolshed('Help me write a good commit message for my staged changes');
    const searchResult = JSON.parse(lastToolResultText(model.requests[1] as never)) as { skills: Array<{ name: string; score: number }> };
    assert.ok(searchResult.skills.length > 0, 'skill_search found skills');
    assert.ok(searchResult.skills.every((s) => s.score >= 0 && s.score <= 1));
    const getResult = JSON.parse(lastToolResultText(model.requests[2] as never)) as {
      skills: Array<{ name: string; steps: string[] }>;
      formatted_context: string;
    };
    assert.equal(getResult.skills[0]?.name, searchResult.skills[0].name);
    assert.ok(getResult.skills[0].steps.length > 0 || getResult.formatted_context.length > 0);

    const firstPrompt = userFacingTexts(model.requests[0]);
    assert.match(firstPrompt, /skill/i, 'pre-flight skill context present');
    const tokens = (result.metadata as { toolshed: { tokens: { injectedSkillTokens: number } } }).toolshed.tokens;
    assert.ok(tokens.injectedSkillTokens > 0, 'something was injected');
    assert.ok(tokens.injectedSkillTokens <= vscode.workspace.getConfiguration('toolshed.skills').get<number>('maxTokens', 2000) + 200);
  });

  test('session scope carries activations to the next turn; run scope does not', async () => {
    for (const scope of ['session', 'run'] as const) {
      await withSettings({ 'toolshed.toolSearch.activationScope': scope }, async () => {
        const model = await scriptedModel();
        model.setScript([[{ toolCall: { name: 'tool_search', input: { query: 'weather forecast' } } }], 'found it']);
        const first = await askToolshed('Find me a weather tool');
        model.setScript(['second turn']);
        await askToolshed('And now?', { history: historyOf('Find me a weather tool', first.result, 'found it') });
        const offered = model.requests[0].toolNames.includes(WEATHER);
        assert.equal(offered, scope === 'session', `${scope} scope: weather tool offered on turn 2 = ${offered}`);
      });
    }
  });

  test('with skills turned off, no skill tools are offered and nothing is injected', async () => {
    await withSettings({ 'toolshed.skills.enabled': false }, async () => {
      const model = await scriptedModel();
      model.setScript(['no skills today']);
      const { result } = await askToolshed('Help me write a good commit message');
      assert.ok(!model.requests[0].toolNames.some((name) => name.startsWith('skill_')), model.requests[0].toolNames.join(', '));
      assert.equal((result.metadata as { toolshed: { tokens: { injectedSkillTokens: number } } }).toolshed.tokens.injectedSkillTokens, 0);
      const direct = await vscode.lm.invokeTool('skill_search', { input: { query: 'commit' }, toolInvocationToken: undefined });
      assert.match(direct.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''), /turned off/);
    });
  });

  test('/skills, /skill, /tools and /search respond', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const skills = await askToolshed('', { command: 'skills' });
    assert.match(skills.recorded.markdown(), /\*\*Skills\*\*/);
    const firstName = /`([^`]+)`/.exec(skills.recorded.markdown())?.[1];
    assert.ok(firstName, 'a skill name is listed');

    const pinned = await askToolshed(firstName, { command: 'skill' });
    assert.match(pinned.recorded.markdown(), /Pinned/);
    assert.deepEqual((pinned.result.metadata as { toolshed: { pinnedSkills: string[] } }).toolshed.pinnedSkills, [firstName]);

    const tools = await askToolshed('', { command: 'tools' });
    assert.match(tools.recorded.markdown(), /Always visible/);
    assert.match(tools.recorded.markdown(), /Deferred/);

    const search = await askToolshed('weather forecast', { command: 'search' });
    assert.match(search.recorded.markdown(), new RegExp(WEATHER));
    assert.match(search.recorded.markdown(), /\*\*Skills\*\*/);
  });

  test('cancellation stops the loop: no further round, no tool run', async () => {
    const source = new vscode.CancellationTokenSource();
    const model = await scriptedModel();
    model.setScript([
      () => {
        source.cancel();
        return [{ toolCall: { name: WEATHER, input: { city: 'Rome' } } }];
      },
      'should never be requested',
    ]);
    await askToolshed('weather in Rome', { token: source.token });
    assert.equal(model.requests.length, 1);
    assert.deepEqual((await driver()).testTools.calls, []);
  });
});

suite('Copilot-style use through vscode.lm.invokeTool', () => {
  const text = (result: vscode.LanguageModelToolResult) =>
    result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');

  test('tool_search is a registered LM tool that finds deferred tools', async () => {
    await toolshed();
    const result = await vscode.lm.invokeTool('tool_search', { input: { query: 'weather forecast city' }, toolInvocationToken: undefined });
    const output = JSON.parse(text(result)) as { tools: Array<{ name: string; score: number; match_type: string; loading_mode: string }>; search_type: string };
    assert.equal(output.tools[0]?.name, WEATHER);
    assert.equal(output.tools[0].loading_mode, 'deferred');
    assert.ok(['fts', 'regex'].includes(output.search_type));
  });

  test('tool_invoke runs a found tool; denied and unknown tools get the same answer', async () => {
    await toolshed();
    (await driver()).testTools.reset();
    const ran = await vscode.lm.invokeTool('tool_invoke', { input: { name: WEATHER, input: { city: 'Paris' } }, toolInvocationToken: undefined });
    assert.match(text(ran), /Forecast for Paris/);
    await withSettings({ 'toolshed.toolSearch.deny': ['fixture_admin_*'] }, async () => {
      const denied = await vscode.lm.invokeTool('tool_invoke', { input: { name: ADMIN, input: {} }, toolInvocationToken: undefined });
      const unknown = await vscode.lm.invokeTool('tool_invoke', { input: { name: 'nothing_like_this', input: {} }, toolInvocationToken: undefined });
      assert.equal(text(denied), text(unknown));
      const search = await vscode.lm.invokeTool('tool_search', { input: { query: 'delete repository' }, toolInvocationToken: undefined });
      assert.ok(!text(search).includes(ADMIN));
    });
    assert.deepEqual(
      (await driver()).testTools.calls.map((c) => c.name),
      [WEATHER],
    );
  });

  test('skill tools answer from agent mode', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const result = await vscode.lm.invokeTool('skill_list', { input: { page: 1 }, toolInvocationToken: undefined });
    const output = JSON.parse(text(result)) as { skills: unknown[]; total: number };
    assert.ok(output.total > 0 && output.skills.length > 0);
  });
});
