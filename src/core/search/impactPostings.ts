import type { FieldStats, WeightedTerm } from './bm25f';

/**
 * Exact top-k BM25F over impact postings: for every term, the documents containing it with the
 * term's saturated, length-normalised BM25F weight in that document (its "impact"), laid out in
 * one compressed-sparse-row block (per-term offsets into one slot array and one impact array).
 *
 * A search adds `factor × impact` for every posting of every query term into one accumulator
 * per document (term-at-a-time) and keeps the best `limit` accepted documents. Every document
 * that contains any query term is scored over every query term, so no candidate stage can drop
 * a document the ranking would put first: the result is the same top-k as scoring every
 * document (a property test holds it to `FieldStats.scorer`). The cost is the summed posting
 * length of the query's terms — ~10⁶ additions for a long request over 50,000 skills.
 *
 * This is the one postings owner of Toolshed's search indexes (the skill store's and the tool
 * index's), with one refresh policy. Impacts depend on the collection's average field lengths,
 * so any change to the statistics (their `version`) makes the block out of date, and a rebuild
 * is one pass over every posting (O(postings)); bulk loads pay once, not per document. A search
 * while the block is out of date either rebuilds it (`topK`) or, where the caller can list the
 * documents holding a query term, scores those one by one (the same top k) and counts them
 * (`countScoredOneByOne`): `worthUsing` says to rebuild once the documents scored that way add up
 * to the collection, so a collection that changes between searches never pays a rebuild per
 * search and one that settles pays it once.
 *
 * Memory: 8 bytes per (document, term) pair plus 4 bytes per term.
 */

export interface ImpactHit<K> {
  key: K;
  score: number;
}

export class ImpactPostings<F extends string, K extends string | number> {
  /** The statistics' version the block was built for (-1: never). */
  private builtFor = -1;
  /** Documents scored one by one since the statistics last changed. */
  private scoredSince = 0;
  private keys: K[] = [];
  private offsets = new Int32Array(1);
  private ends = new Int32Array(0);
  private slots = new Int32Array(0);
  private impacts = new Float32Array(0);
  private accumulator = new Float64Array(0);
  private touched = new Int32Array(0);

  constructor(
    private readonly stats: FieldStats<F, K>,
    private readonly fieldWeights: Readonly<Record<F, number>>,
    private readonly fieldB: Readonly<Record<F, number>>,
  ) {}

  /** True when the block was built for the statistics as they are now. */
  get current(): boolean {
    return this.builtFor === this.stats.version;
  }

  /** True when searching through the block is the cheaper way: it is current, or enough has been scored one by one since the last change to pay for its rebuild. */
  get worthUsing(): boolean {
    return this.current || this.scoredSince >= this.stats.size;
  }

  /** Counts documents a search scored one by one (without the block) toward its next rebuild. */
  countScoredOneByOne(documents: number): void {
    if (!this.current) this.scoredSince += documents;
  }

  /**
   * The best `limit` documents for the weighted query terms that pass `accept`, best first;
   * `before(a, b)` orders equal scores (true when a ranks first). Documents scoring 0 (no query
   * term) are never returned. `idf` overrides a term's IDF (as in `FieldStats.scorer`).
   */
  topK(
    query: readonly WeightedTerm[],
    accept: (key: K) => boolean,
    limit: number,
    before: (a: K, b: K) => boolean,
    idf?: ReadonlyMap<string, number>,
  ): Array<ImpactHit<K>> {
    if (limit <= 0 || query.length === 0) return [];
    if (!this.current) this.build();
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
      if (!(score > 0)) continue;
      const key = this.keys[slot];
      if (top.length === limit) {
        const worst = top[limit - 1];
        if (score < worst.score || (score === worst.score && !before(key, worst.key))) continue;
      }
      if (!accept(key)) continue;
      let at = top.length;
      while (at > 0 && (score > top[at - 1].score || (score === top[at - 1].score && before(key, top[at - 1].key)))) at--;
      top.splice(at, 0, { key, score });
      if (top.length > limit) top.pop();
    }
    return top;
  }

  private build(): void {
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
    }
    this.builtFor = stats.version;
    this.scoredSince = 0;
  }
}
