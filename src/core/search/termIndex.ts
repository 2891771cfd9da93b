import { FieldStats } from './bm25f';
import type { WeightedTerm } from './bm25f';
import type { CountedFields, MergedDocument } from './countedFields';
import { ImpactPostings, offerTopK } from './impactPostings';
import type { ImpactHit } from './impactPostings';

/**
 * The one term index of Toolshed's ranked search, which the skill store and the tool index
 * instantiate: the BM25F statistics of every document (`stats`, bm25f.ts) and the one postings
 * owner over them, with one refresh policy.
 *
 * The postings are a block of impacts (impactPostings.ts), built once and searched exactly
 * (top k of scoring every document). The first search of a never-built index (a start) does not
 * build it: one pass over the statistics (`FieldStats.scoreEvery`) finds the documents holding a
 * query term and scores them with the very scores the block gives, cheaper than a build (which is
 * that pass plus writing every posting), so a start's first answer waits for no build. That pass
 * counts as the collection's worth of scoring (below), so the next search builds the block and
 * uses it: at the next search rather than scheduled after the answer, since the core has no
 * scheduler of its own and a build queued behind an answer could hold the host's thread while the
 * answer crosses back; the next search then costs what a first search cost before (build plus
 * block search), never more in one stretch. Impacts depend on the collection's average field lengths,
 * so a change to any document makes the whole block out of date; rather than rebuild it for the
 * next search, the index records which documents changed since the build. A search then scores
 * one by one (`FieldStats.scorePool`, the very scores a rebuilt block gives) the documents that
 * hold a query term: those the block lists as holding it, less the changed ones, plus the changed
 * ones still present — the same documents, so the same top k. What is scored that way, and the
 * changed documents themselves, count toward the next build: once they add up to the collection
 * the next search rebuilds the block (one pass, O(postings)). So a collection that changes
 * between searches (a tool catalog while servers start, a skill file saved) never pays a build
 * per search, and one that settles pays it once; a search with no change since the build never
 * rebuilds (`builds` counts the builds). `documentsHolding` needs the holders lists, so it builds
 * a never-built block at once.
 *
 * Memory: the statistics (one shared array, about 4–5 bytes per (document, term) pair for real
 * skills, fitted to their size at each build), the block (8 bytes per (document, term) pair)
 * and the keys changed since the build.
 */
export class TermIndex<F extends string, K extends string | number> {
  readonly stats: FieldStats<F, K>;
  private readonly block: ImpactPostings<F, K>;
  /** Whether the block describes the collection up to `changed` (false: never built, or cleared since). */
  private built = false;
  /** Documents set or deleted since the block was built. */
  private readonly changed = new Set<K>();
  /** Documents scored one by one since the block was built. */
  private scoredSince = 0;
  private buildCount = 0;

  constructor(
    fields: readonly F[],
    private readonly fieldWeights: Readonly<Record<F, number>>,
    private readonly fieldB: Readonly<Record<F, number>>,
    k1?: number,
  ) {
    this.stats = new FieldStats<F, K>(fields, k1);
    this.block = new ImpactPostings(this.stats, fieldWeights, fieldB);
  }

  get size(): number {
    return this.stats.size;
  }

  /** How many times the postings were built (each is one pass over every posting). */
  get builds(): number {
    return this.buildCount;
  }

  /**
   * Adds or replaces a document: its analysed terms per field, counted in this index's term ids
   * (`internTerm`), or packed in them (`TermVocabulary.packStored`).
   */
  set(key: K, terms: Readonly<Record<F, readonly string[]>> | CountedFields | Uint32Array): void {
    if (terms instanceof Uint32Array) this.stats.setPacked(key, terms);
    else if ('fieldEnds' in terms) this.stats.setCounted(key, terms as CountedFields);
    else this.stats.set(key, terms as Readonly<Record<F, readonly string[]>>);
    if (this.built) this.changed.add(key);
  }

  /** Adds or replaces a stored document (`TermVocabulary.storeInto`: a store's open), as `set` does. */
  setMerged(key: K, merged: MergedDocument): void {
    this.stats.setMerged(key, merged);
    if (this.built) this.changed.add(key);
  }

