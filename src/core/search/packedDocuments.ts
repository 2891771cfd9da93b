import { MAX_FREQUENCY, packCodes, packCounted, packedStride } from './countedFields';
import type { CountedFields, MergedDocument } from './countedFields';

/** The second word of a term entry when the term has counts in more than one field (the wide form's count words follow). */
const SPREAD = 0x80000000;
/**
 * A term entry in one word (the high bit set): field (3 bits), count (6 bits), term id (22 bits).
 * A term in one field that fits — nearly every word of a skill's body — takes this form.
 */
const ONE_WORD = 0x80000000;
const ONE_FIELD_SHIFT = 28;
const ONE_COUNT_SHIFT = 22;
const ONE_COUNT_MAX = 0x3f;
const ONE_ID_MASK = 0x3fffff;
/** A key without a document, in `snapshotOf`'s offsets. */
export const NO_DOCUMENT = 0xffffffff;

/**
 * The documents of a BM25F collection as `FieldStats` (bm25f.ts) keeps them, and how they are
 * written, over one term dictionary, with the document frequencies and total field lengths kept
 * in step on every add, replacement and removal. Documents come as analysed term lists (`set`),
 * already counted in this dictionary's ids (`setCounted`), or packed (`setPacked`, what the stores
 * load); they arrive in the wide packed form (countedFields.ts: the field lengths, then per term
 * its id and `stride − 1` words of 16-bit field counts) and are kept compact, every document in
 * one shared `Uint32Array` (`words`), at its offset in `docs`:
 *
 * - one word: the document's size in words (this word included), then its field lengths;
 * - per distinct term, by ascending id, one of: a single word (ONE_WORD: a term in one field with
 *   a count under 64 and an id under 2^22 — most of a long body's terms); the id, then
 *   `field × 2^16 + count` (a term in one field); or the id, SPREAD, then the wide form's count
 *   words (a term in several fields).
 *
 * One word for most terms instead of the wide form's `stride` (four for a skill's six fields),
 * and no allocation per document: at 10,000 real skills the wide form was 9,000 small arrays of
 * 23 MB, this is one of 10 MB. A replaced or removed document leaves its words behind until they
 * are half of the array, then the live documents are copied into a new one (`compact`).
 * Documents go back out counted in a store's ids (`countedIn`). Every change bumps `changes`,
 * which derived data (the impact postings) keys on.
 */
export abstract class PackedDocuments<F extends string, K extends string | number> {
  protected readonly termIds = new Map<string, number>();
  /** Term id → term (the reverse of `termIds`), for callers that read a document's terms back. */
  protected readonly termNames: string[] = [];
  protected changes = 0;
  protected docFreq = new Int32Array(1024);
  /** Each document's offset in `words`. */
  protected readonly docs = new Map<K, number>();
  /** Every document, compact (see the class comment); replaced by a larger or compacted array as documents come and go. */
  protected words = new Uint32Array(1024);
  /** Words of `words` in use, and of those the ones left by replaced or removed documents. */
  private used = 0;
  private garbage = 0;
  protected readonly totalLength: Float64Array;
  /** Words per term entry of the wide form: the term id, then ceil(fields / 2) words of 16-bit frequencies. */
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

  /** Adds or replaces a document already packed in this dictionary's ids (`TermVocabulary.packStored`). */
  setPacked(key: K, packed: Uint32Array): void {
    if (packed.length < this.fields.length || (packed.length - this.fields.length) % this.stride !== 0) throw new Error('a packed document of another layout');
    this.adopt(key, packed);
  }

