import type { FieldStats, WeightedTerm } from './bm25f';

/**
 * One block of impact postings (the term index's, termIndex.ts, which decides when it is
 * built): for every term, the documents containing it with the term's saturated,
 * length-normalised BM25F weight in that document (its "impact"), laid out in one
 * compressed-sparse-row block (per-term offsets into one slot array and one impact array).
 *
 * A search adds `factor × impact` for every posting of every query term into one accumulator
 * per document (term-at-a-time) and keeps the best `limit` accepted documents. Every document
 * that contains any query term is scored over every query term, so no candidate stage can drop
 * a document the ranking would put first: the result is the same top-k as scoring every
 * document (a property test holds it to `FieldStats.scorer`). The cost is the summed posting
 * length of the query's terms — ~10⁶ additions for a long request over 50,000 skills.
 *
 * Impacts depend on the collection's average field lengths, so the block describes the
 * statistics as they were when it was built; a build is one pass over every posting
 * (O(postings)). Its postings also say which documents held a term then (`holders`), what the
 * term index scores one by one while the block waits for its next build.
 *
 * Memory: 8 bytes per (document, term) pair plus 4 bytes per term.
 */

export interface ImpactHit<K> {
  key: K;
  score: number;
}

export class ImpactPostings<F extends string, K extends string | number> {
  private keys: K[] = [];
  private offsets = new Int32Array(1);
  private ends = new Int32Array(0);
  private slots = new Int32Array(0);
  private impacts = new Float32Array(0);
  private accumulator = new Float64Array(0);
  private touched = new Int32Array(0);
  /** Scratch for `holders`: a seen-mark per slot (cleared after each call). */
  private seen = new Uint8Array(0);

  constructor(
    private readonly stats: FieldStats<F, K>,
    private readonly fieldWeights: Readonly<Record<F, number>>,
    private readonly fieldB: Readonly<Record<F, number>>,
  ) {}

  /**
   * The best `limit` documents for the weighted query terms that pass `accept`, best first, as
   * of the last `build`; `before(a, b)` orders equal scores (true when a ranks first). Documents
   * scoring 0 (no query term) are never returned. `idf` overrides a term's IDF (as in
   * `FieldStats.scorer`).
   */
  topK(
    query: readonly WeightedTerm[],
    accept: (key: K) => boolean,
    limit: number,
    before: (a: K, b: K) => boolean,
    idf?: ReadonlyMap<string, number>,
  ): Array<ImpactHit<K>> {
    if (limit <= 0 || query.length === 0) return [];
    const { ids, factors } = this.stats.queryFactors(query, idf);
    const acc = this.accumulator;
    const touched = this.touched;
    let count = 0;
    for (let q = 0; q < ids.length; q++) {
      const termId = ids[q];
      if (termId >= this.ends.length) continue;
      const factor = factors[q];
      const end = this.ends[termId];
      for (let p = this.offsets[termId]; p < end; p++) {
        const slot = this.slots[p];
        if (acc[slot] === 0) touched[count++] = slot;
        acc[slot] += factor * this.impacts[p];
      }
    }
    const top: Array<ImpactHit<K>> = [];
    for (let i = 0; i < count; i++) {
      const slot = touched[i];
      const score = acc[slot];
      acc[slot] = 0;
      offerTopK(top, this.keys[slot], score, limit, accept, before);
    }
    return top;
  }

  /**
   * The documents that held any of the term ids when the block was built, once each, leaving
   * out those `skip` names (documents changed since).
   */
  holders(termIds: ArrayLike<number>, skip: (key: K) => boolean): K[] {
    const seen = this.seen;
    const marked: number[] = [];
    const out: K[] = [];
    for (let q = 0; q < termIds.length; q++) {
      const termId = termIds[q];
      if (termId >= this.ends.length) continue;
      const end = this.ends[termId];
      for (let p = this.offsets[termId]; p < end; p++) {
        const slot = this.slots[p];
        if (seen[slot] !== 0) continue;
        seen[slot] = 1;
        marked.push(slot);
        const key = this.keys[slot];
        if (!skip(key)) out.push(key);
      }
    }
    for (const slot of marked) seen[slot] = 0;
    return out;
  }

  /** Builds the block from the statistics as they are now (one pass over every posting). */
  build(): void {
    const stats = this.stats;
    const terms = stats.termCount;
    const offsets = new Int32Array(terms + 1);
    for (let t = 0; t < terms; t++) offsets[t + 1] = offsets[t] + stats.dfById(t);
    const ends = offsets.slice(0, terms);
    const slots = new Int32Array(offsets[terms]);
    const impacts = new Float32Array(offsets[terms]);
    const keys: K[] = [];
    let previous: K | undefined;
    let slot = -1;
    stats.forEachImpact(this.fieldWeights, this.fieldB, (key, termId, impact) => {
      if (slot < 0 || key !== previous) {
        slot = keys.length;
        keys.push(key);
        previous = key;
      }
      const at = ends[termId]++;
      slots[at] = slot;
      impacts[at] = impact;
    });
    this.keys = keys;
    this.offsets = offsets;
    this.ends = ends;
    this.slots = slots;
    this.impacts = impacts;
    if (this.accumulator.length < keys.length) {
      this.accumulator = new Float64Array(keys.length);
      this.touched = new Int32Array(keys.length);
      this.seen = new Uint8Array(keys.length);
    }
  }

  /** Drops the block (the collection was cleared). */
  reset(): void {
    this.keys = [];
    this.offsets = new Int32Array(1);
    this.ends = new Int32Array(0);
    this.slots = new Int32Array(0);
    this.impacts = new Float32Array(0);
  }
}

/**
 * Keeps `top` the best `limit` accepted documents seen so far, best first: a document scoring 0
 * is never kept, equal scores are ordered by `before`, and `accept` runs only for a document
 * that would take a place (the caller's filter, e.g. policy, costs nothing for the rest).
 */
export function offerTopK<K>(
  top: Array<ImpactHit<K>>,
  key: K,
  score: number,
  limit: number,
  accept: (key: K) => boolean,
  before: (a: K, b: K) => boolean,
): void {
  if (!(score > 0)) return;
  if (top.length === limit) {
    const worst = top[limit - 1];
    if (score < worst.score || (score === worst.score && !before(key, worst.key))) return;
  }
  if (!accept(key)) return;
  let at = top.length;
  while (at > 0 && (score > top[at - 1].score || (score === top[at - 1].score && before(key, top[at - 1].key)))) at--;
  top.splice(at, 0, { key, score });
  if (top.length > limit) top.pop();
}
