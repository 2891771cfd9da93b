import { MAX_FREQUENCY, packCounted, packMerged } from './countedFields';
import type { CountedFields, MergedDocument } from './countedFields';
import type { TermIds } from './textAnalysis';

/**
 * The one term store of Toolshed's search indexes (the skill store and the tool index): how a
 * database keeps each document's analysed field terms, so the in-memory search statistics are
 * rebuilt on open without analysing any text again. One shared vocabulary per database (a table
 * of term id ↔ term, with a fingerprint in its key/value table) and per document one small blob:
 * for each field in the index's field order, the number of distinct terms, then (term id −
 * previous id, count) pairs, all as unsigned LEB128 varints. Term order inside a field is not
 * kept: BM25F reads counts and lengths only. About 2–3 bytes per distinct term of a document,
 * against ~7 for the text and several times that for a full-text index of it. No SQL full-text
 * engine is involved: ranked search runs over the statistics (bm25f.ts, impactPostings.ts).
 *
 * The vocabulary's fingerprint is the XOR of every row's hash, so a term whose bytes changed on
 * disk (it would silently rename a term of every document using it) fails the check on open and
 * the store is rebuilt.
 */

/** More term occurrences than one field of a document (at most 1 MiB of text) can hold: a damaged blob. */
const MAX_FIELD_TERMS = 1 << 20;

