/**
 * In-memory BM25F over analysed, multi-field documents — the one implementation behind the tool
 * index (keys: tool names) and the skill search index (keys: skill doc ids), owned by the term
 * index (termIndex.ts).
 *
 * Scoring (Robertson & Zaragoza): per term, field frequencies are length-normalised per field,
 * weighted, summed into one pseudo-frequency, then saturated once with k1; IDF is the Lucene form
 * over document frequency. The postings (impactPostings.ts) hold these weights per term; the
 * statistics also score documents one by one (`scorePool`) and serve the relevance measures.
 *
 * Memory: every document in one shared Uint32Array — its field lengths, then its terms sorted by
 * id, two words for a term in one field (packedDocuments.ts); terms are interned once in a shared
 * dictionary. About 8 bytes per distinct term of a document instead of a Map plus ordered term
 * lists (~4 KB a document, which was ~200 MB of heap at 50,000 skills). Term order is not kept:
 * callers that need it (the tool ranker's optional bigram bonus) read it from their own store.
 *
 * How documents are packed, added, replaced and removed is `PackedDocuments`
 * (packedDocuments.ts); this class reads the collection: the statistics, BM25F scoring and the
 * impacts the postings are built from, and the relevance measures' sums.
 */

import { bm25Idf } from './scoring';
import { PackedDocuments } from './packedDocuments';

export interface WeightedTerm {
  term: string;
  weight: number;
}

/** Letters two stems must share before they can be variants of one word (termsSharingPrefix). */
export const STEM_PREFIX = 5;

export class FieldStats<F extends string, K extends string | number = string> extends PackedDocuments<F, K> {
  /** Term ids by their first STEM_PREFIX letters, filled lazily up to `bucketedTerms` (see termsSharingPrefix). */
  private readonly prefixBuckets = new Map<string, number[]>();
  private bucketedTerms = 0;
  /** Scratch for `scorePool`: which term ids the current query has, and at which position. */
  private queryStamp = new Int32Array(0);
  private queryPosition = new Int32Array(0);
  private stamp = 0;

  constructor(
    fields: readonly F[],
    private readonly k1 = 1.2,
  ) {
    super(fields);
  }

  get size(): number {
    return this.docs.size;
  }

  /** Changes with every set, delete and clear: derived data (see tools/index/stuffedTools.ts) keys on it. */
  get version(): number {
    return this.changes;
  }

  has(key: K): boolean {
    return this.docs.has(key);
  }

  /** Every document's key. */
  keys(): IterableIterator<K> {
    return this.docs.keys();
  }

  /** The interned id of `term` (stable: ids are never reused), or undefined if never seen. */
  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  /** Calls `fn` with each distinct term id of a document, ascending (nothing for an unknown key). */
  forEachTermId(key: K, fn: (termId: number) => void): void {
    const o = this.docs.get(key);
    if (o === undefined) return;
    const words = this.words;
    for (let at = o + 1 + this.fields.length, end = o + words[o]; at < end; at = this.next(at)) fn(this.idAt(at));
  }

  /** Documents containing the term in any field (0 when absent). */
  df(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.docFreq[id];
  }

  idf(term: string): number {
    return bm25Idf(Math.max(this.docs.size, 1), this.df(term));
  }

  averageLength(field: F): number {
    const f = this.fields.indexOf(field);
    return f < 0 ? 0 : this.averageLengthAt(f);
  }

  /**
   * Share of a document field's distinct terms that are in `terms` (0 for an empty field or an
   * unknown document) — what the tool ranker's optional coverage bonuses need, without keeping
   * the ordered term lists.
   */
  fieldCoverage(key: K, field: F, terms: Iterable<string>): number {
    const o = this.docs.get(key);
    const f = this.fields.indexOf(field);
    if (o === undefined || f < 0) return 0;
    const wanted = new Set<number>();
    for (const term of terms) {
      const id = this.termIds.get(term);
      if (id !== undefined) wanted.add(id);
    }
    let distinct = 0;
    let covered = 0;
    const words = this.words;
    for (let at = o + 1 + this.fields.length, end = o + words[o]; at < end; at = this.next(at)) {
      if (this.countAt(at, f) === 0) continue;
      distinct++;
      if (wanted.has(this.idAt(at))) covered++;
    }
    return distinct === 0 ? 0 : covered / distinct;
  }

