import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { extractTraceCandidate } from '../../../src/core/learning/extraction/traceExtractor';
import { inferTaskType, titleOf } from '../../../src/core/learning/extraction/learnedCandidate';
import { PERSONAL, turn } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';

describe('trace extractor', () => {
  it('turns a 3-call turn into trigger, ordered steps with argument names only, tools and task type', () => {
    const candidate = extractTraceCandidate(
      turn('Check the weather in Oslo and Bergen, then file an issue about it', [
        { tool: WEATHER, input: { city: 'Oslo' }, ok: true },
        { tool: WEATHER, input: { city: 'Bergen' }, ok: true },
        { tool: ISSUE, input: { title: 'Rain in Bergen', body: 'Bring umbrellas' }, ok: true },
      ]),
      PERSONAL,
    );
    assert.ok(candidate);
    assert.equal(candidate.trigger, 'Check the weather in Oslo and Bergen, then file an issue about it');
    assert.deepEqual(candidate.steps, [`Call \`${WEATHER}\` with \`city\` (repeat for each item).`, `Call \`${ISSUE}\` with \`body\`, \`title\`.`]);
    assert.deepEqual(candidate.citations.tools, [WEATHER, ISSUE]);
    assert.equal(candidate.task_type, 'api');
    assert.match(candidate.name, /^learned\.api\.[a-z0-9-]+$/);
    const json = JSON.stringify(candidate.steps);
    for (const value of ['Rain in Bergen', 'umbrellas']) assert.ok(!json.includes(value), `argument value "${value}" leaked into steps`);
  });

  it('keeps a recovered error as a failure mode, with what worked instead', () => {
    const candidate = extractTraceCandidate(
      turn('deploy the preview', [
        { tool: 'deploy_preview', input: { env: 'x' }, ok: false, error: "environment 'preview-17' is locked by another deployment" },
        { tool: 'unlock_env', input: { env: 'x' }, ok: true },
        { tool: 'deploy_preview', input: { env: 'x' }, ok: true },
      ]),
      PERSONAL,
    );
    assert.ok(candidate);
    assert.equal(candidate.failure_modes.length, 1);
    assert.match(
      candidate.failure_modes[0]!,
      /`deploy_preview` may fail \(conflict: environment <value> is locked by another deployment\); then call `unlock_env` with `env`\./,
    );
  });

  it('proposes nothing for a cancelled turn, a turn stopped at the round cap, or fewer than two successful calls', () => {
    const calls = [
      { tool: WEATHER, input: {}, ok: true },
      { tool: ISSUE, input: {}, ok: true },
    ];
    assert.equal(extractTraceCandidate(turn('x y', calls, { stoppedBecause: 'cancelled' }), PERSONAL), undefined);
    assert.equal(extractTraceCandidate(turn('x y', calls, { stoppedBecause: 'maxRounds' }), PERSONAL), undefined);
    assert.equal(extractTraceCandidate(turn('x y', [calls[0]!, { tool: ISSUE, input: {}, ok: false, error: 'boom' }]), PERSONAL), undefined);
  });

  it('is deterministic and caps steps at 8', () => {
    const calls = Array.from({ length: 20 }, (_, i) => ({ tool: `tool_${i}`, input: { [`f${i}`]: i }, ok: true }));
    const a = extractTraceCandidate(turn('run the whole pipeline', calls), PERSONAL);
    const b = extractTraceCandidate(turn('run the whole pipeline', calls), PERSONAL);
    assert.deepEqual(a, b);
    assert.equal(a!.steps.length, 8);
    assert.match(a!.steps[7]!, /^Then: `tool_7` with `f7`; `tool_8`/);
  });

  it('property: no argument value ever appears in a candidate', () => {
    const value = fc.string({ minLength: 8, maxLength: 30 }).filter((s) => /^[A-Za-z0-9]{8,}$/.test(s));
    fc.assert(
      fc.property(fc.array(fc.record({ key: fc.constantFrom('city', 'title', 'query', 'path'), value }), { minLength: 2, maxLength: 12 }), (args) => {
        const candidate = extractTraceCandidate(
          turn(
            'do the usual thing twice',
            args.map((a, i) => ({ tool: `tool_${i % 3}`, input: { [a.key]: a.value }, ok: true })),
          ),
          PERSONAL,
        );
        const json = JSON.stringify(candidate);
        return args.every((a) => !json.includes(a.value));
      }),
      { numRuns: 200 },
    );
  });

  it('titles stop at a word, never on a joining word; task type follows the most hints', () => {
    assert.equal(titleOf('Get the weekend forecast for Oslo and Bergen and open an issue'), 'Get the weekend forecast for Oslo and Bergen');
    assert.equal(inferTaskType(['browser_click'], 'click the login button on the page'), 'browser');
    assert.equal(inferTaskType(['run_tests'], 'fix the failing tests and commit'), 'code');
    assert.equal(inferTaskType([], 'hello there'), 'unknown');
  });
});
