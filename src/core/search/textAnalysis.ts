import { ownedString } from '../platform/ownedText';
import { porterStem } from './porterStemmer';

/**
 * Text analysis shared by the tool index and the skill store: the same function runs at
 * index time and at query time, so both sides agree on what a "term" is.
 *
 * - identifiers are split: `getUserById` → get user by id, `mcp_github_create_issue` →
 *   mcp github create issue, `math.hypot` → math hypot;
 * - lower-cased, non-alphanumerics dropped, English stop words removed;
 * - Porter-stemmed ("searching" → "search").
 */

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could do does for from has have how i if in into is it its ' +
    'me my of on or our please should so some than that the their them then there these this those to ' +
    'us was we were what when where which while who will with would you your given using use ' +
    // What is left of a negation once its contraction ending is gone ("don't" → "don").
    'don doesn didn isn aren wasn weren won wouldn couldn shouldn haven hasn hadn ain'
  ).split(' '),
);

/**
 * Splits camelCase, PascalCase, snake_case, kebab-case, dotted and digit boundaries; every
 * character but an ASCII letter or digit separates words. One linear scan (`scanWords`): the
 * regular expressions it replaces backtracked over a long run of capitals, quadratic in its length.
 */
export function splitIdentifier(text: string): string[] {
  const count = scanWords(text, false);
  const parts = new Array<string>(count);
  for (let w = 0; w < count; w++) parts[w] = text.slice(wordBounds[2 * w] as number, wordBounds[2 * w + 1] as number);
  return parts;
}

export interface AnalyzeOptions {
  /** Keep stop words (e.g. when analysing a tool name, where "get" or "by" still matter). */
  keepStopWords?: boolean;
}

/**
 * Text → normalised terms (see module comment). Order is preserved; duplicates are kept.
 * Memo-less (pure): indexes, which analyse many texts, own a `TextAnalyzer` instead.
 */
export function analyze(text: string, options: AnalyzeOptions = {}): string[] {
  return new TextAnalyzer(0).analyze(text, options);
}

/**
 * Distinct raw words a `TextAnalyzer` remembers by default (≈ 100 bytes each; cleared when full).
 * A real library of 10,000 skills holds ≈ 60,000 distinct words (case variants included): a memo
 * of 20,000 was cleared 17 times in one cold load and asked the vocabulary for 350,000 ids instead
 * of 60,000. The memo grows with the words it holds, so a small catalog pays for what it uses.
 */
const DEFAULT_MEMO_WORDS = 1 << 17;

/** Words a memo has room for before it first grows. */
const FIRST_MEMO_ROOM = 1024;

/** A term dictionary `analyzeIds` gives terms as ids of (the skill store's vocabulary). */
export interface TermIds {
  /** The id of a term, given one when new. */
  idOf(term: string): number;
  /** Changes whenever ids may have been given out anew: an id remembered under another generation is asked again. */
  readonly generation: number;
}

/** Character classes of the ASCII scan: other (separator), upper, lower, digit. */
const OTHER = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const ASCII_CLASS: Readonly<Uint8Array> = buildAsciiClasses();

function buildAsciiClasses(): Uint8Array {
  const classes = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    if (code >= 97 && code <= 122) classes[code] = LOWER;
    else if (code >= 65 && code <= 90) classes[code] = UPPER;
    else if (code >= 48 && code <= 57) classes[code] = DIGIT;
  }
  return classes;
}

/**
 * Whether NFKD turns the character at `i` (a non-ASCII code unit; a surrogate pair is read whole)
 * into text holding an ASCII letter or digit ("é" → "e" + accent, "ﬁ" → "fi", "①" → "1"). Most
 * non-ASCII characters of real text (dashes, quotes, arrows, emoji, CJK) do not: they separate
 * words before and after normalisation alike. Answers are remembered per code point.
 */
function decomposesToWord(text: string, i: number): boolean {
  const point = text.codePointAt(i) as number;
  let kind = point < 65536 ? NON_ASCII_KIND[point] : ASTRAL_KIND.get(point);
  if (!kind) {
    kind = /[A-Za-z0-9]/.test(String.fromCodePoint(point).normalize('NFKD')) ? DECOMPOSES : SEPARATES;
    if (point < 65536) NON_ASCII_KIND[point] = kind;
    else ASTRAL_KIND.set(point, kind);
  }
  return kind === DECOMPOSES;
}
const SEPARATES = 1;
const DECOMPOSES = 2;
/** `decomposesToWord`'s answers: 0 not asked yet, else SEPARATES or DECOMPOSES (per BMP code unit; a map above it). */
const NON_ASCII_KIND = new Uint8Array(65536);
const ASTRAL_KIND = new Map<number, number>();

