import type { SkillRecord } from '../../skills/skillSchema';
import { sourceHashesOf } from './lineage';
import { similarity, termVector } from './similarity';
import type { TermVector } from './similarity';

/**
 * Finds the learned skill a new one should merge into: one whose lineage already holds the same
 * source hash (identical), else the most similar one at or above the threshold (ties: the older
 * skill, then the name, so the choice is deterministic).
 *
 * Kept fast on large stores with an inverted index over the analysed terms and an exact prefix
 * filter: weighted Jaccard ≥ t needs the shared weight to be ≥ t × the new skill's total, so a
 * match must contain at least one of the new skill's rarest terms whose weight exceeds
 * (1 − t) × total — only those terms' postings are scored. No false negatives.
 */
export interface MergeMatch {
  record: SkillRecord;
  score: number;
  identical: boolean;
}

interface Entry {
  record: SkillRecord;
  vector: TermVector;
  hashes: readonly string[];
}

export class MergeIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly postings = new Map<string, Set<string>>();
  private readonly byHash = new Map<string, Set<string>>();

  /** Makes the index hold exactly these learned records (unchanged ones are not analysed again). */
  sync(records: readonly SkillRecord[]): void {
    const keep = new Set<string>();
    for (const record of records) {
      if (record.origin !== 'learned') continue;
      keep.add(record.id);
      this.put(record);
    }
    for (const id of [...this.entries.keys()]) if (!keep.has(id)) this.remove(id);
  }

  /** Adds or refreshes one learned record (by id; re-analysed only when its content changed). */
  put(record: SkillRecord): void {
    if (record.origin !== 'learned') return;
    const existing = this.entries.get(record.id);
    if (existing && existing.record.content_hash === record.content_hash) {
      existing.record = record;
      return;
    }
    if (existing) this.remove(record.id);
    const entry: Entry = { record, vector: termVector(record.trigger, record.steps), hashes: sourceHashesOf(record) };
    this.entries.set(record.id, entry);
    for (const term of entry.vector.terms.keys()) addTo(this.postings, term, record.id);
    for (const hash of entry.hashes) addTo(this.byHash, hash, record.id);
  }

  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    for (const term of entry.vector.terms.keys()) removeFrom(this.postings, term, id);
    for (const hash of entry.hashes) removeFrom(this.byHash, hash, id);
  }

  /** The best merge target among indexed records that `accept` allows (e.g. the same scope). */
  best(
    candidate: { trigger: string; steps: readonly string[]; source_hash: string },
    threshold: number,
    accept: (record: SkillRecord) => boolean = () => true,
  ): MergeMatch | undefined {
    let best: MergeMatch | undefined;
    const consider = (match: MergeMatch) => {
      if (accept(match.record) && (!best || better(match, best))) best = match;
    };
    for (const id of this.byHash.get(candidate.source_hash) ?? []) consider({ record: this.entries.get(id)!.record, score: 1, identical: true });
    // Nothing indexed (an import into an empty store): no need to analyse the candidate's text.
    if (best || this.entries.size === 0) return best;
    const vector = termVector(candidate.trigger, candidate.steps);
    for (const id of this.prefixCandidates(vector, threshold)) {
      const entry = this.entries.get(id)!;
      const score = similarity(vector, entry.vector, threshold);
      if (score >= threshold) consider({ record: entry.record, score, identical: false });
    }
    return best;
  }

  private prefixCandidates(vector: TermVector, threshold: number): Set<string> {
    const terms = [...vector.terms].sort(([a], [b]) => (this.postings.get(a)?.size ?? 0) - (this.postings.get(b)?.size ?? 0));
    const needed = (1 - threshold) * vector.total;
    const ids = new Set<string>();
    let covered = 0;
    for (const [term, weight] of terms) {
      for (const id of this.postings.get(term) ?? []) ids.add(id);
      covered += weight;
      if (covered > needed) break;
    }
    return ids;
  }
}

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(id);
}

function removeFrom(map: Map<string, Set<string>>, key: string, id: string): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) map.delete(key);
}

function better(a: MergeMatch, b: MergeMatch): boolean {
  if (a.identical !== b.identical) return a.identical;
  if (a.score !== b.score) return a.score > b.score;
  if (a.record.created_at !== b.record.created_at) return a.record.created_at < b.record.created_at;
  return a.record.name < b.record.name;
}
