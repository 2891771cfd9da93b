import * as assert from 'node:assert/strict';
import { createModelExtractor, extractionPrompt } from '../../../src/core/learning/extraction/modelExtractor';
import type { ChatModelPort } from '../../../src/core/platform/chatTypes';
import { makeLearning, PERSONAL, turn } from './helpers';

const trajectory = () =>
  turn('Check the weather forecast in Oslo and create an issue for alice.smith@example.com', [
    { tool: 'fixture_weather_forecast', input: { city: 'Oslo' }, ok: true },
    { tool: 'fixture_create_issue', input: { title: 'Rainy' }, ok: true },
  ]);

function model(answer: string | (() => Promise<string>)): ChatModelPort & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    prompts,
    async *send(messages) {
      prompts.push(JSON.stringify(messages));
      yield { kind: 'text', text: typeof answer === 'string' ? answer : await answer() };
    },
    countTokens: async (text) => Math.ceil(text.length / 4),
  };
}

const GOOD = JSON.stringify({
  title: 'Weather report as an issue',
  trigger: 'When asked to report a city forecast as an issue',
  steps: ['Call fixture_weather_forecast with the city.', 'Call fixture_create_issue with a title summarising the forecast; mail alice.smith@example.com.'],
});

describe('model extractor', () => {
  it('a valid answer becomes the proposal (depersonalized); the prompt carries argument names, never values', async () => {
    const h = await makeLearning({ config: { extractor: 'model' } });
    const m = model(`Sure!\n${GOOD}`);
    const { proposal } = await h.learning.ingest(trajectory(), { extractor: createModelExtractor(m, { personal: () => PERSONAL }) });
    assert.equal(proposal?.origin, 'model');
    assert.equal(proposal?.candidate.title, 'Weather report as an issue');
    assert.ok(!JSON.stringify(proposal).includes('alice.smith@example.com'));
    assert.ok(!m.prompts[0]!.includes('Rainy') && !m.prompts[0]!.includes('alice.smith'), 'sanitized trajectory only');
    assert.match(extractionPrompt(trajectory()), /fixture_create_issue\(title\)/);
  });

  for (const [label, answer] of [
    ['garbage', 'I cannot do that.'],
    ['invalid JSON', '{"title": "x", steps: [}'],
    ['one step only', JSON.stringify({ title: 'Weather', trigger: 'When asked for weather things', steps: ['Call the weather tool now.'] })],
    [
      'non-imperative steps',
      JSON.stringify({ title: 'Weather', trigger: 'When asked for weather things', steps: ['I called the weather tool.', 'Then the issue tool.'] }),
    ],
    ['extra keys', JSON.stringify({ ...JSON.parse(GOOD), script: 'rm -rf /' })],
  ] as const) {
    it(`${label} leaves the trace proposal`, async () => {
      const h = await makeLearning({ config: { extractor: 'model' } });
      const { proposal } = await h.learning.ingest(trajectory(), { extractor: createModelExtractor(model(answer), { personal: () => PERSONAL }) });
      assert.equal(proposal?.origin, 'trace');
      assert.match(proposal!.candidate.steps[0]!, /^Call `fixture_weather_forecast` with `city`/);
    });
  }

  it('a timeout or a cancellation leaves the trace proposal and no error', async () => {
    for (const extractor of [
      createModelExtractor(
        model(() => new Promise(() => undefined)),
        { personal: () => PERSONAL, timeoutMs: 30 },
      ),
      createModelExtractor(model(GOOD), { personal: () => PERSONAL, isCancelled: () => true }),
    ]) {
      const h = await makeLearning({ config: { extractor: 'model' } });
      const { proposal } = await h.learning.ingest(trajectory(), { extractor });
      assert.equal(proposal?.origin, 'trace');
      assert.ok(h.learningLogger.lines.some((l) => /model extractor failed/.test(l.message)));
    }
  });

  it('with extractor: trace the model is never asked', async () => {
    const h = await makeLearning({ config: { extractor: 'trace' } });
    const m = model(GOOD);
    await h.learning.ingest(trajectory(), { extractor: createModelExtractor(m, { personal: () => PERSONAL }) });
    assert.equal(m.prompts.length, 0);
  });
});
