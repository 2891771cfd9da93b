/**
 * In-memory BM25F over analysed, multi-field documents (generic: tools today, skills may reuse).
 *
 * Exports `FieldStats<F>`: add/remove documents as `{ field: terms[] }`, keep document
 * frequencies and average field lengths current, and score a document against weighted query
 * terms with BM25F (Robertson & Zaragoza): per term, field frequencies are length-normalised
 * per field, weighted, summed into one pseudo-frequency, then saturated once with k1.
 * Used as the re-ranking stage after FTS candidate generation, where it sees every query term
 * (candidate generation may drop very common ones) and term positions (for phrase bonuses).
 */

import { bm25Idf } from './ftsBm25';

export interface FieldDoc<F extends string> {
  /** term → frequency in each field (indexed like `FieldStats.fields`). */
  readonly tf: ReadonlyMap<string, readonly number[]>;
  readonly length: Readonly<Record<F, number>>;
  /** The same lengths, indexed like `FieldStats.fields` (hot-path scoring). */
  readonly lengths: readonly number[];
  /** The analysed terms per field, in order (for adjacency features). */
  readonly terms: Readonly<Record<F, readonly string[]>>;
}

export interface WeightedTerm {
  term: string;
  weight: number;
}

export class FieldStats<F extends string> {
  private readonly docs = new Map<string, FieldDoc<F>>();
  private readonly docFreq = new Map<string, number>();
  private readonly totalLength: Record<string, number> = {};
  // Term-at-a-time scoring: each document has an integer slot; postings list slots per term.
  private readonly slotOf = new Map<string, number>();
  private readonly slotLengths: (readonly number[] | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  private readonly postings = new Map<string, { slots: number[]; counts: (readonly number[])[] }>();
  private mark = new Int32Array(0);
  private acc = new Float64Array(0);
  private stamp = 0;

  constructor(readonly fields: readonly F[], private readonly k1 = 1.2) {
    for (const field of fields) this.totalLength[field] = 0;
  }

  get size(): number {
    return this.docs.size;
  }

  get(key: string): FieldDoc<F> | undefined {
    return this.docs.get(key);
  }

  /** Document frequency of a term over all fields (0 when absent). */
  df(term: string): number {
    return this.docFreq.get(term) ?? 0;
  }

  idf(term: string): number {
    return bm25Idf(Math.max(this.docs.size, 1), this.df(term));
  }

  set(key: string, fieldTerms: Readonly<Record<F, readonly string[]>>): void {
    this.delete(key);
    const tf = new Map<string, number[]>();
    const length = {} as Record<F, number>;
    const lengths: number[] = [];
    this.fields.forEach((field, f) => {
      for (const term of fieldTerms[field]) {
        let counts = tf.get(term);
        if (!counts) {
          counts = new Array<number>(this.fields.length).fill(0);
          tf.set(term, counts);
        }
        counts[f]++;
      }
      length[field] = fieldTerms[field].length;
      lengths.push(fieldTerms[field].length);
      this.totalLength[field] += fieldTerms[field].length;
    });
    for (const term of tf.keys()) this.docFreq.set(term, (this.docFreq.get(term) ?? 0) + 1);
    this.docs.set(key, { tf, length, lengths, terms: fieldTerms });
    const slot = this.freeSlots.pop() ?? this.slotLengths.length;
    this.slotOf.set(key, slot);
    this.slotLengths[slot] = lengths;
    for (const [term, counts] of tf) {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = { slots: [], counts: [] };
        this.postings.set(term, posting);
      }
      posting.slots.push(slot);
      posting.counts.push(counts);
    }
  }

  delete(key: string): void {
    const doc = this.docs.get(key);
    if (!doc) return;
    for (const field of this.fields) this.totalLength[field] -= doc.length[field];
    const slot = this.slotOf.get(key)!;
    for (const term of doc.tf.keys()) {
      const next = (this.docFreq.get(term) ?? 1) - 1;
      if (next <= 0) this.docFreq.delete(term);
      else this.docFreq.set(term, next);
      const posting = this.postings.get(term);
      if (posting) {
        const at = posting.slots.lastIndexOf(slot);
        const last = posting.slots.length - 1;
        if (at >= 0) {
          posting.slots[at] = posting.slots[last];
          posting.counts[at] = posting.counts[last];
          posting.slots.pop();
          posting.counts.pop();
        }
        if (posting.slots.length === 0) this.postings.delete(term);
      }
    }
    this.slotOf.delete(key);
    this.slotLengths[slot] = undefined;
    this.freeSlots.push(slot);
    this.docs.delete(key);
  }

  averageLength(field: F): number {
    return this.docs.size === 0 ? 0 : this.totalLength[field] / this.docs.size;
  }