/** One vocabulary row's share of the fingerprint: 32-bit FNV-1a over its id and term. */
function rowHash(id: number, term: string): number {
  let hash = 0x811c9dc5;
  for (let shift = 0; shift < 32; shift += 8) hash = Math.imul(hash ^ ((id >>> shift) & 0xff), 0x01000193);
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export class TermVocabulary implements TermIds {
  private readonly ids = new Map<string, number>();
  private print = 0;
  private readonly terms: string[] = [];
  private pending: Array<[number, string]> = [];
  /** This vocabulary's ids → a search dictionary's (see `relabel`), filled in id order up to `linkedCount`. */
  private linked = new Uint32Array(0);
  private linkedCount = 0;
  private idsGiven = 0;

  get size(): number {
    return this.ids.size;
  }

  /** Replaces the vocabulary with stored rows (id, term). */
  load(rows: Iterable<readonly [number, string]>): void {
    this.clear();
    for (const [id, term] of rows) this.addStored(id, term);
  }

  /** Adds one stored row (id, term) to a vocabulary being loaded (after `clear`): what `load` does per row, for a caller that reads the rows in slices. */
  addStored(id: number, term: string): void {
    this.ids.set(term, id);
    this.terms[id] = term;
    this.print = (this.print ^ rowHash(id, term)) >>> 0;
  }

  /** Every term by its id (a gap where an id has none): what a snapshot of the store's mirror keeps (skills/store/mirrorSnapshot.ts). */
  get storedTerms(): ReadonlyArray<string | undefined> {
    return this.terms;
  }

  /** Whether terms were given ids that are not written yet (see `takePending`). */
  get unwritten(): boolean {
    return this.pending.length > 0;
  }

  /** The XOR of every row's hash (VOCABULARY_FINGERPRINT_KEY), as a decimal string. */
  get fingerprint(): string {
    return String(this.print >>> 0);
  }

  clear(): void {
    this.print = 0;
    this.ids.clear();
    this.terms.length = 0;
    this.pending = [];
    this.linkedCount = 0;
    this.idsGiven++;
  }

  /** Changes whenever the ids are replaced (clear, load): what an analyser's remembered ids are checked against (TermIds). */
  get generation(): number {
    return this.idsGiven;
  }

  /**
   * Counted terms of this vocabulary's ids, rewritten in place with the ids `intern` gives their
   * terms (always the same function: the store's search index dictionary, FieldStats.internTerm).
   * Terms are interned in this vocabulary's id order, so a field's ascending ids stay ascending
   * and the index merges them without sorting. Each id is looked up by name once per vocabulary.
   */
  relabel(counted: CountedFields, intern: (term: string) => number): CountedFields {
    const ids = counted.ids;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if (id >= this.linkedCount) this.link(id, intern);
      ids[i] = this.linked[id] as number;
    }
    return counted;
  }

  /**
   * A stored blob (`encodeCounted`) as the packed document the search statistics keep
   * (countedFields.ts), ids relabelled with `intern` as `relabel` does: the document and the errors
   * `packCounted(relabel(decodeCounted(…)))` gives, in one decoding pass. The short fields' entries
   * are sorted as they are gathered into the packed order, and the last field (a skill's body,
   * nearly always the longest) is merged with them. A blob whose ids do not relabel in order
   * (after a rollback's reload into a dictionary that already holds terms; an id repeated) goes
   * the long way. The document is a view of scratch memory that the next pack overwrites (see
   * `packMerged`).
   */
  packStored(blob: Uint8Array, fieldCount: number, intern: (term: string) => number): Uint32Array {
    const merged = fieldCount > 0 ? this.mergeInOrder(blob, fieldCount, intern) : undefined;
    if (!merged) return packCounted(this.relabel(decodeCounted(blob, this, fieldCount), intern));
    return packMerged(merged.ids, merged.counts, 0, merged.end, merged.field, merged.rest, merged.r, merged.lengths, fieldCount);
  }

  /**
   * `packStored`'s document handed to `target` under `key`, which writes it straight into its
   * compact form (PackedDocuments.setMerged: no wide document in between) — what a store's open
   * runs once per stored document. The same document, and the same errors, as
   * `target.setPacked(key, packStored(…))`.
   */
  storeInto<K>(blob: Uint8Array, fieldCount: number, intern: (term: string) => number, target: StoredDocumentTarget<K>, key: K): void {
    const merged = fieldCount > 0 ? this.mergeInOrder(blob, fieldCount, intern) : undefined;
    if (merged) target.setMerged(key, merged);
    else target.setPacked(key, packCounted(this.relabel(decodeCounted(blob, this, fieldCount), intern)));
  }

  /** The one decoding pass of `packStored`, as scratch (`merging`, overwritten by the next call); undefined when the ids do not come in order (see there). */
  private mergeInOrder(blob: Uint8Array, n: number, intern: (term: string) => number): MergedDocument | undefined {
    const length = blob.length;
    roomToDecode(length);
    const ids = decodedIds;
    const counts = decodedCounts;
    const rest = restEntries;
    if (fieldLengths.length < n) fieldLengths = new Uint32Array(n);
    const lengths = fieldLengths.fill(0, 0, n);
    const last = n - 1;
    let at = 0;
    let r = 0;
    let out = 0;
    for (let f = 0; f < n; f++) {
      const pairs = varint(blob, at);
      at = cursor;
      if (pairs * 2 > length - at) throw new Error('term blob is truncated');
      let total = 0;
      let id = 0;
      let previous = -1;
      for (let i = 0; i < pairs; i++) {
        const delta = varint(blob, at);
        const count = varint(blob, cursor);
        at = cursor;
        id += delta;
        if (count === 0 || this.terms[id] === undefined) throw new Error(`term blob refers to unknown term id ${id}`);
        total += count;
        if (total > MAX_FIELD_TERMS) throw new Error('term blob has an impossible term count');
        if (id >= this.linkedCount) this.link(id, intern);
        const mapped = this.linked[id] as number;
        // Not strictly ascending: the long way sorts the run and adds a repeated id's counts.
        if (mapped <= previous) return undefined;
        previous = mapped;
        if (f === last) {
          ids[out] = mapped;
          counts[out++] = count;
        } else {
          // The short fields' entries as packCounted orders them: (id × fields + field) × 2^16 + capped count.
          rest[r++] = (mapped * n + f) * 0x10000 + Math.min(count, MAX_FREQUENCY);
        }
      }
      lengths[f] = total;
    }
    if (at !== length) throw new Error('term blob has trailing bytes');
    rest.subarray(0, r).sort();
    merging.ids = ids;
    merging.counts = counts;
    merging.end = out;
    merging.field = last;
    merging.rest = rest;
    merging.r = r;
    merging.lengths = lengths;
    return merging;
  }

  private link(upTo: number, intern: (term: string) => number): void {
    if (upTo >= this.linked.length) {
      const grown = new Uint32Array(Math.max(upTo + 1, this.linked.length * 2, 1024));
      grown.set(this.linked.subarray(0, this.linkedCount));
      this.linked = grown;
    }
    for (; this.linkedCount <= upTo; this.linkedCount++) {
      const term = this.terms[this.linkedCount];
      // A gap in the ids (no blob refers to it: decoding checks every id) links to no term.
      this.linked[this.linkedCount] = term === undefined ? 0xffffffff : intern(term);
    }
  }

  /** The id of a term, given a new one (to be written, see `takePending`) when it has none. */
  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms[id] = term;
      this.pending.push([id, term]);
      this.print ^= rowHash(id, term);
    }
    return id;
  }

  term(id: number): string | undefined {
    return this.terms[id];
  }

  /** Terms given ids since the last call: the rows to insert with the skills that use them. */
  takePending(): Array<[number, string]> {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}

