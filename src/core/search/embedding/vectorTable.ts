import type { SemanticCandidate } from './fusion';

/** What a search reads of a table of vectors (a VectorTable, or a view of one over the documents a search may see). */
export interface VectorLookup {
  readonly dims: number;
  readonly size: number;
  has(name: string): boolean;
  similarity(name: string, query: Float32Array): number | undefined;
  nearest(query: Float32Array, k: number, accept?: (name: string) => boolean): SemanticCandidate[];
}

/**
 * Unit vectors by document name, quantised to int8 (one scale per vector) in one contiguous
 * array (a removed document's slot is reused), so the nearest-neighbour scan is a tight loop
 * over little memory: 20,000 tools × 128 dimensions are 2.5 MB, one exhaustive scan. The
 * rounding moves a cosine by about 0.005 at most, far below what separates two tools.
 */
export class VectorTable implements VectorLookup {
  private data: Int8Array;
  private scales: Float32Array;
  private names: Array<string | undefined> = [];
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];

  constructor(
    readonly dims: number,
    capacity = 256,
  ) {
    this.data = new Int8Array(dims * capacity);
    this.scales = new Float32Array(capacity);
  }

  get size(): number {
    return this.slots.size;
  }

  has(name: string): boolean {
    return this.slots.has(name);
  }

  /** Stores (or replaces) a unit vector; one of another dimension is refused. */
  set(name: string, vector: Float32Array): void {
    if (vector.length !== this.dims) throw new Error(`vector of ${vector.length} dimensions in a table of ${this.dims}`);
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.names.length;
      if (slot >= this.scales.length) {
        const grown = new Int8Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
        const scales = new Float32Array(this.scales.length * 2);
        scales.set(this.scales);
        this.scales = scales;
      }
      this.slots.set(name, slot);
      this.names[slot] = name;
    }
    let max = 0;
    for (let d = 0; d < this.dims; d++) max = Math.max(max, Math.abs(vector[d]));
    const scale = max > 0 && Number.isFinite(max) ? max / 127 : 1;
    this.scales[slot] = scale;
    const at = slot * this.dims;
    for (let d = 0; d < this.dims; d++) this.data[at + d] = Number.isFinite(vector[d]) ? Math.round(vector[d] / scale) : 0;
  }

  delete(name: string): void {
    const slot = this.slots.get(name);
    if (slot === undefined) return;
    this.slots.delete(name);
    this.names[slot] = undefined;
    this.free.push(slot);
  }

  clear(): void {
    this.slots.clear();
    this.names = [];
    this.free.length = 0;
  }

  /** Cosine of `query` (unit length) and the stored vector of `name`, if any. */
  similarity(name: string, query: Float32Array): number | undefined {
    const slot = this.slots.get(name);
    if (slot === undefined || query.length !== this.dims) return undefined;
    let sum = 0;
    const at = slot * this.dims;
    for (let d = 0; d < this.dims; d++) sum += this.data[at + d] * query[d];
    return sum * this.scales[slot];
  }

  /** The `k` most similar documents that `accept` lets through, best first (ties by name). */
  nearest(query: Float32Array, k: number, accept: (name: string) => boolean = () => true): SemanticCandidate[] {
    if (k <= 0 || query.length !== this.dims) return [];
    const top: SemanticCandidate[] = [];
    const dims = this.dims;
    const data = this.data;
    const scales = this.scales;
    for (let slot = 0; slot < this.names.length; slot++) {
      const name = this.names[slot];
      if (name === undefined) continue;
      let dot = 0;
      const at = slot * dims;
      for (let d = 0; d < dims; d++) dot += data[at + d] * query[d];
      const sum = dot * scales[slot];
      if (top.length === k && !better(sum, name, top[k - 1])) continue;
      if (!accept(name)) continue;
      let i = top.length;
      if (i === k) top.pop();
      i = top.length;
      while (i > 0 && better(sum, name, top[i - 1])) i--;
      top.splice(i, 0, { name, similarity: sum });
    }
    return top;
  }
}

function better(similarity: number, name: string, than: SemanticCandidate): boolean {
  return similarity > than.similarity || (similarity === than.similarity && name < than.name);
}