  /**
   * Adds or replaces a document given as `packMerged` takes it (countedFields.ts; `start` 0) and
   * written straight into the compact form, with no wide document in between: what a store's open
   * runs for every stored document (`TermVocabulary.storeInto`). The same words as
   * `setPacked(key, packMerged(…))`.
   */
  setMerged(key: K, merged: MergedDocument): void {
    const { ids, counts, end, field, rest, r, lengths } = merged;
    const n = this.fields.length;
    const stride = this.stride;
    // Both runs ascend: their last ids are the largest.
    const largest = Math.max(end > 0 ? ids[end - 1] : -1, r > 0 ? Math.floor(Math.floor(rest[r - 1] / 0x10000) / n) : -1);
    if (largest >= this.termNames.length) throw new Error(`term id ${largest} was never interned`);
    this.delete(key);
    this.changes++;
    for (let f = 0; f < n; f++) this.totalLength[f] += lengths[f];
    // Written in scratch with room for the widest form of every entry, then copied at its size.
    const bound = 1 + n + (end + r) * (1 + stride);
    if (mergedScratch.length < bound) mergedScratch = new Uint32Array(Math.max(bound, 2 * mergedScratch.length));
    const words = mergedScratch;
    for (let f = 0; f < n; f++) words[1 + f] = lengths[f];
    let w = 1 + n;
    let i = 0;
    let j = 0;
    let restCode = r > 0 ? Math.floor(rest[0] / 0x10000) : 0;
    let restId = r > 0 ? Math.floor(restCode / n) : Infinity;
    while (i < end || j < r) {
      const inRun = i < end && ids[i] <= restId;
      const id = inRun ? ids[i] : restId;
      this.docFreq[id]++;
      // The term's entries: the run's, then the other fields' of the same id (each field once).
      let soleField = inRun ? field : restCode - restId * n;
      let soleCount = inRun ? Math.min(counts[i], MAX_FREQUENCY) : rest[j] - restCode * 0x10000;
      const nextRest = inRun ? j : j + 1;
      const spread = nextRest < r && Math.floor(Math.floor(rest[nextRest] / 0x10000) / n) === id;
      if (!spread) {
        if (inRun) i++;
        else j++;
        if (soleField <= 7 && soleCount <= ONE_COUNT_MAX && id <= ONE_ID_MASK) {
          words[w++] = (ONE_WORD | (soleField << ONE_FIELD_SHIFT) | (soleCount << ONE_COUNT_SHIFT) | id) >>> 0;
        } else {
          words[w++] = id;
          words[w++] = soleField * 0x10000 + soleCount;
        }
      } else {
        words[w++] = id;
        words[w++] = SPREAD;
        const at = w;
        for (let k = 1; k < stride; k++) words[w++] = 0;
        if (inRun) {
          words[at + (soleField >> 1)] |= soleField & 1 ? soleCount << 16 : soleCount;
          i++;
        }
        while (j < r && restId === id) {
          soleField = restCode - restId * n;
          soleCount = rest[j] - restCode * 0x10000;
          words[at + (soleField >> 1)] |= soleField & 1 ? soleCount << 16 : soleCount;
          j++;
          restCode = j < r ? Math.floor(rest[j] / 0x10000) : 0;
          restId = j < r ? Math.floor(restCode / n) : Infinity;
        }
        continue;
      }
      if (!inRun) {
        restCode = j < r ? Math.floor(rest[j] / 0x10000) : 0;
        restId = j < r ? Math.floor(restCode / n) : Infinity;
      }
    }
    words[0] = w;
    const o = this.room(w);
    this.words.set(words.subarray(0, w), o);
    this.docs.set(key, o);
  }