/** Search statistics a stored document goes into (PackedDocuments' `setMerged`, or `setPacked` for one that took the long way). */
export interface StoredDocumentTarget<K> {
  setMerged(key: K, merged: MergedDocument): void;
  setPacked(key: K, packed: Uint32Array): void;
}

/** A document's field terms counted with this vocabulary's ids (new terms get ids: see `takePending`). */
function countTerms<F extends string>(terms: Readonly<Record<F, readonly string[]>>, fields: readonly F[], vocabulary: TermVocabulary): CountedFields {
  return countIds(fields.map((field) => Uint32Array.from(terms[field], (term) => vocabulary.idOf(term))));
}

/**
 * Per term id, its occurrences in the field being counted (`countIds`), zero between fields: a
 * count per id instead of sorting every occurrence — a skill's body repeats most of its words, so
 * only its distinct ids are sorted. Grown to the largest id seen: the ids are a vocabulary's, handed
 * out densely from 0 (tens of thousands at 10,000 real skills: a few hundred KB kept).
 */
let idCounts = new Uint32Array(1 << 16);
/** A field's distinct ids in first-seen order (`countIds`), reused the same way. */
let distinctIds = new Uint32Array(4096);

/** Each field's term ids (one per occurrence, in the index's field order) counted: ids ascending within each field. */
export function countIds(fields: readonly Uint32Array[]): CountedFields {
  let total = 0;
  let largest = 0;
  for (const occurrences of fields) {
    total += occurrences.length;
    for (let i = 0; i < occurrences.length; i++) if ((occurrences[i] as number) > largest) largest = occurrences[i] as number;
  }
  if (largest >= idCounts.length) idCounts = new Uint32Array(Math.max(2 * idCounts.length, largest + 1));
  if (total > distinctIds.length) distinctIds = new Uint32Array(Math.max(2 * distinctIds.length, total));
  const seen = idCounts;
  const ids = new Uint32Array(total);
  const counts = new Uint32Array(total);
  const fieldEnds = new Uint32Array(fields.length);
  let out = 0;
  for (let f = 0; f < fields.length; f++) {
    const occurrences = fields[f] as Uint32Array;
    let distinct = 0;
    for (let i = 0; i < occurrences.length; i++) {
      const id = occurrences[i] as number;
      if (seen[id]++ === 0) distinctIds[distinct++] = id;
    }
    const sorted = distinctIds.subarray(0, distinct).sort();
    for (let i = 0; i < distinct; i++) {
      const id = sorted[i] as number;
      ids[out] = id;
      counts[out++] = seen[id] as number;
      seen[id] = 0;
    }
    fieldEnds[f] = out;
  }
  return { ids: ids.slice(0, out), counts: counts.slice(0, out), fieldEnds };
}

/** The stored blob of counted terms (this vocabulary's ids, ascending within each field). */
export function encodeCounted(counted: CountedFields): Uint8Array {
  const out = new ByteWriter();
  let at = 0;
  for (const end of counted.fieldEnds) {
    out.varint(end - at);
    let previous = 0;
    for (; at < end; at++) {
      const id = counted.ids[at] as number;
      out.varint(id - previous);
      out.varint(counted.counts[at] as number);
      previous = id;
    }
  }
  return out.bytes();
}

export function encodeTerms<F extends string>(terms: Readonly<Record<F, readonly string[]>>, fields: readonly F[], vocabulary: TermVocabulary): Uint8Array {
  return encodeCounted(countTerms(terms, fields, vocabulary));
}

