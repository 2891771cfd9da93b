import * as assert from 'node:assert/strict';
import type { PreflightSkills } from '../../../src/core/planner/plannerPorts';
import { offeredSkills } from '../../../src/core/runtimes/offeredSkills';

/** A hybrid pre-flight with no model: `candidates` passed the gate (best first), `injected` went in unconfirmed. */
function unsure(candidates: Array<[string, number]>, injected: string[] = []): PreflightSkills {
  return {
    pinnedBlock: '',
    relevantBlock: '',
    used: injected.map((name) => ({ name })),
    omitted: [],
    record: {
      selection: 'hybrid',
      ranked: candidates.map(([name, relevance]) => ({ name, relevance, verdict: { passed: true } })),
      offered: candidates.map(([name]) => name),
      model: { asked: false, wouldAsk: true, chose: [] },
    },
  };
}

/** What a door offers the runtime's model when the gate is unsure (the hook and the reach bench read it). */
describe('skills a door offers instead of injecting', () => {
  it('once the best candidate reaches the floor, the best two not injected are offered, even one just above the gate', () => {
    assert.deepEqual(
      offeredSkills(
        unsure([
          ['pdf-form-filler', 0.43],
          ['pdf-fill-studio', 0.3],
          ['signup-flow', 0.19],
        ]),
      ),
      ['pdf-form-filler', 'pdf-fill-studio'],
    );
    assert.deepEqual(
      offeredSkills(
        unsure(
          [
            ['api-design', 0.47],
            ['mcp-server-patterns', 0.44],
            ['jira', 0.41],
          ],
          ['api-design'],
        ),
      ),
      ['mcp-server-patterns', 'jira'],
    );
  });

  it('nothing when the best is below the floor', () => {
    assert.deepEqual(
      offeredSkills(
        unsure([
          ['route', 0.31],
          ['relationship', 0.3],
        ]),
      ),
      [],
    );
  });

  it('nothing when no candidate stands out: ten skills about as relevant say the request is generic', () => {
    const crowd: Array<[string, number]> = Array.from({ length: 12 }, (_, i) => [`skill-${i}`, 0.4 - i * 0.004]);
    assert.deepEqual(offeredSkills(unsure(crowd)), []);
    const standsOut: Array<[string, number]> = [['the-one', 0.55], ...crowd.slice(1)];
    assert.deepEqual(offeredSkills(unsure(standsOut)), ['the-one', 'skill-1']);
  });

  it('nothing when a model was asked or would not be', () => {
    const asked = unsure([['a', 0.4]]);
    asked.record!.model = { asked: true, wouldAsk: true, chose: [] };
    assert.deepEqual(offeredSkills(asked), []);
    const sure = unsure([['a', 0.4]]);
    sure.record!.model = { asked: false, wouldAsk: false, chose: [] };
    assert.deepEqual(offeredSkills(sure), []);
  });
});