/**
 * The words the last `scanWords` found: word w is `wordBounds[2w]` up to `wordBounds[2w + 1]`,
 * and `wordHashes[w]` is the FNV-1a hash of its characters (what the word memo is keyed on). One
 * set of buffers, reused by every scan (grown as needed): a scan allocates nothing per word, and a
 * caller reads them before it scans again.
 */
let wordBounds = new Int32Array(2048);
let wordHashes = new Int32Array(1024);

/** Words the buffers keep room for between scans: a longer text gets room for its own words, given back at the next shorter one. */
const KEPT_WORDS = 1 << 16;

/** Room in the word buffers for the words of a text of `n` characters (at most one word per character). */
function sizeWordBuffers(n: number): void {
  const words = Math.max(n, 1024);
  if (wordHashes.length >= words && (wordHashes.length <= KEPT_WORDS || words > KEPT_WORDS)) return;
  let size = 1024;
  while (size < words) size *= 2;
  wordHashes = new Int32Array(size);
  wordBounds = new Int32Array(2 * size);
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * Finds the words of `text` in one pass (see `wordBounds`; returns how many): a word is a run of
 * ASCII letters and digits, split where lower/digit meets upper, before the last capital of a run
 * followed by a lower-case letter ("HTTPServer" → HTTP Server), and where letters meet digits. A
 * non-ASCII character separates words; with `stopWhereNfkdDiffers`, one that NFKD would turn into
 * a letter or digit (`decomposesToWord`) ends the scan instead, which then returns −1 — the words
 * found up to there are not the words of the normalised text. Any other non-ASCII character
 * separates words in the normalised text too (NFKD never moves an ASCII character or turns a
 * character into nothing), so the words are the same.
 */
function scanWords(text: string, stopWhereNfkdDiffers: boolean): number {
  const n = text.length;
  sizeWordBuffers(n);
  const bounds = wordBounds;
  const hashes = wordHashes;
  let count = 0;
  let start = -1;
  let hash = FNV_OFFSET;
  let prev = OTHER;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code > 127 && stopWhereNfkdDiffers && decomposesToWord(text, i)) return -1;
    const cls = code > 127 ? OTHER : (ASCII_CLASS[code] as number);
    if (cls === OTHER) {
      if (start >= 0) {
        bounds[2 * count] = start;
        bounds[2 * count + 1] = i;
        hashes[count++] = hash;
      }
      start = -1;
      prev = OTHER;
      continue;
    }
    if (start < 0) {
      start = i;
      hash = FNV_OFFSET;
    } else if (
      (cls === UPPER && (prev === LOWER || prev === DIGIT)) ||
      (cls === UPPER && prev === UPPER && i + 1 < n && ASCII_CLASS[text.charCodeAt(i + 1)] === LOWER) ||
      (cls === DIGIT) !== (prev === DIGIT)
    ) {
      bounds[2 * count] = start;
      bounds[2 * count + 1] = i;
      hashes[count++] = hash;
      start = i;
      hash = FNV_OFFSET;
    }
    hash = Math.imul(hash ^ code, FNV_PRIME);
    prev = cls;
  }
  if (start >= 0) {
    bounds[2 * count] = start;
    bounds[2 * count + 1] = n;
    hashes[count++] = hash;
  }
  return count;
}

/**
 * `analyze` with a memo per distinct raw word (lower-casing, stop-word check and Porter stem
 * done once per word): catalogs repeat their words heavily (BFCL: ≈ 210,000 words, ≈ 8,000
 * distinct), so an index keeps one analyser for its whole life. The memo is bounded
 * (`memoWords`, cleared when full; 0 = no memo) and never changes a result.
 */
export class TextAnalyzer {
  /** The remembered words; created on first use, so a memo-less analyser (`analyze`, per call) allocates none. */
  private memo: WordMemo | undefined;

  constructor(private readonly memoWords = DEFAULT_MEMO_WORDS) {}

  /** Distinct words remembered now (≤ memoWords). */
  get memoSize(): number {
    return this.memo?.size ?? 0;
  }

