import * as assert from 'node:assert/strict';
import { scriptedModel, toolshed } from './helpers';
import { askToolshed, callWhenOfferedScript, driver, historyOf, withSettings } from './chatHelpers';

const WEATHER = 'fixture_weather_forecast';
const MODEL_REQUESTS = /_Model requests: (\d+) \((?:(\d+) to choose the active skills, )?(\d+) rounds?\)\._/;

type Recorded = { toolNames: string[] };

suite('tools before the model asks: pre-activation by relevance (scripted model)', () => {
  setup(async () => {
    await toolshed();
    (await driver()).testTools.reset();
  });

  test('a request whose tool passes the gate: round 1 already offers it, the turn takes 2 rounds, the step, /tools and the footer say so', async () => {
    await withSettings({ 'toolshed.toolSearch.preActivateTools': 3, 'toolshed.toolSearch.activationScope': 'session' }, async () => {
      const model = await scriptedModel();
      model.setScript(callWhenOfferedScript(WEATHER, { city: 'Oslo' }, 'weather forecast', 'Oslo'));
      const prompt = 'What is the weather forecast for Oslo?';
      const { result, recorded } = await askToolshed(prompt);

      assert.equal(model.requests.length, 2, 'call, then answer: no tool_search round');
      assert.ok(model.requests[0]!.toolNames.includes(WEATHER), `round 1 offers the tool: ${model.requests[0]!.toolNames.join(', ')}`);
      assert.ok(model.requests[0]!.toolNames.includes('tool_search'), 'tool_search stays available');
      assert.deepEqual((await driver()).testTools.calls, [{ name: WEATHER, input: { city: 'Oslo' } }]);
      // The step says why: the relevance the gate measured (and the words matched, when core gives them).
      assert.ok(
        recorded.steps().some((step) => new RegExp(`^Activated \`${WEATHER}\` \\(matched your request(: [^—]+)? — \\d\\.\\d\\d\\)$`).test(step)),
        recorded.steps().join(' | '),
      );
      assert.match(recorded.markdown(), /Oslo: Forecast for Oslo: sunny/);
      assert.match(recorded.markdown(), new RegExp(`_Activated 1 tool matching your request before the first round: \`${WEATHER}\` \\(\\d\\.\\d\\d\\)`));
      const footer = MODEL_REQUESTS.exec(recorded.markdown());
      assert.ok(footer, recorded.markdown());
      assert.equal(Number(footer[1]), model.requests.length, 'every model request of the turn is counted');
      assert.equal(Number(footer[3]), 2);
      assert.equal((result.metadata as { toolshed: { rounds: unknown[] } }).toolshed.rounds.length, 2);

      const tools = await askToolshed('', { command: 'tools', history: historyOf(prompt, result, recorded.markdown()) });
      assert.match(tools.recorded.markdown(), new RegExp(`\`${WEATHER}\` — matched your request(: [^—]+)? — \\d\\.\\d\\d, 1 call`), tools.recorded.markdown());
    });
  });

  test('the footer counts the skill-selection request with the rounds', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    await withSettings({ 'toolshed.skills.selection': 'hybrid', 'toolshed.skills.maxActive': 3 }, async () => {
      const model = await scriptedModel();
      // A selection request offers no tools and asks for JSON; a round offers tools.
      const reply = (request: unknown) => ((request as unknown as Recorded).toolNames.length === 0 ? JSON.stringify({ skills: [] }) : 'Done.');
      model.setScript([reply, reply]);
      const { result, recorded } = await askToolshed(
        'Write release notes and a commit message, fix the lint errors and describe the pull request for the changes since the last tag',
      );
      const footer = MODEL_REQUESTS.exec(recorded.markdown());
      assert.ok(footer, recorded.markdown());
      const rounds = (result.metadata as { toolshed: { rounds: unknown[] } }).toolshed.rounds.length;
      const selections = model.requests.filter((request) => request.toolNames.length === 0).length;
      assert.equal(Number(footer[1]), model.requests.length, 'total = every request the model received');
      assert.equal(Number(footer[3]), rounds);
      assert.equal(Number(footer[2] ?? 0), selections);
      assert.equal(selections + rounds, model.requests.length);
    });
  });
});
