import type { SkillRecord } from '../../skills/skillSchema';
import { contentHash } from '../../skills/store/skillRecords';
import { sourceHash } from '../extraction/learnedCandidate';

/**
 * Lineage of a merged learned skill, kept in the record's `extra.lineage` so it is
 * journaled, exported and shown with the skill itself:
 * - `base`: the record exactly as it was before its first merge (what "undo all" restores);
 * - `merged_from`: every skill merged into it, with the text and counters it brought;
 * - `source_hashes`: the base's and each merged skill's source hash (identical → no-op);
 * - `origin_ref`: where the base came from.
 * The merged content is always recomputed from `base` + `merged_from` sorted by source hash, so
 * the same inputs give the same record whatever order they arrived in, and undoing one merge is
 * recomputing without it.
 */

export interface MergedCounters {
  helpful: number;
  harmful: number;
  use_count: number;
}

export interface MergedSource {
  /** The proposal it was approved from ('' for an imported or learned skill). */
  proposal_id: string;
  name: string;
  source_hash: string;
  origin_ref: string;
  trigger: string;
  steps: string[];
  preconditions: string[];
  failure_modes: string[];
  tags: string[];
  /** Feedback it brought (summed into the target; subtracted again on undo). */
  counters: MergedCounters;
  merged_at: number;
}

export interface Lineage {
  merged_from: MergedSource[];
  source_hashes: string[];
  origin_ref: string;
  base: SkillRecord;
}

export const NO_COUNTERS: MergedCounters = { helpful: 0, harmful: 0, use_count: 0 };

/** The lineage of a record, or undefined when it was never merged (or the field is unreadable). */
export function lineageOf(record: SkillRecord): Lineage | undefined {
  const value = record.extra.lineage as Partial<Lineage> | undefined;
  if (!value || typeof value !== 'object' || !Array.isArray(value.merged_from) || !value.base || typeof value.base !== 'object') return undefined;
  return value as Lineage;
}

/** The source hash (docs/contracts.md#hashes) of a record (the one learning stored, else computed from its text). */
function recordSourceHash(record: SkillRecord): string {
  const stored = record.extra.source_hash;
  return typeof stored === 'string' && stored ? stored : sourceHash(record.trigger, record.steps, record.task_type);
}

/** Every source hash a record stands for: its own, or its base's and each merged one's. */
export function sourceHashesOf(record: SkillRecord): string[] {
  const lineage = lineageOf(record);
  return lineage ? lineage.source_hashes : [recordSourceHash(record)];
}

/** A record as a merge source (a merged record contributes its base and what was merged into it). */
export function sourcesOf(record: SkillRecord, counters: MergedCounters, proposalId = ''): MergedSource[] {
  const lineage = lineageOf(record);
  if (lineage) {
    // The counters passed in are the merged record's totals; the base's share is what is left.
    const merged = lineage.merged_from;
    const rest = (key: keyof MergedCounters) => counters[key] - merged.reduce((sum, s) => sum + s.counters[key], 0);
    const baseCounters = { helpful: Math.max(0, rest('helpful')), harmful: Math.max(0, rest('harmful')), use_count: Math.max(0, rest('use_count')) };
    return [toSource(lineage.base, baseCounters, proposalId), ...merged];
  }
  return [toSource(record, counters, proposalId)];
}

function toSource(record: SkillRecord, counters: MergedCounters, proposalId: string): MergedSource {
  return {
    proposal_id: proposalId,
    name: record.name,
    source_hash: recordSourceHash(record),
    origin_ref: record.origin_ref,
    trigger: record.trigger,
    steps: [...record.steps],
    preconditions: [...record.preconditions],
    failure_modes: [...record.failure_modes],
    tags: [...record.tags],
    counters: { ...counters },
    merged_at: record.updated_at,
  };
}

/** Lines compared without case, spacing or trailing punctuation ("Run tests." = "run  tests"). */
function lineKey(line: string): string {
  return line
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.;:!]+$/, '')
    .trim();
}

/** Union without repeats, first occurrence kept. Nothing is dropped: warnings and safety lines survive. */
export function unite(...lists: ReadonlyArray<readonly string[]>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const list of lists) {
    for (const line of list) {
      const key = lineKey(line);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      out.push(line);
    }
  }
  return out;
}

/** A source's identity: the same skill text (hash) from the same skill (name, proposal). */
function sourceKey(source: Pick<MergedSource, 'source_hash' | 'name' | 'proposal_id'>): string {
  return `${source.source_hash}\u0000${source.name}\u0000${source.proposal_id}`;
}

/** The merged record: `base` plus `merged` (deduplicated by identity, sorted by it). */
export function compose(base: SkillRecord, merged: readonly MergedSource[]): SkillRecord {
  const baseHash = recordSourceHash(base);
  const byKey = new Map<string, MergedSource>();
  for (const source of merged) {
    const key = sourceKey(source);
    // The base itself coming back (same text, same name) is not a second source.
    if ((source.source_hash === baseHash && source.name === base.name) || byKey.has(key)) continue;
    byKey.set(key, source);
  }
  const sources = [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, source]) => source);
  if (sources.length === 0) return base;
  const lineage: Lineage = {
    merged_from: sources,
    source_hashes: [...new Set([baseHash, ...sources.map((s) => s.source_hash)])],
    origin_ref: base.origin_ref,
    base,
  };
  const record: SkillRecord = {
    ...base,
    steps: unite(base.steps, ...sources.map((s) => s.steps)),
    preconditions: unite(base.preconditions, ...sources.map((s) => s.preconditions)),
    failure_modes: unite(base.failure_modes, ...sources.map((s) => s.failure_modes)),
    tags: unite(base.tags, ...sources.map((s) => s.tags)),
    use_count: base.use_count + sources.reduce((sum, s) => sum + s.counters.use_count, 0),
    updated_at: Math.max(base.updated_at, ...sources.map((s) => s.merged_at)),
    extra: { ...base.extra, lineage },
  };
  return { ...record, content_hash: contentHash({ ...record, nameGenerated: false } as never) };
}

/**
 * Merges `incoming` into `target` (both learned). Idempotent (a source already in the lineage is
 * a no-op) and order-independent (the result depends only on the set of sources).
 */
export function mergeRecords(target: SkillRecord, incoming: readonly MergedSource[]): SkillRecord {
  const lineage = lineageOf(target);
  return compose(lineage?.base ?? target, [...(lineage?.merged_from ?? []), ...incoming]);
}

/**
 * Undoes the merge of one source (by source hash; `name` picks one when several merged skills
 * share that hash): the record recomputed without it — exactly `base` when it was the only one.
 * Undefined when the record has no such source.
 */
export function undoMerge(record: SkillRecord, sourceHashToRemove: string, name?: string): { record: SkillRecord; removed: MergedSource } | undefined {
  const lineage = lineageOf(record);
  const removed = lineage?.merged_from.find((s) => s.source_hash === sourceHashToRemove && (name === undefined || s.name === name));
  if (!lineage || !removed) return undefined;
  return {
    record: compose(
      lineage.base,
      lineage.merged_from.filter((s) => s !== removed),
    ),
    removed,
  };
}

/** One line per merge for a tooltip or details view. */
export function describeLineage(record: SkillRecord): string[] {
  const lineage = lineageOf(record);
  if (!lineage) return [];
  return [
    `Merged from ${lineage.merged_from.length + 1} learned skills (origin ${lineage.origin_ref}):`,
    ...lineage.merged_from.map((s) => `- ${s.name} (${s.origin_ref}, source ${s.source_hash.slice(0, 12)})`),
  ];
}