  /**
   * A document's terms with their weighted, length-normalised frequency
   * (Σ_f weight_f × tf_f / length_f, or without the length when not `lengthNormalised`); empty for an unknown document. Pseudo-relevance feedback
   * reads the top documents' vocabulary through this, without a store round-trip.
   */
  documentTerms(key: K, fieldWeights: Readonly<Record<F, number>>, lengthNormalised = true): Array<{ term: string; frequency: number }> {
    const o = this.docs.get(key);
    if (o === undefined) return [];
    const n = this.fields.length;
    const words = this.words;
    const out: Array<{ term: string; frequency: number }> = [];
    for (let at = o + 1 + n, end = o + words[o]; at < end; at = this.next(at)) {
      let frequency = 0;
      for (let f = 0; f < n; f++) {
        const c = this.countAt(at, f);
        const length = words[o + 1 + f];
        if (c !== 0 && length > 0) frequency += (fieldWeights[this.fields[f]] * c) / (lengthNormalised ? length : 1);
      }
      if (frequency > 0) out.push({ term: this.termNames[this.idAt(at)], frequency });
    }
    return out;
  }

  /** How many terms `documentTerms` gives for the document (its distinct terms of positive weighted frequency), without listing them. */
  distinctTerms(key: K, fieldWeights: Readonly<Record<F, number>>): number {
    const o = this.docs.get(key);
    if (o === undefined) return 0;
    const n = this.fields.length;
    const words = this.words;
    const weights = this.fields.map((field) => fieldWeights[field]);
    // Weights of zero or more (the relevance measures' are 0 or 1): a term counts when any field
    // of positive weight and length holds it — no division per count.
    if (weights.every((w) => w >= 0)) return this.termsInFields(o, weights);
    let count = 0;
    for (let at = o + 1 + n, end = o + words[o]; at < end; at = this.next(at)) {
      let frequency = 0;
      for (let f = 0; f < n; f++) {
        const c = this.countAt(at, f);
        const length = words[o + 1 + f];
        if (c !== 0 && length > 0) frequency += (weights[f] * c) / length;
      }
      if (frequency > 0) count++;
    }
    return count;
  }

  /** `distinctTerms` for weights of zero or more: the entries with a count in a field of positive weight and positive length. */
  private termsInFields(o: number, weights: readonly number[]): number {
    const n = this.fields.length;
    const words = this.words;
    const spread = this.stride - 1;
    // Which fields count (a bit each), and the same as masks over the wide form's count words.
    let fields = 0;
    const masks = new Uint32Array(spread);
    for (let f = 0; f < n; f++) {
      if ((weights[f] as number) <= 0 || words[o + 1 + f] === 0) continue;
      fields |= 1 << f;
      masks[f >> 1] |= f & 1 ? 0xffff0000 : 0xffff;
    }
    let count = 0;
    for (let at = o + 1 + n, end = o + words[o]; at < end; at = this.next(at)) {
      const sole = this.soleField(at);
      if (sole >= 0) {
        if (fields & (1 << sole)) count++;
        continue;
      }
      for (let w = 0; w < spread; w++) {
        if ((words[at + 2 + w] & masks[w]) !== 0) {
          count++;
          break;
        }
      }
    }
    return count;
  }