  /**
   * BM25F of every document in `keys` (scores aligned with `keys`; unknown keys score 0),
   * term-at-a-time: a query term's postings are walked once and only pool members count;
   * a term far more common than the pool is looked up per pool document instead.
   * Same result as `score` per document.
   */
  scorePool(
    keys: readonly string[],
    query: readonly WeightedTerm[],
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    idf?: ReadonlyMap<string, number>,
    k1: number = this.k1,
  ): number[] {
    const n = this.fields.length;
    const { weight, b, bOverAvg } = this.fieldParameters(fieldWeights, fieldB);
    if (this.mark.length < this.slotLengths.length) {
      const size = Math.max(64, this.slotLengths.length * 2);
      this.mark = new Int32Array(size);
      this.acc = new Float64Array(size);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    const mark = this.mark;
    const acc = this.acc;
    const slots: number[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const slot = this.slotOf.get(keys[i]) ?? -1;
      slots[i] = slot;
      if (slot >= 0) {
        mark[slot] = stamp;
        acc[slot] = 0;
      }
    }
    const lengthsOf = this.slotLengths;
    const pseudoFrequency = (counts: readonly number[], lengths: readonly number[]): number => {
      let pseudo = 0;
      for (let f = 0; f < n; f++) {
        const c = counts[f];
        if (c !== 0) pseudo += (weight[f] * c) / (1 - b[f] + bOverAvg[f] * lengths[f]);
      }
      return pseudo;
    };
    for (const { term, weight: termWeight } of query) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const factor = termWeight * (idf?.get(term) ?? this.idf(term));
      if (posting.slots.length > 4 * keys.length) {
        for (let i = 0; i < keys.length; i++) {
          const slot = slots[i];
          if (slot < 0 || mark[slot] !== stamp) continue;
          const counts = this.docs.get(keys[i])!.tf.get(term);
          if (counts === undefined) continue;
          const pseudo = pseudoFrequency(counts, lengthsOf[slot]!);
          if (pseudo !== 0) acc[slot] += factor * (pseudo / (k1 + pseudo));
        }
        continue;
      }
      const postingSlots = posting.slots;
      const postingCounts = posting.counts;
      for (let j = 0; j < postingSlots.length; j++) {
        const slot = postingSlots[j];
        if (mark[slot] !== stamp) continue;
        const pseudo = pseudoFrequency(postingCounts[j], lengthsOf[slot]!);
        if (pseudo !== 0) acc[slot] += factor * (pseudo / (k1 + pseudo));
      }
    }
    const out: number[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) out[i] = slots[i] >= 0 ? acc[slots[i]] : 0;
    return out;
  }

  /**
   * A scorer for many documents under one set of parameters: field weights, length
   * normalisation and average lengths are resolved once, so each document costs one map
   * lookup per query term (plus arithmetic only for the fields a term occurs in).
   * Same result as `score` (while the collection does not change).
   */
  scorer(
    query: readonly WeightedTerm[],
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    idf?: ReadonlyMap<string, number>,
    k1: number = this.k1,
  ): (key: string) => number {
    const n = this.fields.length;
    const { weight, b, bOverAvg } = this.fieldParameters(fieldWeights, fieldB);
    const terms = query.map((t) => t.term);
    const factors = query.map((t) => t.weight * (idf?.get(t.term) ?? this.idf(t.term)));
    const m = terms.length;
    return (key: string): number => {
      const doc = this.docs.get(key);
      if (!doc) return 0;
      const lengths = doc.lengths;
      let score = 0;
      for (let q = 0; q < m; q++) {
        const counts = doc.tf.get(terms[q]);
        if (counts === undefined) continue;
        let pseudo = 0;
        for (let f = 0; f < n; f++) {
          const c = counts[f];
          if (c !== 0) pseudo += (weight[f] * c) / (1 - b[f] + bOverAvg[f] * lengths[f]);
        }
        if (pseudo !== 0) score += factors[q] * (pseudo / (k1 + pseudo));
      }
      return score;
    };
  }

  /** Per-field weight, length normalisation and b / average length, resolved once per query. */
  private fieldParameters(fieldWeights: Readonly<Record<F, number>>, fieldB: Readonly<Record<F, number>>) {
    const n = this.fields.length;
    const weight = new Float64Array(n);
    const b = new Float64Array(n);
    const bOverAvg = new Float64Array(n);
    for (let f = 0; f < n; f++) {
      const field = this.fields[f];
      weight[f] = fieldWeights[field];
      b[f] = fieldB[field];
      bOverAvg[f] = b[f] / (this.averageLength(field) || 1);
    }
    return { weight, b, bOverAvg };
  }

  /**
   * BM25F relevance of one document. `fieldWeights[f]` scales field f, `fieldB[f]` is its
   * length normalisation (0 = none, 1 = full). `idf` may carry precomputed term IDFs; `k1`
   * overrides the saturation constant given to the constructor.
   */
  score(
    key: string,
    query: readonly WeightedTerm[],
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    idf?: ReadonlyMap<string, number>,
    k1: number = this.k1,
  ): number {
    const doc = this.docs.get(key);
    if (!doc) return 0;
    const n = this.fields.length;
    const scale: number[] = new Array(n);
    for (let f = 0; f < n; f++) {
      const field = this.fields[f];
      const avg = this.averageLength(field) || 1;
      scale[f] = fieldWeights[field] / (1 - fieldB[field] + (fieldB[field] * doc.length[field]) / avg);
    }
    let score = 0;
    for (const { term, weight } of query) {
      const counts = doc.tf.get(term);
      if (!counts) continue;
      let pseudo = 0;
      for (let f = 0; f < n; f++) if (counts[f]) pseudo += scale[f] * counts[f];
      if (pseudo === 0) continue;
      score += weight * (idf?.get(term) ?? this.idf(term)) * (pseudo / (k1 + pseudo));
    }
    return score;
  }
}
