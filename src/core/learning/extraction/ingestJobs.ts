import { createHash } from 'node:crypto';
import type { Logger } from '../../platform/ports';
import type { LearningStore } from '../learningStore';
import type { Trajectory } from './trajectory';

/**
 * `ingestMode: persisted`: a sanitized trajectory is written to the learning
 * database before extraction starts, so a reload or crash cannot lose it. Ingestion is idempotent
 * per turn (dedup by source hash, failures counted once per turn): running a job twice never
 * stores anything twice.
 */

/** Stores the (already sanitized) trajectory as a job; returns its id (stable per turn). */
export async function persistIngestJob(store: LearningStore, trajectory: Trajectory): Promise<string> {
  const jobId = `job_${createHash('sha256').update(`${trajectory.sessionId}\u0000${trajectory.at}\u0000${trajectory.request}`).digest('hex').slice(0, 16)}`;
  store.addJob(jobId, JSON.stringify(trajectory));
  await store.save();
  return jobId;
}

/**
 * The jobs an earlier window left, one by one; an unreadable job, or any job while learning is
 * off, is dropped (logged) instead of being returned.
 */
export async function* resumableJobs(store: LearningStore, enabled: () => boolean, logger: Logger): AsyncGenerator<{ jobId: string; trajectory: Trajectory }> {
  for (const job of store.jobs()) {
    let trajectory: Trajectory | undefined;
    try {
      trajectory = JSON.parse(job.payload) as Trajectory;
    } catch {
      trajectory = undefined;
    }
    if (!trajectory || !enabled() || !Array.isArray(trajectory.calls)) {
      store.removeJob(job.id);
      await store.save();
      logger.warn(`Learning: dropped an unfinished extraction job (${trajectory ? 'learning is off' : 'unreadable'}).`);
      continue;
    }
    yield { jobId: job.id, trajectory };
  }
}
