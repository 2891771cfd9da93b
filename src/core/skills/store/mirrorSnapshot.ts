import { createHash, hash } from 'node:crypto';
import type { ByteStore, Logger } from '../../platform/ports';
import { NO_DOCUMENT } from '../../search/packedDocuments';
import type { TermVocabulary } from '../../search/termStore';
import { metaValue } from '../../sql/persistentDatabase';
import type { StoreDatabaseOptions } from '../../sql/persistentDatabase';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import { fillMirrorInSlices } from './skillRows';
import { SKILL_FIELDS } from './skillSearchIndex';
import type { SkillEntry, SkillSearchIndex } from './skillSearchIndex';
import { SKILL_SCHEMA_VERSION, VOCABULARY_FINGERPRINT_KEY } from './skillStoreSchema';

/**
 * A snapshot of the skill store's search mirror (the store vocabulary, the skill entries and
 * their packed term statistics), kept beside `skills.db` as `skills.db.mirror`: a warm open reads
 * it instead of every row when it is provably the mirror of the database's bytes. Derived data
 * only: deleting it costs only speed. Its format is documented in docs/contracts.md ("The skill
 * store's mirror snapshot").
 */

const MIRROR_SUFFIX = '.mirror';

const MAGIC = 0x534d5354; // "TSMS", little-endian
/** Bumped whenever the layout, or what the mirror derives from a row, changes. */
const FORMAT_VERSION = 1;
/** What else the mirror's meaning depends on: a build that derives it otherwise rejects the file. */
const DERIVATION = `${SKILL_SCHEMA_VERSION}|${SKILL_FIELDS.join(',')}`;
const HEADER_BYTES = 8 + 32;
/** Far above 10,000 real skills' ≈ 15 MB: anything larger is not read. */
const MAX_SNAPSHOT_BYTES = 512 << 20;
const NO_STRING = 0xffffffff;
/** Per entry: doc id, ENTRY_STRINGS string indices, flags. */
const ENTRY_STRINGS = [
  'name',
  'title',
  'trigger',
  'description',
  'tagsText',
  'task_type',
  'origin',
  'pack_name',
  'scope_mode',
  'scope_tenant_id',
  'scope_project_id',
  'status',
] as const;
const ENTRY_WORDS = ENTRY_STRINGS.length + 2;
const ORIGINS = new Set(['pack', 'learned']);
const SCOPES = new Set(['project', 'tenant', 'global']);
const LONE_SURROGATE = /\p{Surrogate}/u;
/** The word sections are in the machine's byte order: a big-endian machine neither writes nor reads a snapshot. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * A skill store's search mirror (its vocabulary and index) with the snapshot file beside the store
 * (`<key>.mirror`): read on a warm open instead of every row when it is provably the mirror of the
 * database's bytes, written after a save that wrote new bytes.
 */
export class SnapshottedMirror {
  private readonly key: string;
  /** The database digest the file was last written for or read from (undefined: it is to be written). */
  private digest: string | undefined;

  private readonly store: ByteStore;
  private readonly logger: Logger;
  private readonly readOnly: boolean;

  /** The mirror of the store opened at `where` (under `defaultKey` unless it names a key). */
  constructor(
    where: StoreDatabaseOptions,
    defaultKey: string,
    readonly index: SkillSearchIndex,
    readonly vocabulary: TermVocabulary,
  ) {
    this.store = where.store;
    this.logger = where.logger;
    this.readOnly = where.readOnly === true;
    this.key = (where.key ?? defaultKey) + MIRROR_SUFFIX;
  }

  /**
   * Fills the mirror for the open of `db`: from the file when `written` (the digest of the bytes
   * opened, when they are the ones last written) names them and the file is their mirror, else from
   * every row (`fillMirrorInSlices`, which throws on damage). Returns the doc ids of rows stored
   * without terms (none from a snapshot).
   */
  async fill(db: SqlDatabase, written: string | undefined): Promise<number[]> {
    this.digest = undefined;
    if (written !== undefined && (await this.read(written, metaValue(db, VOCABULARY_FINGERPRINT_KEY)))) return [];
    return fillMirrorInSlices(this.index, db, this.vocabulary);
  }

