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
 * Memory: a document is one Uint32Array — its field lengths, then (term id, field frequencies
 * packed two 16-bit counts per word) sorted by term id; terms are interned once in a shared
 * dictionary. About 0.3 KB per document instead of a Map plus ordered term lists (~4 KB, which
 * was ~200 MB of heap at 50,000 skills). Term order is not kept: callers that need it (the tool
 * ranker's optional bigram bonus) read it from their own store.
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
    const packed = this.docs.get(key);
    if (!packed) return;
    for (let at = this.fields.length; at < packed.length; at += this.stride) fn(packed[at]);
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
    const packed = this.docs.get(key);
    const f = this.fields.indexOf(field);
    if (!packed || f < 0) return 0;
    const wanted = new Set<number>();
    for (const term of terms) {
      const id = this.termIds.get(term);
      if (id !== undefined) wanted.add(id);
    }
    let distinct = 0;
    let covered = 0;
    for (let at = this.fields.length; at < packed.length; at += this.stride) {
      const word = packed[at + 1 + (f >> 1)];
      if ((f & 1 ? word >>> 16 : word & 0xffff) === 0) continue;
      distinct++;
      if (wanted.has(packed[at])) covered++;
    }
    return distinct === 0 ? 0 : covered / distinct;
  }

  /**
   * A document's terms with their weighted, length-normalised frequency
   * (Σ_f weight_f × tf_f / length_f, or without the length when not `lengthNormalised`); empty for an unknown document. Pseudo-relevance feedback
   * reads the top documents' vocabulary through this, without a store round-trip.
   */
  documentTerms(key: K, fieldWeights: Readonly<Record<F, number>>, lengthNormalised = true): Array<{ term: string; frequency: number }> {
    const packed = this.docs.get(key);
    if (!packed) return [];
    const n = this.fields.length;
    const out: Array<{ term: string; frequency: number }> = [];
    for (let at = n; at < packed.length; at += this.stride) {
      let frequency = 0;
      for (let f = 0; f < n; f++) {
        const word = packed[at + 1 + (f >> 1)];
        const c = f & 1 ? word >>> 16 : word & 0xffff;
        if (c !== 0 && packed[f] > 0) frequency += (fieldWeights[this.fields[f]] * c) / (lengthNormalised ? packed[f] : 1);
      }
      if (frequency > 0) out.push({ term: this.termNames[packed[at]], frequency });
    }
    return out;
  }

  /** How many terms `documentTerms` gives for the document (its distinct terms of positive weighted frequency), without listing them. */
  distinctTerms(key: K, fieldWeights: Readonly<Record<F, number>>): number {
    const packed = this.docs.get(key);
    if (!packed) return 0;
    const n = this.fields.length;
    const weights = this.fields.map((field) => fieldWeights[field]);
    // Weights of zero or more (the relevance measures' are 0 or 1): a term counts when any field
    // of positive weight and length holds it — one mask per packed word, no division per count.
    if (weights.every((w) => w >= 0)) return this.termsInFields(packed, weights);
    let count = 0;
    for (let at = n; at < packed.length; at += this.stride) {
      let frequency = 0;
      for (let f = 0; f < n; f++) {
        const word = packed[at + 1 + (f >> 1)];
        const c = f & 1 ? word >>> 16 : word & 0xffff;
        if (c !== 0 && packed[f] > 0) frequency += (weights[f] * c) / packed[f];
      }
      if (frequency > 0) count++;
    }
    return count;
  }

  /** `distinctTerms` for weights of zero or more: the entries with a count in a field of positive weight and positive length. */
  private termsInFields(packed: Uint32Array, weights: readonly number[]): number {
    const n = this.fields.length;
    const words = this.stride - 1;
    const masks = new Uint32Array(words);
    for (let f = 0; f < n; f++) if ((weights[f] as number) > 0 && packed[f] > 0) masks[f >> 1] |= f & 1 ? 0xffff0000 : 0xffff;
    let count = 0;
    for (let at = n; at < packed.length; at += this.stride) {
      for (let w = 0; w < words; w++) {
        if ((packed[at + 1 + w] & masks[w]) !== 0) {
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
    const n = this.fields.length;
    const stride = this.stride;
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
    const out: number[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const packed = this.docs.get(keys[i]);
      let score = 0;
      if (packed !== undefined && m > 0) {
        // One pass over the document's sorted term ids (stops past the largest query id);
        // contributions are then summed in query order, as term-at-a-time scoring did.
        contribution.fill(0);
        for (let f = 0; f < n; f++) scale[f] = weight[f] / (1 - b[f] + (b[f] * packed[f]) / average[f]);
        for (let at = n; at < packed.length; at += stride) {
          const id = packed[at];
          if (id > maxId) break;
          if (queryStamp[id] !== stamp) continue;
          let pseudo = 0;
          for (let f = 0; f < n; f++) {
            const word = packed[at + 1 + (f >> 1)];
            const c = f & 1 ? word >>> 16 : word & 0xffff;
            if (c !== 0) pseudo += scale[f] * c;
          }
          const q = queryPosition[id];
          if (pseudo !== 0) contribution[q] = factors[q] * Math.fround(pseudo / (k1 + pseudo));
        }
        for (let q = 0; q < m; q++) score += contribution[q];
      }
      out[i] = score;
    }
    return out;
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
    const stride = this.stride;
    const { weight, b, average } = this.fieldParameters(fieldWeights, fieldB);
    const { ids, factors } = this.resolve(query, idf);
    const m = ids.length;
    const scale = new Float64Array(n);
    return (key) => {
      const packed = this.docs.get(key);
      if (packed === undefined || m === 0) return 0;
      for (let f = 0; f < n; f++) scale[f] = weight[f] / (1 - b[f] + (b[f] * packed[f]) / average[f]);
      const count = (packed.length - n) / stride;
      let score = 0;
      for (let q = 0; q < m; q++) {
        const at = find(packed, n, stride, count, ids[q]);
        if (at < 0) continue;
        let pseudo = 0;
        for (let f = 0; f < n; f++) {
          const word = packed[at + 1 + (f >> 1)];
          const c = f & 1 ? word >>> 16 : word & 0xffff;
          if (c !== 0) pseudo += scale[f] * c;
        }
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
    const stride = this.stride;
    const { weight, b, average } = this.fieldParameters(fieldWeights, fieldB);
    const scale = new Float64Array(n);
    for (const [key, packed] of this.docs) {
      for (let f = 0; f < n; f++) scale[f] = weight[f] / (1 - b[f] + (b[f] * packed[f]) / average[f]);
      for (let at = n; at < packed.length; at += stride) {
        let pseudo = 0;
        for (let f = 0; f < n; f++) {
          const word = packed[at + 1 + (f >> 1)];
          const c = f & 1 ? word >>> 16 : word & 0xffff;
          if (c !== 0) pseudo += scale[f] * c;
        }
        if (pseudo !== 0) fn(key, packed[at], pseudo / (k1 + pseudo));
      }
    }
  }

  /**
   * IDF mass of a document's terms that occur in any field with a non-zero weight in `fields`,
   * and of those among them whose ids `inQuery` accepts — the focus measures' hot path, with no
   * per-term allocation. IDF is taken over `docs` documents (a caller may add a prior).
   */
  fieldIdfMass(key: K, fields: Readonly<Record<F, number>>, docs: number, inQuery: (termId: number) => boolean): { total: number; covered: number } {
    const packed = this.docs.get(key);
    if (!packed) return { total: 0, covered: 0 };
    const n = this.fields.length;
    let mask = 0;
    for (let f = 0; f < n; f++) if (fields[this.fields[f]] !== 0) mask |= 1 << f;
    let total = 0;
    let covered = 0;
    for (let at = n; at < packed.length; at += this.stride) {
      let present = false;
      for (let f = 0; f < n && !present; f++) {
        if ((mask & (1 << f)) === 0) continue;
        const word = packed[at + 1 + (f >> 1)];
        present = (f & 1 ? word >>> 16 : word & 0xffff) !== 0;
      }
      if (!present) continue;
      const id = packed[at];
      const weight = bm25Idf(docs, this.docFreq[id]);
      total += weight;
      if (inQuery(id)) covered += weight;
    }
    return { total, covered };
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

/** Offset of term `id` in a packed document (binary search of its sorted term ids), or -1. */
function find(packed: Uint32Array, start: number, stride: number, count: number, id: number): number {
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = start + mid * stride;
    const value = packed[at];
    if (value === id) return at;
    if (value < id) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}
