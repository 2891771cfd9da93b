import type { SemanticCandidate } from './fusion';

/**
 * Unit vectors by document name in one contiguous Float32Array (a removed document's slot is
 * reused), so the nearest-neighbour scan is a tight loop over memory: a 20,000-tool catalog of
 * 64-dimension vectors is 5 MB and one exhaustive scan.
 */
export class VectorTable {
  private data: Float32Array;
  private names: Array<string | undefined> = [];
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];

  constructor(readonly dims: number, capacity = 256) {
    this.data = new Float32Array(dims * capacity);
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
      if ((slot + 1) * this.dims > this.data.length) {
        const grown = new Float32Array(Math.max(this.data.length * 2, (slot + 1) * this.dims));
        grown.set(this.data);
        this.data = grown;
      }
      this.slots.set(name, slot);
      this.names[slot] = name;
    }
    this.data.set(vector, slot * this.dims);
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
    return sum;
  }

  /** The `k` most similar documents that `accept` lets through, best first (ties by name). */
  nearest(query: Float32Array, k: number, accept: (name: string) => boolean = () => true): SemanticCandidate[] {
    if (k <= 0 || query.length !== this.dims) return [];
    const top: SemanticCandidate[] = [];
    const dims = this.dims;
    const data = this.data;
    for (let slot = 0; slot < this.names.length; slot++) {
      const name = this.names[slot];
      if (name === undefined) continue;
      let sum = 0;
      const at = slot * dims;
      for (let d = 0; d < dims; d++) sum += data[at + d] * query[d];
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
