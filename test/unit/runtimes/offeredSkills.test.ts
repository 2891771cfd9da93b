import * as assert from 'node:assert/strict';
import type { PreflightSkills } from '../../../src/core/planner/plannerPorts';
import { offeredSkills } from '../../../src/core/runtimes/offeredSkills';

type Verdict = NonNullable<NonNullable<PreflightSkills['record']>['ranked'][number]['verdict']>;
const passed: Verdict = { passed: true };
const cut = (relevance: number, best: number): Verdict => ({ passed: false, rule: 'relativeCut', relevance, best, cut: 0.7 });
const below = (relevance: number): Verdict => ({ passed: false, rule: 'minRelevance', relevance, minimum: 0.25 });
const stuffed: Verdict = { passed: false, rule: 'stuffed', reason: 'its description uses 400 different words' };

/** A hybrid pre-flight with no model: the gate's candidates in search order (passed unless a verdict says otherwise), `injected` went in. */
function preflight(candidates: Array<[string, number, Verdict?]>, injected: string[] = [], wouldAsk = true): PreflightSkills {
  return {
    pinnedBlock: '',
    relevantBlock: '',
    used: injected.map((name) => ({ name })),
    omitted: [],
    record: {
      selection: 'hybrid',
      ranked: candidates.map(([name, relevance, verdict]) => ({ name, relevance, verdict: verdict ?? passed })),
      offered: candidates.filter(([, , verdict]) => !verdict || verdict.passed).map(([name]) => name),
      model: { asked: false, wouldAsk, chose: [] },
    },
  };
}
const unsure = (candidates: Array<[string, number, Verdict?]>, injected: string[] = []) => preflight(candidates, injected);

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

  it('the best-ranked skills are offered beside a confident injection, also one the relative cut held back', () => {
    const confident = preflight(
      [
        ['statistical-analysis', 0.28, cut(0.28, 0.46)],
        ['statistical-analyst', 0.2, below(0.2)],
        ['report', 0.46],
      ],
      ['report'],
      false,
    );
    assert.deepEqual(offeredSkills(confident), ['statistical-analysis'], 'below the gate’s absolute minimum is never offered');
    const withStuffed = preflight(
      [
        ['keyword-soup', 0.9, stuffed],
        ['prometheus', 0.88],
        ['slo-implementation', 0.61, cut(0.61, 0.88)],
      ],
      ['prometheus'],
      false,
    );
    assert.deepEqual(offeredSkills(withStuffed), ['slo-implementation'], 'a stuffed skill is never offered');
  });

  it('nothing when a model was asked (it chose)', () => {
    const asked = unsure([['a', 0.4]]);
    asked.record!.model = { asked: true, wouldAsk: true, chose: [] };
    assert.deepEqual(offeredSkills(asked), []);
  });
});