  setPacked(key: K, packed: Uint32Array): void {
    this.set(key, packed);
  }

  delete(key: K): void {
    if (!this.stats.has(key)) return;
    this.stats.delete(key);
    if (this.built) this.changed.add(key);
  }

  clear(): void {
    this.stats.clear();
    this.block.reset();
    this.built = false;
    this.changed.clear();
    this.scoredSince = 0;
  }

  /** Replaces every document with a snapshot's (PackedDocuments.restore); the postings are built at a later search, as after any fill. Throws (the index left empty) on a damaged snapshot. */
  restore(terms: readonly string[], keys: readonly K[], offsets: Uint32Array, words: Uint32Array<ArrayBuffer>): void {
    this.clear();
    this.stats.restore(terms, keys, offsets, words);
  }

  /** The id of an analysed term in this index's dictionary, interned when new (what counted terms are given in). */
  internTerm(term: string): number {
    return this.stats.internTerm(term);
  }

  /**
   * The best `limit` documents for the weighted query terms that pass `accept`, best first,
   * exact over the collection as it is now; `before(a, b)` orders equal scores (true when a ranks
   * first); `idf` overrides a term's IDF. Documents scoring 0 are never returned.
   */
  topK(
    query: readonly WeightedTerm[],
    accept: (key: K) => boolean,
    limit: number,
    before: (a: K, b: K) => boolean,
    idf?: ReadonlyMap<string, number>,
  ): Array<ImpactHit<K>> {
    if (limit <= 0 || query.length === 0) return [];
    if (this.changed.size === 0 && this.built) return this.block.topK(query, accept, limit, before, idf);
    if (!this.built && this.scoredSince < this.stats.size) {
      // Never built (a start): one pass scores the documents holding a query term; the pass
      // counts as the collection's worth, so the next search builds.
      this.scoredSince += this.stats.size;
      const first: Array<ImpactHit<K>> = [];
      this.stats.scoreEvery(query, this.fieldWeights, this.fieldB, (key, score) => offerTopK(first, key, score, limit, accept, before), idf);
      return first;
    }
    if (!this.built || this.scoredSince + this.changed.size >= this.stats.size) {
      this.build();
      return this.block.topK(query, accept, limit, before, idf);
    }
    const pool = this.holding(this.stats.queryFactors(query, idf).ids);
    this.scoredSince += pool.length;
    const scores = this.stats.scorePool(pool, query, this.fieldWeights, this.fieldB, idf);
    const top: Array<ImpactHit<K>> = [];
    for (let i = 0; i < pool.length; i++) offerTopK(top, pool[i], scores[i], limit, accept, before);
    return top;
  }

  /**
   * The documents holding any of the analysed terms, once each, in no particular order (the
   * pool a ranking with other parameters than the block's scores one by one).
   */
  documentsHolding(terms: readonly string[]): K[] {
    const ids: number[] = [];
    for (const term of terms) {
      const id = this.stats.termId(term);
      if (id !== undefined && this.stats.dfById(id) > 0) ids.push(id);
    }
    if (ids.length === 0) return [];
    if (!this.built) this.build();
    return this.holding(ids);
  }

  /** The documents holding any of the term ids: the block's holders less the changed documents, plus the changed ones present. */
  private holding(termIds: ArrayLike<number>): K[] {
    const changed = this.changed;
    if (changed.size === 0) return this.block.holders(termIds, () => false);
    const pool = this.block.holders(termIds, (key) => changed.has(key));
    const wanted = new Set<number>();
    for (let q = 0; q < termIds.length; q++) wanted.add(termIds[q]);
    for (const key of changed) if (this.holds(key, wanted)) pool.push(key);
    return pool;
  }

  /** Whether the document (if present) holds any of the term ids. */
  private holds(key: K, termIds: ReadonlySet<number>): boolean {
    let found = false;
    this.stats.forEachTermId(key, (termId) => {
      if (termIds.has(termId)) found = true;
    });
    return found;
  }

  private build(): void {
    this.stats.fit();
    this.block.build();
    this.built = true;
    this.changed.clear();
    this.scoredSince = 0;
    this.buildCount++;
  }
}