  analyze(text: string, options: AnalyzeOptions = {}): string[] {
    const keepStopWords = options.keepStopWords === true;
    const { scanned, count } = scanText(text);
    const terms: string[] = [];
    if (this.memoWords <= 0) {
      for (let w = 0; w < count; w++) {
        const word = analyseWord(scanned.slice(wordBounds[2 * w] as number, wordBounds[2 * w + 1] as number));
        if (keepStopWords || !word.stop) terms.push(word.term);
      }
      return terms;
    }
    const memo = (this.memo ??= new WordMemo(this.memoWords));
    for (let w = 0; w < count; w++) {
      const entry = memo.find(scanned, wordBounds[2 * w] as number, wordBounds[2 * w + 1] as number, wordHashes[w] as number);
      if (keepStopWords || !memo.isStop(entry)) terms.push(memo.term(entry));
    }
    return terms;
  }

  /**
   * `analyze`'s terms as their ids in `ids`. Each remembered word asks `ids` once while `ids` and
   * its generation stay the same, so a store that keeps term ids (skill store) pays one memo
   * lookup per word of its text, not two.
   */
  analyzeIds(text: string, ids: TermIds, options: AnalyzeOptions = {}): Uint32Array {
    if (this.memoWords <= 0) return Uint32Array.from(this.analyze(text, options), (term) => ids.idOf(term));
    const keepStopWords = options.keepStopWords === true;
    const { scanned, count } = scanText(text);
    const memo = (this.memo ??= new WordMemo(this.memoWords));
    memo.idsFrom(ids);
    const out = new Uint32Array(count);
    let k = 0;
    for (let w = 0; w < count; w++) {
      const entry = memo.find(scanned, wordBounds[2 * w] as number, wordBounds[2 * w + 1] as number, wordHashes[w] as number);
      if (keepStopWords || !memo.isStop(entry)) out[k++] = memo.id(entry, ids);
    }
    return k === count ? out : out.subarray(0, k);
  }
}

/**
 * Scans `text` for words (`wordBounds`, `wordHashes`): as it is when NFKD leaves its words alone
 * (nearly all tool metadata and skill text, dashes and emoji included), else its NFKD form.
 */
function scanText(text: string): { scanned: string; count: number } {
  const count = scanWords(text, true);
  if (count >= 0) return { scanned: text, count };
  const normalised = text.normalize('NFKD');
  return { scanned: normalised, count: scanWords(normalised, false) };
}

/** A word's analysis: its term (lower-cased, stemmed) and whether it is a stop word. */
function analyseWord(raw: string): { term: string; stop: boolean } {
  const lower = raw.toLowerCase();
  return { term: porterStem(lower), stop: STOP_WORDS.has(lower) };
}

/**
 * Distinct raw words (as written) and their analyses, in typed arrays: an open-addressing table
 * of word hashes over entries whose characters sit in one character pool, so looking a word up
 * compares the text's own characters (no substring) and follows no object per word. Grown by
 * doubling as words arrive, bounded (`capacity` words, cleared when full).
 */
class WordMemo {
  /** Slot → entry + 1 (0: empty), and the slot's word hash; twice as many slots as `room`. */
  private slots: Int32Array;
  private slotHashes: Int32Array;
  private mask: number;
  private count = 0;
  /** Entries the arrays below hold room for (grown by doubling up to `capacity`). */
  private room: number;
  private starts: Int32Array;
  private lengths: Int32Array;
  private stops: Uint8Array;
  private readonly terms: string[] = [];
  /** Each entry's id in `idOwner` (−1: not asked yet), valid while its generation is `idGeneration`. */
  private ids: Int32Array;
  private idOwner: TermIds | undefined;
  private idGeneration = 0;
  private chars = new Uint16Array(4096);
  private charsUsed = 0;

  constructor(private readonly capacity: number) {
    this.room = Math.min(capacity, FIRST_MEMO_ROOM);
    const size = slotsFor(this.room);
    this.slots = new Int32Array(size);
    this.slotHashes = new Int32Array(size);
    this.mask = size - 1;
    this.starts = new Int32Array(this.room);
    this.lengths = new Int32Array(this.room);
    this.stops = new Uint8Array(this.room);
    this.ids = new Int32Array(this.room);
  }

  get size(): number {
    return this.count;
  }

  term(entry: number): string {
    return this.terms[entry] as string;
  }

  isStop(entry: number): boolean {
    return this.stops[entry] === 1;
  }

  /** Makes `id` answer for `ids` (what it remembered for another dictionary, or another generation of it, is forgotten). */
  idsFrom(ids: TermIds): void {
    if (this.idOwner === ids && this.idGeneration === ids.generation) return;
    this.idOwner = ids;
    this.idGeneration = ids.generation;
    this.ids.fill(-1, 0, this.count);
  }

