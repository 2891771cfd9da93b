import type { SkillRecord } from '../skills/skillSchema';
import { sourceHashesOf } from './lineage';
import { similarity, termVector } from './similarity';
import type { TermVector } from './similarity';

/**
 * Finds the learned skill a new one should merge into: one whose lineage already holds the same
 * source hash (identical), else the most similar one at or above the threshold (ties: the older
 * skill, then the name, so the choice is deterministic). Term vectors are cached per record id
 * and content hash, so a check against a large store analyses only the new skill.
 */
export interface MergeMatch {
  record: SkillRecord;
  score: number;
  identical: boolean;
}

interface CachedSkill {
  contentHash: string;
  vector: TermVector;
  hashes: ReadonlySet<string>;
}

/** Records cached at most; past it the cache restarts (a bounded cost, never unbounded memory). */
const CACHE_LIMIT = 50_000;

export class MergeIndex {
  private readonly cache = new Map<string, CachedSkill>();

  best(candidate: { trigger: string; steps: readonly string[]; source_hash: string }, records: readonly SkillRecord[], threshold: number): MergeMatch | undefined {
    const vector = termVector(candidate.trigger, candidate.steps);
    let best: MergeMatch | undefined;
    for (const record of records) {
      if (record.origin !== 'learned') continue;
      const cached = this.entry(record);
      const identical = cached.hashes.has(candidate.source_hash);
      const score = identical ? 1 : similarity(vector, cached.vector, threshold);
      if (score < threshold && !identical) continue;
      if (!best || better({ record, score, identical }, best)) best = { record, score, identical };
    }
    return best;
  }

  private entry(record: SkillRecord): CachedSkill {
    const cached = this.cache.get(record.id);
    if (cached && cached.contentHash === record.content_hash) return cached;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    const fresh = { contentHash: record.content_hash, vector: termVector(record.trigger, record.steps), hashes: new Set(sourceHashesOf(record)) };
    this.cache.set(record.id, fresh);
    return fresh;
  }
}

function better(a: MergeMatch, b: MergeMatch): boolean {
  if (a.identical !== b.identical) return a.identical;
  if (a.score !== b.score) return a.score > b.score;
  if (a.record.created_at !== b.record.created_at) return a.record.created_at < b.record.created_at;
  return a.record.name < b.record.name;
}