  /**
   * A document's terms counted per field in another dictionary's ids (`idOf`: a store's vocabulary),
   * ascending within each field: what a store writes for a document indexed from text.
   */
  countedIn(key: K, idOf: (term: string) => number): CountedFields | undefined {
    const o = this.docs.get(key);
    if (o === undefined) return undefined;
    const n = this.fields.length;
    const words = this.words;
    const perField: Array<Array<[number, number]>> = this.fields.map(() => []);
    for (let at = o + 1 + n, end = o + words[o]; at < end; at = this.next(at)) {
      const id = idOf(this.termNames[this.idAt(at)]);
      for (let f = 0; f < n; f++) {
        const c = this.countAt(at, f);
        if (c !== 0) perField[f].push([id, c]);
      }
    }
    const total = perField.reduce((sum, pairs) => sum + pairs.length, 0);
    const counted: CountedFields = { ids: new Uint32Array(total), counts: new Uint32Array(total), fieldEnds: new Uint32Array(n) };
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

  /**
   * The collection as a snapshot keeps it (skills/store/mirrorSnapshot.ts): the dictionary in id
   * order, and the documents of `keys`, in that order, laid end to end in one array (`offsets[i]`:
   * where key i's document starts, NO_DOCUMENT when it has none). Read-only views and one copy.
   */
  snapshotOf(keys: readonly K[]): { terms: readonly string[]; offsets: Uint32Array; words: Uint32Array } {
    const offsets = new Uint32Array(keys.length);
    let total = 0;
    keys.forEach((key) => {
      const o = this.docs.get(key);
      if (o !== undefined) total += this.words[o];
    });
    const words = new Uint32Array(total);
    let w = 0;
    keys.forEach((key, i) => {
      const o = this.docs.get(key);
      if (o === undefined) {
        offsets[i] = NO_DOCUMENT;
        return;
      }
      const size = this.words[o];
      words.set(this.words.subarray(o, o + size), w);
      offsets[i] = w;
      w += size;
    });
    return { terms: this.termNames, offsets, words };
  }

  /**
   * Replaces the collection with a snapshot's (`snapshotOf`'s parts; `words` is kept, not copied).
   * Every document is walked once: its entries must lie inside it, name interned terms in
   * ascending order and fit the layout, and the documents must lie end to end in `offsets` order;
   * the document frequencies and field lengths are counted from them, never trusted. Throws (the
   * collection left empty) when they do not.
   */
  restore(terms: readonly string[], keys: readonly K[], offsets: Uint32Array, words: Uint32Array<ArrayBuffer>): void {
    this.clear();
    if (this.termNames.length > 0) throw new Error('a snapshot is restored into a fresh dictionary only');
    try {
      for (const term of terms) if (this.intern(term) !== this.termNames.length - 1) throw new Error(`term "${term}" is listed twice`);
      const n = this.fields.length;
      const termCount = this.termNames.length;
      const docFreq = this.docFreq;
      let expected = 0;
      for (let i = 0; i < keys.length; i++) {
        const o = offsets[i];
        if (o === NO_DOCUMENT) continue;
        const size = o === expected && o < words.length ? words[o] : 0;
        if (size < 1 + n || o + size > words.length) throw new Error(`document ${i} is out of place`);
        expected = o + size;
        if (this.docs.has(keys[i])) throw new Error(`key ${String(keys[i])} is listed twice`);
        for (let f = 0; f < n; f++) this.totalLength[f] += words[o + 1 + f];
        let previous = -1;
        for (let at = o + 1 + n; at < expected;) {
          const first = words[at];
          const id = first >= ONE_WORD ? first & ONE_ID_MASK : first;
          let next = at + 1;
          if (first >= ONE_WORD) {
            if (((first >>> ONE_FIELD_SHIFT) & 7) >= n) throw new Error(`document ${i} has a term in no field`);
          } else if (at + 1 >= expected) {
            throw new Error(`document ${i} is cut`);
          } else if (words[at + 1] < SPREAD) {
            if (words[at + 1] >>> 16 >= n) throw new Error(`document ${i} has a term in no field`);
            next = at + 2;
          } else {
            next = at + 1 + this.stride;
          }
          if (next > expected || id >= termCount || id <= previous) throw new Error(`document ${i} has a damaged term entry`);
          previous = id;
          docFreq[id]++;
          at = next;
        }
        this.docs.set(keys[i], o);
      }
      if (expected !== words.length) throw new Error('words lie outside the documents');
      this.words = words;
      this.used = words.length;
      this.changes++;
    } catch (error) {
      this.clear();
      throw error;
    }
  }

  /** The id of `term` in this dictionary, interned when new (stable: ids are never reused). */
  internTerm(term: string): number {
    return this.intern(term);
  }

  /** The term id of the entry at `at`. */
  protected idAt(at: number): number {
    const first = this.words[at];
    return first >= ONE_WORD ? first & ONE_ID_MASK : first;
  }

  /** Field f's count of the term whose entry starts at `at` (0 when the term is not in that field). */
  protected countAt(at: number, f: number): number {
    const first = this.words[at];
    if (first >= ONE_WORD) return ((first >>> ONE_FIELD_SHIFT) & 7) === f ? (first >>> ONE_COUNT_SHIFT) & ONE_COUNT_MAX : 0;
    const second = this.words[at + 1];
    if (second < SPREAD) return second >>> 16 === f ? second & 0xffff : 0;
    return (this.words[at + 2 + (f >> 1)] >>> (f & 1 ? 16 : 0)) & 0xffff;
  }

  /** The one field holding the term of the entry at `at`, or −1 when it is in several (its wide count words then start at `at + 2`). */
  protected soleField(at: number): number {
    const first = this.words[at];
    if (first >= ONE_WORD) return (first >>> ONE_FIELD_SHIFT) & 7;
    const second = this.words[at + 1];
    return second < SPREAD ? second >>> 16 : -1;
  }

  /** The count of the entry at `at` in its one field (`soleField` ≥ 0). */
  protected soleCount(at: number): number {
    const first = this.words[at];
    return first >= ONE_WORD ? (first >>> ONE_COUNT_SHIFT) & ONE_COUNT_MAX : this.words[at + 1] & 0xffff;
  }

  /** Where the term entry after the one at `at` starts. */
  protected next(at: number): number {
    if (this.words[at] >= ONE_WORD) return at + 1;
    return this.words[at + 1] < SPREAD ? at + 2 : at + 1 + this.stride;
  }

  /** Stores a wide packed document (countedFields.ts) compact under `key`, replacing any, and counts it into the collection's statistics. */
  private adopt(key: K, packed: Uint32Array): void {
    const n = this.fields.length;
    const stride = this.stride;
    let size = 1 + n;
    for (let at = n; at < packed.length; at += stride) {
      if (packed[at] >= this.termNames.length) throw new Error(`term id ${packed[at]} was never interned`);
      const f = inOneField(packed, at, stride);
      size += f < 0 ? 1 + stride : oneWord(packed, at, f) !== 0 ? 1 : 2;
    }
    this.delete(key);
    this.changes++;
    for (let f = 0; f < n; f++) this.totalLength[f] += packed[f];
    for (let at = n; at < packed.length; at += stride) this.docFreq[packed[at]]++;
    const o = this.room(size);
    const words = this.words;
    words[o] = size;
    for (let f = 0; f < n; f++) words[o + 1 + f] = packed[f];
    let w = o + 1 + n;
    for (let at = n; at < packed.length; at += stride) {
      const f = inOneField(packed, at, stride);
      const one = f < 0 ? 0 : oneWord(packed, at, f);
      if (one !== 0) {
        words[w++] = one;
        continue;
      }
      words[w++] = packed[at];
      if (f >= 0) {
        words[w++] = f * 0x10000 + ((packed[at + 1 + (f >> 1)] >>> (f & 1 ? 16 : 0)) & 0xffff);
      } else {
        words[w++] = SPREAD;
        for (let k = 1; k < stride; k++) words[w++] = packed[at + k];
      }
    }
    this.docs.set(key, o);
  }

  /** The offset of `size` new words at the end of `words`, grown (or first compacted) when they do not fit. */
  private room(size: number): number {
    if (this.used + size > this.words.length) {
      if (this.garbage * 2 >= this.used) this.compact(size, 1.25);
      if (this.used + size > this.words.length) {
        const grown = new Uint32Array(Math.max(this.used + size, Math.ceil(this.words.length * 1.5)));
        grown.set(this.words.subarray(0, this.used));
        this.words = grown;
      }
    }
    const o = this.used;
    this.used += size;
    return o;
  }

  /**
   * Drops the room a growing collection keeps ahead and the words of replaced or removed
   * documents when they are over an eighth of the array: the term index calls it when it builds
   * its postings, that is once a collection has settled (a store's open or load), so a settled
   * collection holds its documents' size and no more.
   */
  fit(): void {
    if ((this.words.length - this.used + this.garbage) * 8 > this.words.length) this.compact(0, 1);
  }

  /** Copies the live documents into a new array `slack` times their size plus `extra` words (the replaced and removed ones' words are dropped). */
  private compact(extra: number, slack: number): void {
    const live = this.used - this.garbage;
    const out = new Uint32Array(Math.max(1024, Math.ceil((live + extra) * slack)));
    let w = 0;
    for (const [key, o] of this.docs) {
      const size = this.words[o];
      out.set(this.words.subarray(o, o + size), w);
      this.docs.set(key, w);
      w += size;
    }
    this.words = out;
    this.used = w;
    this.garbage = 0;
  }

  delete(key: K): void {
    const o = this.docs.get(key);
    if (o === undefined) return;
    this.changes++;
    const n = this.fields.length;
    const words = this.words;
    for (let f = 0; f < n; f++) this.totalLength[f] -= words[o + 1 + f];
    for (let at = o + 1 + n, end = o + words[o]; at < end; at = this.next(at)) {
      const id = this.idAt(at);
      this.docFreq[id] = Math.max(0, this.docFreq[id] - 1);
    }
    this.garbage += words[o];
    this.docs.delete(key);
  }

  clear(): void {
    this.changes++;
    this.docs.clear();
    this.words = new Uint32Array(1024);
    this.used = 0;
    this.garbage = 0;
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

/** Where `setMerged` writes a document before it is copied in at its size (grown as needed): it runs once per stored document on every open. */
let mergedScratch = new Uint32Array(4096);

/** The one field holding the wide entry at `at`, or −1 when it is in several (or none). */
function inOneField(packed: Uint32Array, at: number, stride: number): number {
  let field = -1;
  for (let k = 1; k < stride; k++) {
    const word = packed[at + k];
    if (word === 0) continue;
    if (field >= 0 || (word & 0xffff && word >>> 16)) return -1;
    field = 2 * (k - 1) + (word & 0xffff ? 0 : 1);
  }
  return field;
}

/** The wide entry at `at` (its term in field f only) as one word (ONE_WORD), or 0 when its field, count or id does not fit. */
function oneWord(packed: Uint32Array, at: number, f: number): number {
  const id = packed[at];
  const count = (packed[at + 1 + (f >> 1)] >>> (f & 1 ? 16 : 0)) & 0xffff;
  if (f > 7 || count > ONE_COUNT_MAX || id > ONE_ID_MASK) return 0;
  return (ONE_WORD | (f << ONE_FIELD_SHIFT) | (count << ONE_COUNT_SHIFT) | id) >>> 0;
}