  private async read(digest: string, fingerprint: string | undefined): Promise<boolean> {
    let reason: string | undefined;
    try {
      const bytes = await this.store.read(this.key);
      reason = bytes ? restoreMirrorSnapshot(bytes, digest, this.index, this.vocabulary) : 'none saved';
    } catch (error) {
      reason = `unreadable (${messageOf(error)})`;
    }
    if (reason === undefined && fingerprint !== undefined && fingerprint !== this.vocabulary.fingerprint) reason = 'its vocabulary is not the database’s';
    if (reason === undefined) {
      this.digest = digest;
      return true;
    }
    this.index.clear();
    this.vocabulary.clear();
    this.logger.debug(`Skill mirror snapshot "${this.key}" not used (${reason}); the mirror is read from the rows.`);
    return false;
  }

  /**
   * Runs `save` (the store's), then writes the snapshot for the bytes it left on disk
   * (`database.writtenDigest`) when the file does not hold it already — after the database and its
   * digest, so a cut between leaves a file naming other bytes, which the next open passes over —
   * and only when the mirror did not change meanwhile (it would not be those bytes'; the next save
   * writes it). A mirror that cannot be a snapshot removes the file; a failed write only costs the
   * next open the rows' read.
   */
  async saving(database: { readonly writtenDigest: string | undefined }, save: () => Promise<void>): Promise<void> {
    const changes = this.index.changes;
    await save();
    const digest = database.writtenDigest;
    if (digest === undefined || digest === this.digest || this.readOnly || changes !== this.index.changes) return;
    const bytes = encodeMirrorSnapshot(this.index, this.vocabulary, digest);
    this.digest = digest;
    try {
      if (bytes) await this.store.write(this.key, bytes);
      else await this.store.delete(this.key);
    } catch (error) {
      this.digest = undefined;
      this.logger.debug(`Skill mirror snapshot "${this.key}" not written: ${messageOf(error)}`);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The snapshot of `index` and `vocabulary` for the database bytes of `digest`, as the parts of its
 * file in order, or undefined when it cannot be one (a skill without terms, vocabulary ids not yet
 * written, text UTF-8 cannot carry as it is, a doc id over 32 bits): the open then reads the rows.
 */
function encodeMirrorSnapshot(index: SkillSearchIndex, vocabulary: TermVocabulary, digest: string): Uint8Array[] | undefined {
  if (!LITTLE_ENDIAN || vocabulary.unwritten) return undefined;
  const { entries, terms, offsets, words } = index.snapshotOf();
  if (offsets.includes(NO_DOCUMENT)) return undefined;
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const intern = (text: string): number => {
    let id = ids.get(text);
    if (id === undefined) {
      id = strings.length;
      ids.set(text, id);
      strings.push(text);
    }
    return id;
  };
  const entryWords = new Uint32Array(entries.length * ENTRY_WORDS);
  let w = 0;
  for (const entry of entries) {
    if (!Number.isInteger(entry.docId) || entry.docId < 0 || entry.docId > 0xffffffff) return undefined;
    entryWords[w++] = entry.docId;
    for (const field of ENTRY_STRINGS) entryWords[w++] = intern(entry[field]);
    entryWords[w++] = (entry.workspace ? 1 : 0) | (entry.model_invocable ? 2 : 0);
  }
  const vocabularyWords = Uint32Array.from(vocabulary.storedTerms, (term) => (term === undefined ? NO_STRING : intern(term)));
  const dictionaryWords = Uint32Array.from(terms, intern);
  asciiFirst(strings, [vocabularyWords, dictionaryWords], entryWords);
  const text = strings.join('');
  if (LONE_SURROGATE.test(text)) return undefined;
  const ends = new Uint32Array(strings.length);
  let end = 0;
  strings.forEach((s, i) => (ends[i] = end += s.length));
  const encoder = new TextEncoder();
  const sections = [
    encoder.encode(DERIVATION),
    encoder.encode(digest),
    encoder.encode(text),
    ends,
    vocabularyWords,
    dictionaryWords,
    entryWords,
    offsets,
    words,
  ].map((s) => new Uint8Array(s.buffer, s.byteOffset, s.byteLength));
  const size = HEADER_BYTES + sections.reduce((sum, s) => sum + 4 + padded(s.byteLength), 0);
  if (size > MAX_SNAPSHOT_BYTES) return undefined;
  // The file is written as these parts, never joined: one array of them all was a second copy of
  // the snapshot (≈ 14 MB at 10,000 real skills) held at every whole save.
  const header = new Uint8Array(HEADER_BYTES);
  const view = new DataView(header.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT_VERSION, true);
  const parts: Uint8Array[] = [header];
  const sum = createHash('sha256');
  for (const section of sections) {
    const framing = new Uint8Array(4);
    new DataView(framing.buffer).setUint32(0, section.byteLength, true);
    const padding = new Uint8Array(padded(section.byteLength) - section.byteLength);
    for (const part of [framing, section, padding]) {
      sum.update(part);
      if (part.byteLength > 0) parts.push(part);
    }
  }
  header.set(sum.digest(), 8);
  return parts;
}

/**
 * Fills `index` and `vocabulary` from a snapshot when it is the mirror of the database bytes of
 * `digest`; returns why not otherwise (the caller then builds the mirror from the rows, which
 * replaces whatever this left). Every check comes before what it guards: the size before any
 * read, the checksum before any section is trusted, each section's length against the bytes left,
 * every index into the string table and every document's layout (PackedDocuments.restore).
 */
function restoreMirrorSnapshot(bytes: Uint8Array, digest: string, index: SkillSearchIndex, vocabulary: TermVocabulary): string | undefined {
  if (!LITTLE_ENDIAN) return 'this machine is big-endian';
  if (bytes.byteLength > MAX_SNAPSHOT_BYTES) return 'too large';
  if (bytes.byteLength < HEADER_BYTES) return 'too short';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) return 'not a mirror snapshot';
  if (view.getUint32(4, true) !== FORMAT_VERSION) return `format version ${view.getUint32(4, true)}, not ${FORMAT_VERSION}`;
  const sum = checksum(bytes.subarray(HEADER_BYTES));
  for (let i = 0; i < 32; i++) if (sum[i] !== bytes[8 + i]) return 'checksum differs';
  const sections: Uint8Array[] = [];
  let at = HEADER_BYTES;
  while (at < bytes.byteLength) {
    if (at + 4 > bytes.byteLength) return 'cut';
    const length = view.getUint32(at, true);
    if (length > bytes.byteLength - at - 4) return 'a section runs past the end';
    sections.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + padded(length);
  }
  if (sections.length !== 9) return `${sections.length} sections, not 9`;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const [derivation, recorded, textBytes] = sections;
  if (decoder.decode(derivation) !== DERIVATION) return 'built by a build that derives the mirror otherwise';
  if (decoder.decode(recorded) !== digest) return 'built from other database bytes';
  const [ends, vocabularyWords, dictionaryWords, entryWords, offsets, words] = sections.slice(3).map(wordsOf);
  if (!ends || !vocabularyWords || !dictionaryWords || !entryWords || !offsets || !words) return 'a section is not whole words';
  const [head, tail] = stringTable(textBytes, (piece) => decoder.decode(piece));
  const length = head.length + tail.length;
  const strings: string[] = new Array<string>(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i];
    if (end < start || end > length) return 'the string table is damaged';
    // Sliced from its piece (a string across the cut joins two slices): a slice of the joined text would make it two bytes a character.
    strings[i] =
      end <= head.length
        ? head.slice(start, end)
        : start >= head.length
          ? tail.slice(start - head.length, end - head.length)
          : head.slice(start) + tail.slice(0, end - head.length);
    start = end;
  }
  if (start !== length) return 'the string table is damaged';
  const stringAt = (i: number): string => {
    const s = strings[i];
    if (s === undefined) throw new Error(`string ${i} is not in the table`);
    return s;
  };
  if (entryWords.length % ENTRY_WORDS !== 0 || offsets.length !== entryWords.length / ENTRY_WORDS) return 'the entries are damaged';
  try {
    const entries: SkillEntry[] = [];
    for (let w = 0; w < entryWords.length; w += ENTRY_WORDS) {
      const s = (k: number): string => stringAt(entryWords[w + 1 + k]);
      const flags = entryWords[w + ENTRY_WORDS - 1];
      const entry: SkillEntry = {
        docId: entryWords[w],
        name: s(0),
        title: s(1),
        trigger: s(2),
        description: s(3),
        tagsText: s(4),
        task_type: s(5) as SkillEntry['task_type'],
        origin: s(6) as SkillEntry['origin'],
        pack_name: s(7),
        scope_mode: s(8) as SkillEntry['scope_mode'],
        scope_tenant_id: s(9),
        scope_project_id: s(10),
        status: s(11),
        workspace: (flags & 1) === 1,
        model_invocable: (flags & 2) === 2,
      };
      if (!entry.name || !SCOPES.has(entry.scope_mode) || !ORIGINS.has(entry.origin) || flags > 3) throw new Error(`skill ${entry.docId} is damaged`);
      entries.push(entry);
    }
    const dictionary = Array.from(dictionaryWords, stringAt);
    vocabulary.clear();
    for (let id = 0; id < vocabularyWords.length; id++) if (vocabularyWords[id] !== NO_STRING) vocabulary.addStored(id, stringAt(vocabularyWords[id]));
    // The words are kept by the statistics: a copy, so the file's bytes can go.
    index.restore(entries, dictionary, offsets, words.slice());
  } catch (error) {
    index.clear();
    vocabulary.clear();
    return error instanceof Error ? error.message : String(error);
  }
  return undefined;
}

/** A character outside ASCII: Node 24's decoder (the extension host's) makes a string holding one two bytes a character, even within Latin-1. */
const NOT_ASCII = /[^\u0000-\u007f]/;

/**
 * Reorders `strings` so the ASCII-only ones come first, and renumbers the indices to them in
 * `lists` (where not NO_STRING) and in `entryWords`' string slots: the reader decodes the table in
 * two pieces at the first other character (`stringTable`), and V8 keeps the first piece one byte a
 * character. Read as one piece, the 2.7 MB table of 10,000 real skills was kept two bytes a
 * character (5.5 MB) for the 1,051 strings (of 52,549) with an accent, an emoji or a CJK word.
 */
function asciiFirst(strings: string[], lists: readonly Uint32Array[], entryWords: Uint32Array): void {
  const ascii: number[] = [];
  const other: number[] = [];
  strings.forEach((text, i) => (NOT_ASCII.test(text) ? other : ascii).push(i));
  if (other.length === 0) return;
  const order = ascii.concat(other);
  const renumbered = new Uint32Array(strings.length);
  order.forEach((from, to) => (renumbered[from] = to));
  const reordered = order.map((i) => strings[i]!);
  // A loop, not `splice(0, n, ...reordered)`: a spread of tens of thousands of strings can overflow the call stack.
  reordered.forEach((text, i) => (strings[i] = text));
  for (const list of lists) for (let i = 0; i < list.length; i++) if (list[i] !== NO_STRING) list[i] = renumbered[list[i]!]!;
  for (let w = 0; w < entryWords.length; w += ENTRY_WORDS) for (let k = 1; k <= ENTRY_STRINGS.length; k++) entryWords[w + k] = renumbered[entryWords[w + k]!]!;
}

/**
 * The string table's text in two pieces, cut at its first byte outside ASCII (a UTF-8 lead byte
 * where the text is valid), so the first piece — every string before it, as `asciiFirst` orders
 * them — is kept one byte a character. Joined, the same text as one decode.
 */
function stringTable(bytes: Uint8Array, decode: (bytes: Uint8Array) => string): [string, string] {
  let cut = 0;
  while (cut < bytes.length && bytes[cut]! < 0x80) cut++;
  if (cut === 0 || cut === bytes.length) return [decode(bytes), ''];
  // The second piece begins mid-text: a byte-order mark there is a character, not a mark to drop.
  return [decode(bytes.subarray(0, cut)), new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(cut))];
}

function padded(length: number): number {
  return (length + 3) & ~3;
}

function checksum(bytes: Uint8Array): Uint8Array {
  return hash('sha256', bytes, 'buffer');
}

/** A section as 32-bit words: a view where the bytes are aligned, else a copy; undefined when it is not whole words. */
function wordsOf(section: Uint8Array): Uint32Array | undefined {
  if (section.byteLength % 4 !== 0) return undefined;
  if (section.byteOffset % 4 === 0) return new Uint32Array(section.buffer, section.byteOffset, section.byteLength / 4);
  return new Uint32Array(section.slice().buffer);
}
