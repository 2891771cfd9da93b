import type { RelevanceCalibration } from './fusedRelevance';

/**
 * The embedding port of tool and skill search: text → a unit-length vector in one model's
 * space. Two kinds implement it: the bundled word vectors (in-process, synchronous) and a
 * local embedding endpoint (HTTP, asynchronous; vectors cached by record hash).
 *
 * Search itself is synchronous, so a query is embedded before the search runs: `prepare` is
 * awaited by async surfaces (the LM tools, the CLI), and the search then asks `vectorNow`,
 * which answers from what is in memory (undefined = this query has no vector: lexical only).
 */
export interface Embedder {
  /**
   * Names the vector space (model and where it runs). Vectors made under another key are
   * never compared with these (a cache keyed by record hash stores this key beside them).
   */
  readonly key: string;
  /** Vector length when known before the first call (the bundled model's); an endpoint learns it. */
  readonly dims?: number;
  /** Vectors for many texts, in order; an endpoint batches them. Rejects when unavailable. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** The vector of `text` if it can be had without waiting (bundled: always; endpoint: once prepared). */
  vectorNow(text: string): Float32Array | undefined;
  /** Makes `vectorNow(text)` answer (no-op for an in-process model); never rejects. */
  prepare(text: string): Promise<void>;
  /**
   * In-process models that read analysed terms (the bundled one) embed an index's weighted
   * terms directly, so indexing does not analyse the text a second time.
   */
  vectorOfTerms?(terms: Iterable<WeightedTerm>): Float32Array | undefined;
  /**
   * How this model's cosines map onto absolute relevance (fusedRelevance.ts); absent = its
   * similarities reorder results but never raise an item over a relevance gate.
   */
  readonly calibration?: RelevanceCalibration;
  /**
   * Why this model gives no vectors now (an endpoint that failed and is within its back-off), or
   * undefined; absent for an in-process model, which cannot fail.
   */
  unavailableReason?(): string | undefined;
}

/** An analysed term and how much it counts in its document. */
export interface WeightedTerm {
  term: string;
  frequency: number;
}

/** Cosine similarity of two unit-length vectors (the dot product); 0 when dimensions differ. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/**
 * Scales `v` to unit length in place (a zero vector stays zero). Divided by its largest component
 * first, so components near the float range (an endpoint may answer 3.4e38) do not overflow the
 * sum of squares into Infinity and leave a zero vector.
 */
export function normalize(v: Float32Array): Float32Array {
  let largest = 0;
  for (let i = 0; i < v.length; i++) largest = Math.max(largest, Math.abs(v[i]));
  if (!(largest > 0) || !Number.isFinite(largest)) return v;
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    const scaled = v[i] / largest;
    norm += scaled * scaled;
  }
  const length = Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i] = v[i] / largest / length;
  return v;
}