  /**
   * Terms in the collection (df > 0) whose first STEM_PREFIX letters are `term`'s — the
   * candidates for stem variants (`discov` ↔ `discover`). Buckets are filled on first use, so
   * indexing pays nothing; only terms added since the last call are bucketed.
   */
  termsSharingPrefix(term: string): string[] {
    if (term.length < STEM_PREFIX) return [];
    for (; this.bucketedTerms < this.termNames.length; this.bucketedTerms++) {
      const name = this.termNames[this.bucketedTerms];
      if (name.length < STEM_PREFIX) continue;
      const key = name.slice(0, STEM_PREFIX);
      const bucket = this.prefixBuckets.get(key);
      if (bucket) bucket.push(this.bucketedTerms);
      else this.prefixBuckets.set(key, [this.bucketedTerms]);
    }
    const out: string[] = [];
    for (const id of this.prefixBuckets.get(term.slice(0, STEM_PREFIX)) ?? []) if (this.docFreq[id] > 0) out.push(this.termNames[id]);
    return out;
  }

  /**
   * BM25F of every document in `keys` (scores aligned with `keys`; unknown keys score 0): the
   * term index's pool of documents holding a query term while its postings wait for a rebuild,
   * and the tool ranker's with other parameters. Query terms are resolved to ids once;
   * each document then costs one pass over its sorted term ids. Each term's saturated weight is
   * computed as `forEachImpact` computes it and rounded to 32 bits as impact postings store it,
   * so a ranking scored one by one (while the postings wait for a rebuild) gives the very scores
   * the postings give; `score` agrees to within rounding.
   */
  scorePool(
    keys: readonly K[],
    query: readonly WeightedTerm[],
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    idf?: ReadonlyMap<string, number>,
    k1: number = this.k1,
  ): number[] {
    const scoreAt = this.documentScorer(query, fieldWeights, fieldB, idf, k1);
    const out: number[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const o = this.docs.get(keys[i]);
      out[i] = o === undefined ? 0 : scoreAt(o);
    }
    return out;
  }

  /**
   * `scorePool` over the whole collection in one pass over the shared array, without a list of
   * keys: `fn(key, score)` for every document scoring above 0 (one holding a query term). What
   * the term index answers with before its postings are first built: one pass that finds the
   * documents holding a query term and scores them, cheaper than building the postings.
   */
  scoreEvery(
    query: readonly WeightedTerm[],
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    fn: (key: K, score: number) => void,
    idf?: ReadonlyMap<string, number>,
    k1: number = this.k1,
  ): void {
    const scoreAt = this.documentScorer(query, fieldWeights, fieldB, idf, k1);
    for (const [key, o] of this.docs) {
      const score = scoreAt(o);
      if (score > 0) fn(key, score);
    }
  }