  /** The entry's id in `ids` (the dictionary last given to `idsFrom`). */
  id(entry: number, ids: TermIds): number {
    let id = this.ids[entry] as number;
    if (id < 0) this.ids[entry] = id = ids.idOf(this.terms[entry] as string);
    return id;
  }

  /** The entry of the word `text` holds from `start` up to `end` (hash `hash`), added when new. */
  find(text: string, start: number, end: number, hash: number): number {
    const length = end - start;
    const { slots, slotHashes, mask, chars } = this;
    let slot = hash & mask;
    for (let held = slots[slot] as number; held !== 0; held = slots[slot] as number) {
      if (slotHashes[slot] === hash && this.lengths[held - 1] === length) {
        const at = this.starts[held - 1] as number;
        let i = 0;
        while (i < length && chars[at + i] === text.charCodeAt(start + i)) i++;
        if (i === length) return held - 1;
      }
      slot = (slot + 1) & mask;
    }
    if (this.count >= this.room) {
      if (this.room < this.capacity) this.grow();
      else this.clear();
      slot = this.freeSlot(hash);
    }
    return this.add(text, start, end, hash, slot);
  }

  private add(text: string, start: number, end: number, hash: number, slot: number): number {
    const length = end - start;
    if (this.charsUsed + length > this.chars.length) {
      const grown = new Uint16Array(Math.max(2 * this.chars.length, this.charsUsed + length));
      grown.set(this.chars.subarray(0, this.charsUsed));
      this.chars = grown;
    }
    const entry = this.count++;
    for (let i = 0; i < length; i++) this.chars[this.charsUsed + i] = text.charCodeAt(start + i);
    this.starts[entry] = this.charsUsed;
    this.lengths[entry] = length;
    this.charsUsed += length;
    const word = analyseWord(text.slice(start, end));
    // Kept for the memo's life (and as a vocabulary's term): a string of its own, not a view into the text.
    this.terms[entry] = ownedString(word.term);
    this.stops[entry] = word.stop ? 1 : 0;
    this.ids[entry] = -1;
    this.slots[slot] = entry + 1;
    this.slotHashes[slot] = hash;
    return entry;
  }

  /** The first empty slot on `hash`'s probe path. */
  private freeSlot(hash: number): number {
    let slot = hash & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    return slot;
  }

  /** Twice the room (at most `capacity`): the entries keep their numbers, the slots are laid out again. */
  private grow(): void {
    const room = Math.min(this.capacity, 2 * this.room);
    const size = slotsFor(room);
    const { slots, slotHashes } = this;
    this.slots = new Int32Array(size);
    this.slotHashes = new Int32Array(size);
    this.mask = size - 1;
    for (let old = 0; old < slots.length; old++) {
      const held = slots[old] as number;
      if (held === 0) continue;
      const slot = this.freeSlot(slotHashes[old] as number);
      this.slots[slot] = held;
      this.slotHashes[slot] = slotHashes[old] as number;
    }
    this.starts = grownInt32(this.starts, room);
    this.lengths = grownInt32(this.lengths, room);
    this.ids = grownInt32(this.ids, room);
    const stops = new Uint8Array(room);
    stops.set(this.stops);
    this.stops = stops;
    this.room = room;
  }

  private clear(): void {
    this.slots.fill(0);
    this.count = 0;
    this.charsUsed = 0;
    this.terms.length = 0;
  }
}

/**
 * A request's English contraction endings (what's, don't, they're, we've, I'll, I'd, I'm)
 * removed before it is weighed: split at the apostrophe they became words of their own, and "s"
 * or "t" is in half of any catalog — "what's up?" matched every tool whose text had an "s"
 * token, at full relevance, since it was the request's only content word. Indexed text is
 * analysed as before (ranking on BFCL moved when the index lost them too).
 */
const CONTRACTION = /([A-Za-z])['\u2019](?:s|t|re|ve|ll|d|m)\b/gi;

export function withoutContractions(text: string): string {
  return text.includes("'") || text.includes('\u2019') ? text.replace(CONTRACTION, '$1') : text;
}

/** Distinct terms of `text`, in first-seen order. */
export function uniqueTerms(text: string, options?: AnalyzeOptions): string[] {
  return [...new Set(analyze(text, options))];
}

/** Slots for a memo of `room` entries: a power of two, at least twice `room` (probes stay short). */
function slotsFor(room: number): number {
  let size = 16;
  while (size < 2 * room) size *= 2;
  return size;
}

function grownInt32(array: Int32Array, length: number): Int32Array {
  const grown = new Int32Array(length);
  grown.set(array);
  return grown;
}
