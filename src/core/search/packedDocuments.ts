import { packCodes, packCounted, packedStride } from './countedFields';
import type { CountedFields } from './countedFields';

/**
 * The documents of a BM25F collection as `FieldStats` (bm25f.ts) keeps them, and how they are
 * written: one `Uint32Array` per document — its field lengths, then (term id, field frequencies
 * packed two 16-bit counts per word) sorted by term id (countedFields.ts) — over one term
 * dictionary, with the document frequencies and total field lengths kept in step on every add,
 * replacement and removal. Documents come as analysed term lists (`set`) or already counted in
 * this dictionary's ids (`setCounted`, what the stores load), and go back out counted in a
 * store's ids (`countedIn`). Every change bumps `changes`, which derived data (the impact
 * postings) keys on.
 */
export abstract class PackedDocuments<F extends string, K extends string | number> {
  protected readonly termIds = new Map<string, number>();
  /** Term id → term (the reverse of `termIds`), for callers that read a document's terms back. */
  protected readonly termNames: string[] = [];
  protected changes = 0;
  protected docFreq = new Int32Array(1024);
  protected readonly docs = new Map<K, Uint32Array>();
  protected readonly totalLength: Float64Array;
  /** Words per term entry: the term id, then ceil(fields / 2) words of 16-bit frequencies. */
  protected readonly stride: number;

  constructor(readonly fields: readonly F[]) {
    this.totalLength = new Float64Array(fields.length);
    this.stride = packedStride(fields.length);
  }

  /** Adds or replaces a document given the analysed terms of each field. */
  set(key: K, fieldTerms: Readonly<Record<F, readonly string[]>>): void {
    const n = this.fields.length;
    const lengths = this.fields.map((field) => fieldTerms[field].length);
    // One code per occurrence, (term id × fields + field), sorted natively: equal codes are one
    // field's count of a term, and a term's fields are adjacent — no per-term arrays to build.
    const codes = new Uint32Array(lengths.reduce((a, b) => a + b, 0));
    let k = 0;
    for (let f = 0; f < n; f++) {
      for (const term of fieldTerms[this.fields[f]]) codes[k++] = this.intern(term) * n + f;
    }
    codes.sort();
    // Runs of equal codes → (code, count), compacted in place.
    const counts = new Uint32Array(codes.length);
    let distinct = 0;
    for (let i = 0; i < codes.length;) {
      let end = i + 1;
      while (end < codes.length && codes[end] === codes[i]) end++;
      codes[distinct] = codes[i];
      counts[distinct++] = end - i;
      i = end;
    }
    this.adopt(key, packCodes(codes.subarray(0, distinct), counts, lengths, n));
  }

  /**
   * Adds or replaces a document given each field's distinct term ids (this dictionary's, from
   * `internTerm`) and counts: the same document `set` makes of the expanded term lists.
   */
  setCounted(key: K, counted: CountedFields): void {
    if (counted.fieldEnds.length !== this.fields.length) throw new Error(`counted terms have ${counted.fieldEnds.length} fields, not ${this.fields.length}`);
    this.adopt(key, packCounted(counted));
  }

  /** Adds or replaces a document already packed in this dictionary's ids (`TermVocabulary.packStored`: what a store's open loads). */
  setPacked(key: K, packed: Uint32Array): void {
    if (packed.length < this.fields.length || (packed.length - this.fields.length) % this.stride !== 0) throw new Error('a packed document of another layout');
    this.adopt(key, packed);
  }

  /**
   * A document's terms counted per field in another dictionary's ids (`idOf`: a store's vocabulary),
   * ascending within each field: what a store writes for a document indexed from text.
   */
  countedIn(key: K, idOf: (term: string) => number): CountedFields | undefined {
    const packed = this.docs.get(key);
    if (!packed) return undefined;
    const perField: Array<Array<[number, number]>> = this.fields.map(() => []);
    for (let at = this.fields.length; at < packed.length; at += this.stride) {
      const id = idOf(this.termNames[packed[at]]);
      for (let f = 0; f < this.fields.length; f++) {
        const c = (packed[at + 1 + (f >> 1)] >>> (f & 1 ? 16 : 0)) & 0xffff;
        if (c !== 0) perField[f].push([id, c]);
      }
    }
    const total = perField.reduce((sum, pairs) => sum + pairs.length, 0);
    const counted: CountedFields = { ids: new Uint32Array(total), counts: new Uint32Array(total), fieldEnds: new Uint32Array(this.fields.length) };
    let out = 0;
    perField.forEach((pairs, f) => {
      pairs.sort((a, b) => a[0] - b[0]);
      for (const [id, c] of pairs) {
        counted.ids[out] = id;
        counted.counts[out++] = c;
      }
      counted.fieldEnds[f] = out;
    });
    return counted;
  }

  /** The id of `term` in this dictionary, interned when new (stable: ids are never reused). */
  internTerm(term: string): number {
    return this.intern(term);
  }

  /** Stores a packed document (countedFields.ts) under `key`, replacing any, and counts it into the collection's statistics. */
  private adopt(key: K, packed: Uint32Array): void {
    const n = this.fields.length;
    for (let at = n; at < packed.length; at += this.stride) {
      if (packed[at] >= this.termNames.length) throw new Error(`term id ${packed[at]} was never interned`);
    }
    this.delete(key);
    this.changes++;
    for (let f = 0; f < n; f++) this.totalLength[f] += packed[f];
    for (let at = n; at < packed.length; at += this.stride) this.docFreq[packed[at]]++;
    this.docs.set(key, packed);
  }

  delete(key: K): void {
    const packed = this.docs.get(key);
    if (!packed) return;
    this.changes++;
    const n = this.fields.length;
    for (let f = 0; f < n; f++) this.totalLength[f] -= packed[f];
    for (let at = n; at < packed.length; at += this.stride) {
      const id = packed[at];
      this.docFreq[id] = Math.max(0, this.docFreq[id] - 1);
    }
    this.docs.delete(key);
  }

  clear(): void {
    this.changes++;
    this.docs.clear();
    this.totalLength.fill(0);
    this.docFreq.fill(0);
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termIds.size;
      this.termIds.set(term, id);
      this.termNames.push(term);
      if (id >= this.docFreq.length) {
        const grown = new Int32Array(this.docFreq.length * 2);
        grown.set(this.docFreq);
        this.docFreq = grown;
      }
    }
    return id;
  }
}