  /** The `scorePool` score of the document at offset `o`, with the query resolved once (scratch shared: one scorer at a time). */
  private documentScorer(
    query: readonly WeightedTerm[],
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    idf: ReadonlyMap<string, number> | undefined,
    k1: number,
  ): (o: number) => number {
    const n = this.fields.length;
    const { weight, b, average } = this.fieldParameters(fieldWeights, fieldB);
    const scale = new Float64Array(n);
    const { ids, factors } = this.resolve(query, idf);
    const m = ids.length;
    // Query term id → query position (stamped, so nothing is cleared between queries).
    if (this.queryStamp.length < this.docFreq.length) {
      this.queryStamp = new Int32Array(this.docFreq.length);
      this.queryPosition = new Int32Array(this.docFreq.length);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    const queryStamp = this.queryStamp;
    const queryPosition = this.queryPosition;
    let maxId = 0;
    for (let q = 0; q < m; q++) {
      queryStamp[ids[q]] = stamp;
      queryPosition[ids[q]] = q;
      if (ids[q] > maxId) maxId = ids[q];
    }
    const contribution = new Float64Array(m);
    return (o) => {
      if (m === 0) return 0;
      // One pass over the document's sorted term ids (stops past the largest query id);
      // contributions are then summed in query order, as term-at-a-time scoring did.
      contribution.fill(0);
      const words = this.words;
      for (let f = 0; f < n; f++) scale[f] = weight[f] / (1 - b[f] + (b[f] * words[o + 1 + f]) / average[f]);
      for (let at = o + 1 + n, end = o + words[o]; at < end; at = this.next(at)) {
        const id = this.idAt(at);
        if (id > maxId) break;
        if (queryStamp[id] !== stamp) continue;
        const pseudo = this.pseudoAt(at, scale);
        const q = queryPosition[id];
        if (pseudo !== 0) contribution[q] = factors[q] * Math.fround(pseudo / (k1 + pseudo));
      }
      let score = 0;
      for (let q = 0; q < m; q++) score += contribution[q];
      return score;
    };
  }

  /**
   * A scorer for many documents under one set of parameters (the skill index's hot path): term
   * ids, IDFs and average lengths are resolved once. Same result as `score` (while the
   * collection does not change).
   */
  scorer(
    query: readonly WeightedTerm[],
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    idf?: ReadonlyMap<string, number>,
    k1: number = this.k1,
  ): (key: K) => number {
    const n = this.fields.length;
    const { weight, b, average } = this.fieldParameters(fieldWeights, fieldB);
    const { ids, factors } = this.resolve(query, idf);
    const m = ids.length;
    const scale = new Float64Array(n);
    return (key) => {
      const o = this.docs.get(key);
      if (o === undefined || m === 0) return 0;
      const words = this.words;
      for (let f = 0; f < n; f++) scale[f] = weight[f] / (1 - b[f] + (b[f] * words[o + 1 + f]) / average[f]);
      let score = 0;
      for (let q = 0; q < m; q++) {
        const at = this.find(o, ids[q]);
        if (at < 0) continue;
        const pseudo = this.pseudoAt(at, scale);
        if (pseudo !== 0) score += factors[q] * (pseudo / (k1 + pseudo));
      }
      return score;
    };
  }

  /**
   * Every document's BM25F term weights under one set of parameters, for building impact
   * postings (search/impactPostings.ts): `fn(key, termId, weight)` per (document, term) with
   * weight = pseudo / (k1 + pseudo), the saturated length-normalised pseudo-frequency that
   * `scorer` multiplies by the query factor. Averages are the collection's current ones.
   */
  forEachImpact(
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    fn: (key: K, termId: number, impact: number) => void,
    k1: number = this.k1,
  ): void {
    const n = this.fields.length;
    const { weight, b, average } = this.fieldParameters(fieldWeights, fieldB);
    const scale = new Float64Array(n);
    const words = this.words;
    for (const [key, o] of this.docs) {
      for (let f = 0; f < n; f++) scale[f] = weight[f] / (1 - b[f] + (b[f] * words[o + 1 + f]) / average[f]);
      for (let at = o + 1 + n, end = o + words[o]; at < end; at = this.next(at)) {
        const pseudo = this.pseudoAt(at, scale);
        if (pseudo !== 0) fn(key, this.idAt(at), pseudo / (k1 + pseudo));
      }
    }
  }

  /**
   * IDF mass of a document's terms that occur in any field with a non-zero weight in `fields`,
   * and of those among them whose ids `inQuery` accepts — the focus measures' hot path, with no
   * per-term allocation. IDF is taken over `docs` documents (a caller may add a prior).
   */
  fieldIdfMass(key: K, fields: Readonly<Record<F, number>>, docs: number, inQuery: (termId: number) => boolean): { total: number; covered: number } {
    const o = this.docs.get(key);
    if (o === undefined) return { total: 0, covered: 0 };
    const n = this.fields.length;
    const words = this.words;
    let mask = 0;
    for (let f = 0; f < n; f++) if (fields[this.fields[f]] !== 0) mask |= 1 << f;
    let total = 0;
    let covered = 0;
    for (let at = o + 1 + n, end = o + words[o]; at < end; at = this.next(at)) {
      let present = false;
      for (let f = 0; f < n && !present; f++) if ((mask & (1 << f)) !== 0) present = this.countAt(at, f) !== 0;
      if (!present) continue;
      const id = this.idAt(at);
      const weight = bm25Idf(docs, this.docFreq[id]);
      total += weight;
      if (inQuery(id)) covered += weight;
    }
    return { total, covered };
  }

  /**
   * The saturation's input for the term entry at `at`: its field counts weighted and
   * length-normalised (`scale`), summed in field order (a term in one field: that field's alone).
   */
  private pseudoAt(at: number, scale: Float64Array): number {
    const sole = this.soleField(at);
    if (sole >= 0) return scale[sole] * this.soleCount(at);
    const words = this.words;
    let pseudo = 0;
    for (let f = 0; f < this.fields.length; f++) {
      const c = (words[at + 2 + (f >> 1)] >>> (f & 1 ? 16 : 0)) & 0xffff;
      if (c !== 0) pseudo += scale[f] * c;
    }
    return pseudo;
  }

  /** Where the entry of term `id` starts in the document at offset `o` (its terms ascend), or -1. */
  private find(o: number, id: number): number {
    const words = this.words;
    for (let at = o + 1 + this.fields.length, end = o + words[o]; at < end; at = this.next(at)) {
      const found = this.idAt(at);
      if (found === id) return at;
      if (found > id) break;
    }
    return -1;
  }

  /** Highest interned term id + 1 (sizes per-term tables). */
  get termCount(): number {
    return this.termNames.length;
  }

  /** Documents containing the interned term (0 for an unknown id). */
  dfById(termId: number): number {
    return termId < this.termNames.length ? this.docFreq[termId] : 0;
  }

  /**
   * BM25F relevance of one document. `fieldWeights[f]` scales field f, `fieldB[f]` is its
   * length normalisation (0 = none, 1 = full). `idf` may carry precomputed term IDFs; `k1`
   * overrides the saturation constant given to the constructor.
   */
  score(
    key: K,
    query: readonly WeightedTerm[],
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    idf?: ReadonlyMap<string, number>,
    k1: number = this.k1,
  ): number {
    return this.scorer(query, fieldWeights, fieldB, idf, k1)(key);
  }

  /** Per field, in field order: its weight, its length normalisation `b`, its average length (1 when empty). */
  private fieldParameters(
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
  ): { weight: Float64Array; b: Float64Array; average: Float64Array } {
    const n = this.fields.length;
    const weight = new Float64Array(n);
    const b = new Float64Array(n);
    const average = new Float64Array(n);
    for (let f = 0; f < n; f++) {
      const field = this.fields[f];
      weight[f] = fieldWeights[field];
      b[f] = fieldB[field];
      average[f] = this.averageLengthAt(f) || 1;
    }
    return { weight, b, average };
  }

  private averageLengthAt(f: number): number {
    return this.docs.size === 0 ? 0 : this.totalLength[f] / this.docs.size;
  }

  /** Query terms present in the collection → (term id, weight × idf), in query order (what `scorer` multiplies impacts by). */
  queryFactors(query: readonly WeightedTerm[], idf?: ReadonlyMap<string, number>): { ids: Uint32Array; factors: Float64Array } {
    return this.resolve(query, idf);
  }

  /** Query terms present in the collection → (term id, weight × idf), in query order. */
  private resolve(query: readonly WeightedTerm[], idf?: ReadonlyMap<string, number>): { ids: Uint32Array; factors: Float64Array } {
    const ids: number[] = [];
    const factors: number[] = [];
    for (const { term, weight } of query) {
      const id = this.termIds.get(term);
      if (id === undefined || this.docFreq[id] === 0) continue;
      ids.push(id);
      factors.push(weight * (idf?.get(term) ?? this.idf(term)));
    }
    return { ids: Uint32Array.from(ids), factors: Float64Array.from(factors) };
  }
}
