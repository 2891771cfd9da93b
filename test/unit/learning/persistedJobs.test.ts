import * as assert from 'node:assert/strict';
import { makeLearning, turn } from './helpers';

const trajectory = () => turn('Check the weather forecast in Oslo and create an issue', [
  { tool: 'fixture_weather_forecast', input: { city: 'Oslo' }, ok: true },
  { tool: 'fixture_create_issue', input: { title: 'x' }, ok: true },
]);

describe('persisted learning jobs (ingestMode: persisted)', () => {
  it('an extraction killed midway leaves no partial proposal; the next start finishes it exactly once', async () => {
    const first = await makeLearning({ config: { ingestMode: 'persisted', extractor: 'model' } });
    const { jobId, trajectory: sanitized } = await first.learning.persistJob(trajectory());
    // The model extractor never answers: the window is "killed" while extraction runs.
    void first.learning.ingest(sanitized, { jobId, extractor: () => new Promise(() => undefined) });
    await new Promise((resolve) => setTimeout(resolve, 20));

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
});
