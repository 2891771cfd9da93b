import { SKILL_FTS_FIELDS } from './skillSearchIndex';
import type { SkillFieldTerms, SkillFtsField } from './skillSearchIndex';

/**
 * How the store keeps each skill's analysed field terms (what the search mirror is rebuilt from
 * on open, without analysing any text again): one shared vocabulary (`skill_vocab`: term id ↔
 * term) and per skill one small blob (`skill_terms`): for each field in SKILL_FTS_FIELDS order,
 * the number of distinct terms, then (term id − previous id, count) pairs, all as unsigned
 * LEB128 varints. Term order inside a field is not kept: BM25F reads counts and lengths only.
 * About 2–3 bytes per distinct term of a skill, against ~7 for the text and several times that
 * for a full-text index of it.
 */

/** More term occurrences than one field of a skill file (at most 1 MiB) can hold: a damaged blob. */
const MAX_FIELD_TERMS = 1 << 20;

export class TermVocabulary {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private pending: Array<[number, string]> = [];

  get size(): number {
    return this.ids.size;
  }

  /** Replaces the vocabulary with stored rows (id, term). */
  load(rows: Iterable<readonly [number, string]>): void {
    this.clear();
    for (const [id, term] of rows) {
      this.ids.set(term, id);
      this.terms[id] = term;
    }
  }

  clear(): void {
    this.ids.clear();
    this.terms.length = 0;
    this.pending = [];
  }

  /** The id of a term, given a new one (to be written, see `takePending`) when it has none. */
  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms[id] = term;
      this.pending.push([id, term]);
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

export function encodeTerms(terms: SkillFieldTerms, vocabulary: TermVocabulary): Uint8Array {
  const out = new ByteWriter();
  for (const field of SKILL_FTS_FIELDS) {
    const list = terms[field];
    // Ids sorted natively, then counted in runs: no per-field maps or comparator sorts.
    const ids = new Uint32Array(list.length);
    for (let i = 0; i < list.length; i++) ids[i] = vocabulary.idOf(list[i] as string);
    ids.sort();
    let distinct = 0;
    for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[i - 1]) distinct++;
    out.varint(distinct);
    let previous = 0;
    for (let i = 0; i < ids.length;) {
      const id = ids[i] as number;
      let end = i + 1;
      while (end < ids.length && ids[end] === id) end++;
      out.varint(id - previous);
      out.varint(end - i);
      previous = id;
      i = end;
    }
  }
  return out.bytes();
}

/** The field terms of a blob (each term repeated by its count); throws on a damaged blob or an unknown term id. */
export function decodeTerms(blob: Uint8Array, vocabulary: TermVocabulary): SkillFieldTerms {
  const reader = new ByteReader(blob);
  const terms = {} as Record<SkillFtsField, string[]>;
  for (const field of SKILL_FTS_FIELDS) {
    const n = reader.varint();
    // Each pair takes at least two bytes: a larger count is damage, not a reason to allocate.
    if (n * 2 > reader.remaining) throw new Error('term blob is truncated');
    // Pairs first, so the field's array is allocated once at its final length.
    const found: string[] = new Array<string>(n);
    const counts = new Uint32Array(n);
    let total = 0;
    let id = 0;
    for (let i = 0; i < n; i++) {
      id += reader.varint();
      const count = reader.varint();
      const term = vocabulary.term(id);
      if (term === undefined || count === 0) throw new Error(`term blob refers to unknown term id ${id}`);
      found[i] = term;
      counts[i] = count;
      total += count;
      // A damaged count must fail here, not allocate (a field holds at most what a 1 MiB file can).
      if (total > MAX_FIELD_TERMS) throw new Error('term blob has an impossible term count');
    }
    const list = new Array<string>(total);
    let at = 0;
    for (let i = 0; i < n; i++) for (let c = 0; c < (counts[i] as number); c++) list[at++] = found[i] as string;
    terms[field] = list;
  }
  if (!reader.done) throw new Error('term blob has trailing bytes');
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

class ByteReader {
  private at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.at === this.bytes.length;
  }

  get remaining(): number {
    return this.bytes.length - this.at;
  }

  varint(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (this.at >= this.bytes.length || shift > 28) throw new Error('term blob is truncated');
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  }
}
