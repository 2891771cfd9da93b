import { bm25Idf } from '../search/ftsBm25';

/**
 * BM25F term statistics in a compact form — the same scores as `FieldStats` of
 * src/core/search/bm25f.ts (Robertson & Zaragoza: per-field length-normalised, weighted term
 * frequencies summed into one pseudo-frequency, saturated once with k1; Lucene-form IDF over
 * document frequency), which a unit test pins.
 *
 * Why not `FieldStats` itself: it keeps a Map and the ordered term lists per document (~4 KB per
 * skill, ~200 MB of heap at 50,000 skills) for features skills do not use. Here a document is
 * one Uint32Array — its field lengths, then (term id, field frequencies packed two per word)
 * sorted by term id — about 0.3 KB per skill; terms are interned once in a shared dictionary.
 */
export class CompactFieldStats {
  private readonly termIds = new Map<string, number>();
  private docFreq = new Int32Array(1024);
  private readonly docs = new Map<number, Uint32Array>();
  private readonly totalLength: Float64Array;
  private readonly stride: number;

  constructor(readonly fieldCount: number, private readonly k1 = 1.2) {
    this.totalLength = new Float64Array(fieldCount);
    // term id + ceil(fields / 2) words of 16-bit frequencies
    this.stride = 1 + Math.ceil(fieldCount / 2);
  }

  get size(): number {
    return this.docs.size;
  }

  has(key: number): boolean {
    return this.docs.has(key);
  }

  /** Documents containing the term in any field (0 when absent). */
  df(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.docFreq[id] ?? 0;
  }

  idf(term: string): number {
    return bm25Idf(Math.max(this.docs.size, 1), this.df(term));
  }

  averageLength(field: number): number {
    return this.docs.size === 0 ? 0 : (this.totalLength[field] ?? 0) / this.docs.size;
  }

  /** Adds or replaces a document: `fieldTerms[f]` are the analysed terms of field f. */
  set(key: number, fieldTerms: ReadonlyArray<readonly string[]>): void {
    this.delete(key);
    const fields = this.fieldCount;
    const counts = new Map<number, number[]>();
    for (let f = 0; f < fields; f++) {
      for (const term of fieldTerms[f] ?? []) {
        const id = this.intern(term);
        let perField = counts.get(id);
        if (!perField) {
          perField = new Array<number>(fields).fill(0);
          counts.set(id, perField);
        }
        perField[f] = Math.min((perField[f] ?? 0) + 1, 0xffff);
      }
    }
    const ids = [...counts.keys()].sort((a, b) => a - b);
    const packed = new Uint32Array(fields + ids.length * this.stride);
    for (let f = 0; f < fields; f++) {
      const length = fieldTerms[f]?.length ?? 0;
      packed[f] = length;
      this.totalLength[f] = (this.totalLength[f] ?? 0) + length;
    }
    let at = fields;
    for (const id of ids) {
      const perField = counts.get(id) as number[];
      packed[at] = id;
      for (let f = 0; f < fields; f += 2) packed[at + 1 + f / 2] = (perField[f] ?? 0) | ((perField[f + 1] ?? 0) << 16);
      this.docFreq[id] = (this.docFreq[id] ?? 0) + 1;
      at += this.stride;
    }
    this.docs.set(key, packed);
  }

  delete(key: number): void {
    const packed = this.docs.get(key);
    if (!packed) return;
    const fields = this.fieldCount;
    for (let f = 0; f < fields; f++) this.totalLength[f] = (this.totalLength[f] ?? 0) - (packed[f] ?? 0);
    for (let at = fields; at < packed.length; at += this.stride) {
      const id = packed[at] as number;
      this.docFreq[id] = Math.max(0, (this.docFreq[id] ?? 0) - 1);
    }
    this.docs.delete(key);
  }

  clear(): void {
    this.docs.clear();
    this.totalLength.fill(0);
    this.docFreq.fill(0);
  }

  /**
   * A scorer for one query: BM25F relevance of a document (0 when absent or no term matches).
   * `fieldWeights[f]` scales field f, `fieldB[f]` is its length normalisation (0 none, 1 full).
   */
  scorer(terms: readonly string[], fieldWeights: readonly number[], fieldB: readonly number[]): (key: number) => number {
    const fields = this.fieldCount;
    const stride = this.stride;
    const k1 = this.k1;
    const query: Array<{ id: number; idf: number }> = [];
    for (const term of new Set(terms)) {
      const id = this.termIds.get(term);
      if (id !== undefined && (this.docFreq[id] ?? 0) > 0) query.push({ id, idf: this.idf(term) });
    }
    const average = Array.from({ length: fields }, (_, f) => this.averageLength(f) || 1);
    const scale = new Float64Array(fields);
    return (key) => {
      const packed = this.docs.get(key);
      if (!packed || query.length === 0) return 0;
      for (let f = 0; f < fields; f++) {
        const b = fieldB[f] ?? 0;
        scale[f] = (fieldWeights[f] ?? 0) / (1 - b + (b * (packed[f] as number)) / (average[f] as number));
      }
      const count = (packed.length - fields) / stride;
      let score = 0;
      for (const { id, idf } of query) {
        // Binary search of the document's sorted term ids.
        let low = 0;
        let high = count - 1;
        let at = -1;
        while (low <= high) {
          const mid = (low + high) >> 1;
          const value = packed[fields + mid * stride] as number;
          if (value === id) {
            at = fields + mid * stride;
            break;
          }
          if (value < id) low = mid + 1;
          else high = mid - 1;
        }
        if (at < 0) continue;
        let pseudo = 0;
        for (let f = 0; f < fields; f++) {
          const word = packed[at + 1 + (f >> 1)] as number;
          const tf = f & 1 ? word >>> 16 : word & 0xffff;
          if (tf) pseudo += (scale[f] as number) * tf;
        }
        if (pseudo > 0) score += idf * (pseudo / (k1 + pseudo));
      }
      return score;
    };
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termIds.size;
      this.termIds.set(term, id);
      if (id >= this.docFreq.length) {
        const grown = new Int32Array(this.docFreq.length * 2);
        grown.set(this.docFreq);
        this.docFreq = grown;
      }
    }
    return id;
  }
}
