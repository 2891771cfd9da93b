import * as assert from 'node:assert/strict';
import type { ChatModelPort } from '../../../src/core/platform/chatTypes';
import { bestStandsOut, hybridNeedsModel } from '../../../src/core/planner/selection/hybridDecision';
import { selectActiveSkills } from '../../../src/core/planner/selection/activeSkillSelection';
import type { SelectionRequest } from '../../../src/core/planner/selection/activeSkillSelection';

/** Counts selection requests; answers with `answer`. */
function countingModel(answer: string): ChatModelPort & { requests: number } {
  const model = {
    requests: 0,
    async *send() {
      model.requests++;
      yield { kind: 'text' as const, text: answer };
    },
    countTokens: async (text: string) => Math.ceil(text.length / 4),
  };
  return model;
}

const candidate = (name: string, relevance: number) => ({ name, description: `${name} things`, relevance });
const request = (candidates: SelectionRequest['candidates'], overrides: Partial<SelectionRequest> = {}): SelectionRequest => ({
  mode: 'hybrid',
  task: 'do it',
  candidates,
  pinned: [],
  maxActive: 3,
  timeoutMs: 1000,
  askModelBelowRelevance: 0.45,
  ...overrides,
});
const live = { isCancelled: false };

describe('hybrid selection asks a model only when it can help', () => {
  it('a candidate the request’s words do not corroborate is never injected on search alone: the model is asked, and without one it is left out', async () => {
    // "is 'data' singular or plural?": a skill whose description lists "singular/plural" pages
    // covers most of the request's rare words, but shares only two of its three.
    const chance = { ...candidate('competitor-alternatives', 0.94), corroborated: false as const };
    assert.equal(hybridNeedsModel([chance], 3, { confident: 0.45 }), true);
    assert.equal(
      hybridNeedsModel([candidate('pdf-form-filler', 0.94), { ...candidate('later', 0.5), corroborated: false as const }], 3, { confident: 0.45 }),
      true,
    );
    const alone = await selectActiveSkills(request([chance, candidate('report', 0.5)]), { signal: live });
    assert.deepEqual(
      alone.active.map((a) => a.name),
      ['report'],
    );
    assert.equal(alone.wouldAskModel, true);
    const model = countingModel('{"skills": ["competitor-alternatives"]}');
    const chosen = await selectActiveSkills(request([chance, candidate('report', 0.5)]), { model, signal: live });
    assert.equal(model.requests, 1);
    assert.deepEqual(
      chosen.active.map((a) => a.name),
      ['competitor-alternatives'],
      'a model may still choose it',
    );
    // With the confirmation threshold off (0), search alone decides, as before.
    assert.equal(hybridNeedsModel([chance], 3, { confident: 0 }), false);
  });

  it('the decision: nothing passed, a confident winner, or all fit → no request; an unsure best or a close crowd beyond the slots → a request', () => {
    const at = (...values: number[]) => values.map((relevance) => ({ relevance }));
    assert.equal(hybridNeedsModel([], 3, { confident: 0.45 }), false, 'nothing passed the gate');
    assert.equal(hybridNeedsModel(at(0.9, 0.3), 3, { confident: 0.45 }), false, 'confident, all fit');
    assert.equal(hybridNeedsModel(at(0.9, 0.5, 0.4, 0.3, 0.3), 3, { confident: 0.45 }), false, 'a clear winner beyond the slots');
    assert.equal(hybridNeedsModel(at(0.9, 0.85, 0.8, 0.8), 3, { confident: 0.45 }), true, 'four about as relevant, three slots');
    assert.equal(hybridNeedsModel(at(0.3), 3, { confident: 0.45 }), true, 'the best is below the confirmation threshold');
    assert.equal(hybridNeedsModel(at(0.9, 0.8), 0, { confident: 0.45 }), false, 'no free slot');
  });

  it('no candidate passed the gate → nothing active and no model request', async () => {
    const model = countingModel('{"skills": []}');
    const outcome = await selectActiveSkills(request([]), { model, signal: live });
    assert.deepEqual(outcome.active, []);
    assert.equal(model.requests, 0);
    assert.equal(outcome.selectionTokens, 0);
  });

  it('a clear, confident winner → the search answer (confident candidates only) without a model request', async () => {
    const model = countingModel('{"skills": ["b"]}');
    const outcome = await selectActiveSkills(request([candidate('a', 0.9), candidate('b', 0.3), candidate('c', 0.28), candidate('d', 0.26)]), {
      model,
      signal: live,
    });
    assert.deepEqual(outcome.active, [{ name: 'a', reason: 'best match' }]);
    assert.equal(model.requests, 0);
    assert.equal(outcome.askedModel, false);
  });

  it('fewer confident candidates than maxActive → all of them, no model request', async () => {
    const model = countingModel('{"skills": []}');
    const outcome = await selectActiveSkills(request([candidate('a', 0.8), candidate('b', 0.7)]), { model, signal: live });
    assert.deepEqual(
      outcome.active.map((s) => s.name),
      ['a', 'b'],
    );
    assert.equal(model.requests, 0);
  });

  it('an unsure best candidate → one request; the model may pick none, and then none is injected', async () => {
    const model = countingModel('{"skills": []}');
    const outcome = await selectActiveSkills(request([candidate('a', 0.35), candidate('b', 0.3)]), { model, modelName: 'Small Model', signal: live });
    assert.equal(model.requests, 1);
    assert.deepEqual(outcome.active, []);
    assert.equal(outcome.modelName, 'Small Model');
    assert.ok(outcome.selectionTokens > 0);
  });

  it('an unusable answer → the unsure candidates it was asked to confirm are not injected', async () => {
    const model = countingModel('Sure, the first one.');
    const outcome = await selectActiveSkills(request([candidate('a', 0.35), candidate('b', 0.3)]), { model, signal: live });
    assert.equal(model.requests, 1);
    assert.deepEqual(outcome.active, []);
    assert.match(outcome.fallbackReason, /JSON/);
  });

  it('no model (the CLI) → says a model would be asked, injects only confident candidates', async () => {
    const outcome = await selectActiveSkills(request([candidate('a', 0.9), candidate('b', 0.88), candidate('c', 0.87), candidate('d', 0.86)]), {
      signal: live,
    });
    assert.equal(outcome.wouldAskModel, true);
    assert.equal(outcome.askedModel, false);
    assert.deepEqual(
      outcome.active.map((s) => s.name),
      ['a', 'b', 'c'],
    );
  });

  it('whether the best stands out: fewer than ten candidates, or the best 0.1 above the tenth', () => {
    const at = (...values: number[]) => values.map((relevance) => ({ relevance }));
    assert.equal(bestStandsOut(at(0.5, 0.5, 0.5)), true, 'too few to call it a crowd');
    assert.equal(bestStandsOut(at(0.6, ...Array<number>(9).fill(0.55))), false, 'ten within 0.05');
    assert.equal(bestStandsOut(at(0.7, ...Array<number>(9).fill(0.55))), true, 'the best 0.15 above the tenth');
    assert.equal(bestStandsOut(at(...Array<number>(9).fill(0.55), 0.7)), true, 'in any order');
  });

  it('a dozen candidates about as relevant and no model → none injected (the search order is chance)', async () => {
    const crowd = Array.from({ length: 12 }, (_, i) => candidate(`s${i}`, 0.56 - i * 0.005));
    const withoutModel = await selectActiveSkills(request(crowd), { signal: live });
    assert.equal(withoutModel.wouldAskModel, true);
    assert.deepEqual(withoutModel.active, [], 'no confident-looking pick from a flat list');
    const failing = await selectActiveSkills(request(crowd), { model: countingModel('not JSON'), signal: live });
    assert.deepEqual(failing.active, [], 'nor when the model’s answer cannot be used');
    const answered = await selectActiveSkills(request(crowd), { model: countingModel('{"skills": ["s7"]}'), signal: live });
    assert.deepEqual(answered.active, [{ name: 's7', reason: 'chosen by the model' }], 'the model still chooses among them');
    const standsOut = [candidate('top', 0.7), ...crowd.slice(1)];
    assert.deepEqual(
      (await selectActiveSkills(request(standsOut), { signal: live })).active.map((s) => s.name),
      ['top', 's1', 's2'],
      'one that stands out: the confident ones, as before',
    );
  });

  it('pinned skills keep their slots without a model request', async () => {
    const model = countingModel('{"skills": []}');
    const outcome = await selectActiveSkills(request([candidate('a', 0.9)], { pinned: ['p'] }), { model, signal: live });
    assert.deepEqual(outcome.active, [
      { name: 'p', reason: 'pinned' },
      { name: 'a', reason: 'best match' },
    ]);
    assert.equal(model.requests, 0);
  });
});
