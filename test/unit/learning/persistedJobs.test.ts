import * as assert from 'node:assert/strict';
import { MAX_PENDING_PROPOSALS } from '../../../src/core/learning/learningStore';
import { makeLearning, turn } from './helpers';

const trajectory = () =>
  turn('Check the weather forecast in Oslo and create an issue', [
    { tool: 'fixture_weather_forecast', input: { city: 'Oslo' }, ok: true },
    { tool: 'fixture_create_issue', input: { title: 'x' }, ok: true },
  ]);

describe('persisted learning jobs (ingestMode: persisted)', () => {
  it('an extraction killed midway leaves no partial proposal; the next start finishes it exactly once', async () => {
    const first = await makeLearning({ config: { ingestMode: 'persisted', extractor: 'model' } });
    const { jobId, trajectory: sanitized } = await first.learning.persistJob(trajectory());
    // The model extractor never answers: the window is "killed" once extraction runs.
    await new Promise<void>((extracting) => {
      void first.learning.ingest(sanitized, { jobId, extractor: () => (extracting(), new Promise(() => undefined)) });
    });

    // Next start: a new skill service and learning service over the same stored bytes.
    const next = await makeLearning({ bytes: first.bytes, config: { ingestMode: 'persisted' } });
    assert.equal(next.learning.proposals().length, 0, 'nothing half-stored');
    assert.equal(next.learning.pendingJobs(), 1);
    assert.equal(await next.learning.resumeJobs(), 1);
    assert.equal(next.learning.proposals().length, 1);
    assert.equal(next.learning.pendingJobs(), 0);

    const again = await makeLearning({ bytes: next.bytes });
    assert.equal(await again.learning.resumeJobs(), 0);
    assert.equal(again.learning.proposals().length, 1, 'finished once, proposed once');
    assert.equal(again.learning.proposals()[0]!.count, 1);
  });

  it('an unreadable job, or one found while learning is off, is dropped cleanly', async () => {
    const h = await makeLearning({ config: { ingestMode: 'persisted' } });
    h.store.addJob('job_bad', '{not json');
    await h.learning.persistJob(trajectory());
    await h.store.save();
    const off = await makeLearning({ bytes: h.bytes, config: { mode: 'off' } });
    assert.equal(await off.learning.resumeJobs(), 0);
    assert.equal(off.learning.pendingJobs(), 0);
    assert.ok(off.learningLogger.lines.some((l) => /dropped an unfinished extraction job/.test(l.message)));
  });

  it('enqueue stores the turn as a job before extraction only with ingestMode: persisted', async () => {
    for (const ingestMode of ['persisted', 'background'] as const) {
      const h = await makeLearning({ config: { ingestMode, extractor: 'model' } });
      let release: () => void = () => undefined;
      const hanging = new Promise<undefined>((resolve) => {
        release = () => resolve(undefined);
      });
      let queued: ReturnType<typeof h.learning.enqueue> | undefined;
      // Reopened while the extractor runs: the job (if any) was stored before extraction began.
      await new Promise<void>((extracting) => {
        queued = h.learning.enqueue(trajectory(), { extractor: () => (extracting(), hanging) });
      });
      const reopened = await makeLearning({ bytes: h.bytes });
      assert.equal(reopened.learning.pendingJobs(), ingestMode === 'persisted' ? 1 : 0, ingestMode);
      release();
      const result = await queued!;
      assert.equal(result.proposal?.origin, 'trace', 'the extractor gave nothing: trace proposal');
      assert.equal(h.learning.pendingJobs(), 0, 'the job is gone once the proposal is stored');
      assert.ok(
        h.learningEvents.events.some((e) => e.type === 'skill_ingest_queued' && e.payload.mode === (ingestMode === 'persisted' ? 'tasks' : 'fire_and_forget')),
      );
    }
  });
});

describe('learning store size', () => {
  it('keeps at most MAX_PENDING_PROPOSALS pending proposals, dropping the oldest', async () => {
    const h = await makeLearning();
    const base = (await h.learning.ingest(trajectory())).proposal!.candidate;
    h.store.transaction(() => {
      for (let i = 0; i < MAX_PENDING_PROPOSALS + 20; i++) {
        h.clock.tick(1);
        h.store.propose(`p_${i}`, { ...base, source_hash: `h${i}` }, 'trace');
      }
    });
    const pending = h.learning.proposals();
    assert.equal(pending.length, MAX_PENDING_PROPOSALS);
    assert.ok(
      pending.some((p) => p.id === `p_${MAX_PENDING_PROPOSALS + 19}`),
      'the newest is kept',
    );
    assert.ok(!pending.some((p) => p.id === 'p_0'), 'the oldest is dropped');
  });
});
