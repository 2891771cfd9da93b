import * as assert from 'node:assert/strict';
import { sourceHash } from '../../../src/core/learning/extraction/learnedCandidate';
import type { LearnedCandidate } from '../../../src/core/learning/extraction/learnedCandidate';
import { lineageOf } from '../../../src/core/learning/merge/lineage';
import { changesText, describeAdditions } from '../../../src/core/learning/merge/mergeReview';
import { makeLearning, turn } from './helpers';
import type { LearningHarness } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';
const calls = [
  { tool: WEATHER, input: { city: 'Oslo' }, ok: true },
  { tool: WEATHER, input: { city: 'Bergen' }, ok: true },
  { tool: ISSUE, input: { title: 'Weekly forecast', body: 'sunny' }, ok: true },
];
const first = turn('Check the weather forecast in Oslo and Bergen, then create an issue with the summary', calls, { sessionId: 'a', at: 1 });
const paraphrase = turn('check weather forecast for Oslo and Bergen then create issue with summary', calls, { sessionId: 'b', at: 2 });
const REWORDED_STEP = 'Call `fixture_create_issue` with `title` and `body` (the summary).';
const WARNING = 'The forecast tool rejects misspelled city names: check the spelling first.';

/** A model extractor that rewords the last step and adds a failure mode (same procedure, new text). */
const rewriting = async (_t: unknown, fallback: LearnedCandidate): Promise<LearnedCandidate> => {
  const steps = [...fallback.steps.slice(0, -1), REWORDED_STEP];
  return { ...fallback, steps, failure_modes: [WARNING], source_hash: sourceHash(fallback.trigger, steps, fallback.task_type) };
};

/** An approved trace skill, then a model-written proposal of the same procedure. */
async function setup(): Promise<{ h: LearningHarness; target: string; id: string }> {
  const h = await makeLearning({ config: { extractor: 'model' } });
  const a = (await h.learning.ingest(first)).proposal!;
  assert.equal((await h.learning.approve(a.id)).status, 'approved');
  const b = (await h.learning.ingest(paraphrase, { extractor: rewriting })).proposal!;
  assert.equal(b.origin, 'model');
  return { h, target: a.candidate.name, id: b.id };
}

describe('learning: a merge of model-written text is its own proposal (review before merge)', () => {
  it('approving shows the merge (lines it adds, before/after) and changes nothing until the merge is approved', async () => {
    const { h, target, id } = await setup();
    const before = JSON.stringify(h.service.learnedSkills());
    const result = await h.learning.approve(id);
    assert.equal(result.status, 'review');
    assert.ok(result.status === 'review');
    assert.equal(result.name, target);
    assert.deepEqual(result.review.added, { steps: [REWORDED_STEP], preconditions: [], failure_modes: [WARNING], tags: [] });
    assert.equal(describeAdditions(result.review.added), 'adds 1 step, 1 failure mode');
    assert.ok(!result.review.before.includes(WARNING) && result.review.after.includes(WARNING));
    assert.ok(result.review.after.includes(REWORDED_STEP));
    // Nothing happened yet: same skills, the proposal still pending, no merge event.
    assert.equal(JSON.stringify(h.service.learnedSkills()), before);
    assert.equal(h.learning.proposal(id)?.status, 'proposed');
    assert.ok(!h.learningEvents.events.some((e) => e.type === 'skill_merged'));

    const merged = await h.learning.approve(id, { confirmMerge: true });
    assert.equal(merged.status, 'merged');
    const record = h.service.learnedSkills().find((r) => r.name === target)!;
    assert.ok(record.steps.includes(REWORDED_STEP) && record.failure_modes.includes(WARNING), 'the merge stored what the review showed');
    assert.deepEqual(
      lineageOf(record)?.merged_from.map((s) => s.proposal_id),
      [id],
    );
  });

  it('rejecting the merge: keep it as its own skill, or discard it — the existing skill is untouched either way', async () => {
    for (const reject of ['keep', 'discard'] as const) {
      const { h, target, id } = await setup();
      const before = h.service.inspect(target);
      if (reject === 'keep') {
        const own = await h.learning.approve(id, { noMerge: true, name: 'weather-own' });
        assert.equal(own.status, 'approved');
        assert.equal(h.service.learnedSkills().length, 2);
      } else {
        assert.ok(await h.learning.discard(id));
        assert.equal(h.service.learnedSkills().length, 1);
      }
      assert.deepEqual(h.service.inspect(target), before);
    }
  });

  it('editing the proposal changes what the merge would add', async () => {
    const { h, id } = await setup();
    const proposal = h.learning.proposal(id)!;
    await h.learning.edit(id, { ...proposal.candidate, failure_modes: [] });
    const result = await h.learning.approve(id);
    assert.ok(result.status === 'review');
    assert.deepEqual(result.review.added.failure_modes, []);
    assert.deepEqual(result.review.added.steps, [REWORDED_STEP]);
  });

  it("no review when the text came from the trace, or when the model's text adds nothing: those merge as before", async () => {
    const trace = await makeLearning();
    const a = (await trace.learning.ingest(first)).proposal!;
    await trace.learning.approve(a.id);
    const b = (await trace.learning.ingest(paraphrase)).proposal!;
    assert.equal((await trace.learning.approve(b.id)).status, 'merged');

    const same = await makeLearning({ config: { extractor: 'model' } });
    const c = (await same.learning.ingest(first)).proposal!;
    await same.learning.approve(c.id);
    const echo = (await same.learning.ingest(paraphrase, { extractor: async (_t, fallback) => fallback })).proposal!;
    assert.equal(echo.origin, 'model');
    const review = same.learning.mergeReview(echo.id);
    assert.ok(review && !changesText(review), 'the model repeated the trace text: nothing to review');
    assert.equal((await same.learning.approve(echo.id)).status, 'merged');
  });
});
