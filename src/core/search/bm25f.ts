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
      this.totalLength[field] += fieldTerms[field].length;
    });
    for (const term of tf.keys()) this.docFreq.set(term, (this.docFreq.get(term) ?? 0) + 1);
    this.docs.set(key, { tf, length, terms: fieldTerms });
  }

  delete(key: string): void {
    const doc = this.docs.get(key);
    if (!doc) return;
    for (const field of this.fields) this.totalLength[field] -= doc.length[field];
    for (const term of doc.tf.keys()) {
      const next = (this.docFreq.get(term) ?? 1) - 1;
      if (next <= 0) this.docFreq.delete(term);
      else this.docFreq.set(term, next);
    }
    this.docs.delete(key);
  }

  averageLength(field: F): number {
    return this.docs.size === 0 ? 0 : this.totalLength[field] / this.docs.size;
  }

  /**
   * BM25F relevance of one document. `fieldWeights[f]` scales field f, `fieldB[f]` is its
   * length normalisation (0 = none, 1 = full). `idf` may carry precomputed term IDFs.
   */
  score(
    key: string,
    query: readonly WeightedTerm[],
    fieldWeights: Readonly<Record<F, number>>,
    fieldB: Readonly<Record<F, number>>,
    idf?: ReadonlyMap<string, number>,
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
      score += weight * (idf?.get(term) ?? this.idf(term)) * (pseudo / (this.k1 + pseudo));
    }
    return score;
  }
}