/** Where `decodeCounted` and `packStored` decode to (grown as needed): they run once per stored document on every start. */
let decodedIds = new Uint32Array(2048);
let decodedCounts = new Uint32Array(2048);
let restEntries = new Float64Array(2048);
let fieldLengths = new Uint32Array(8);
/** `mergeInOrder`'s document (views of the arrays above), reused the same way. */
const merging: MergedDocument = { ids: decodedIds, counts: decodedCounts, end: 0, field: 0, rest: restEntries, r: 0, lengths: fieldLengths };
/** Where the last varint read (`varint`) ended. */
let cursor = 0;

/** Grows the decoding arrays for a blob of `length` bytes: each pair takes at least two bytes, so no blob holds more than half its length. */
function roomToDecode(length: number): void {
  if (decodedIds.length >= length >> 1) return;
  decodedIds = new Uint32Array(length);
  decodedCounts = new Uint32Array(length);
  restEntries = new Float64Array(length);
}

/**
 * The counted terms of a blob (this vocabulary's ids); throws on a damaged blob or an unknown
 * term id — what the check on open relies on to rebuild a damaged store. The arrays are reused
 * by the next call: use (or copy) them before decoding another blob.
 */
export function decodeCounted(blob: Uint8Array, vocabulary: TermVocabulary, fieldCount: number): CountedFields {
  const length = blob.length;
  roomToDecode(length);
  const ids = decodedIds;
  const counts = decodedCounts;
  const fieldEnds = new Uint32Array(fieldCount);
  let at = 0;
  let out = 0;
  for (let f = 0; f < fieldCount; f++) {
    const n = varint(blob, at);
    at = cursor;
    if (n * 2 > length - at) throw new Error('term blob is truncated');
    let total = 0;
    let id = 0;
    for (let i = 0; i < n; i++) {
      const delta = varint(blob, at);
      at = cursor;
      const count = varint(blob, at);
      at = cursor;
      id += delta;
      if (count === 0 || vocabulary.term(id) === undefined) throw new Error(`term blob refers to unknown term id ${id}`);
      total += count;
      // A damaged count must fail here, not allocate (a field holds at most what a 1 MiB file can).
      if (total > MAX_FIELD_TERMS) throw new Error('term blob has an impossible term count');
      ids[out] = id;
      counts[out++] = count;
    }
    fieldEnds[f] = out;
  }
  if (at !== length) throw new Error('term blob has trailing bytes');
  return { ids: ids.subarray(0, out), counts: counts.subarray(0, out), fieldEnds };
}

/** The unsigned LEB128 varint at `at` (its end left in `cursor`): one or two bytes (nearly all counts and id deltas) on a path small enough to inline. */
function varint(blob: Uint8Array, at: number): number {
  const first = blob[at] as number;
  if (first < 0x80 && at < blob.length) {
    cursor = at + 1;
    return first;
  }
  const second = blob[at + 1] as number;
  if (second < 0x80 && at + 1 < blob.length) {
    cursor = at + 2;
    return (first & 0x7f) | (second << 7);
  }
  return varintAt(blob, at);
}

/** An unsigned LEB128 varint of at most five bytes at `at`; its end is left in `cursor`. */
function varintAt(blob: Uint8Array, at: number): number {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    if (at >= blob.length || shift > 28) throw new Error('term blob is truncated');
    const byte = blob[at++] as number;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) {
      cursor = at;
      return value;
    }
  }
}

/** The field terms of a blob (each term repeated by its count); throws on a damaged blob or an unknown term id. */
export function decodeTerms<F extends string>(blob: Uint8Array, vocabulary: TermVocabulary, fields: readonly F[]): Record<F, string[]> {
  const counted = decodeCounted(blob, vocabulary, fields.length);
  const terms = {} as Record<F, string[]>;
  let at = 0;
  fields.forEach((field, f) => {
    const list: string[] = [];
    for (const end = counted.fieldEnds[f] as number; at < end; at++) {
      const term = vocabulary.term(counted.ids[at] as number) as string;
      for (let c = 0; c < (counted.counts[at] as number); c++) list.push(term);
    }
    terms[field] = list;
  });
  return terms;
}

class ByteWriter {
  private buffer = new Uint8Array(256);
  private length = 0;

  varint(value: number): void {
    if (this.length + 5 > this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    let v = value >>> 0;
    while (v >= 0x80) {
      this.buffer[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buffer[this.length++] = v;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}
