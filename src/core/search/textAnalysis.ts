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
  const parts: string[] = [];
  scanWords(text, false, (start, end) => parts.push(text.slice(start, end)));
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

/** Distinct raw words a `TextAnalyzer` remembers by default (≈ 100 bytes each; cleared when full). */
const DEFAULT_MEMO_WORDS = 20_000;

/** One distinct raw word (as written in the text): its stem and whether it is a stop word. */
interface WordAnalysis {
  readonly term: string;
  readonly stop: boolean;
  /** The term's id in the dictionary `analyzeIds` was last given, while its generation was `idGeneration`. */
  id: number;
  idOwner: TermIds | undefined;
  idGeneration: number;
}

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
 * Calls `word` with the bounds of each word of `text`, in one pass: a word is a run of ASCII
 * letters and digits, split where lower/digit meets upper, before the last capital of a run
 * followed by a lower-case letter ("HTTPServer" → HTTP Server), and where letters meet digits.
 * A non-ASCII character separates words; with `stopWhereNfkdDiffers`, one that NFKD would turn
 * into a letter or digit (`decomposesToWord`) ends the scan instead, which then returns false —
 * the words found up to there are then not the words of the normalised text. Any other non-ASCII
 * character separates words in the normalised text too (NFKD never moves an ASCII character or
 * turns a character into nothing), so the words are the same.
 */
function scanWords(text: string, stopWhereNfkdDiffers: boolean, word: (start: number, end: number) => void): boolean {
  const n = text.length;
  let start = -1;
  let prev = OTHER;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code > 127 && stopWhereNfkdDiffers && decomposesToWord(text, i)) return false;
    const cls = code > 127 ? OTHER : ASCII_CLASS[code];
    if (cls === OTHER) {
      if (start >= 0) word(start, i);
      start = -1;
      prev = OTHER;
      continue;
    }
    if (start < 0) {
      start = i;
    } else if (
      (cls === UPPER && (prev === LOWER || prev === DIGIT)) ||
      (cls === UPPER && prev === UPPER && i + 1 < n && ASCII_CLASS[text.charCodeAt(i + 1)] === LOWER) ||
      (cls === DIGIT) !== (prev === DIGIT)
    ) {
      word(start, i);
      start = i;
    }
    prev = cls;
  }
  if (start >= 0) word(start, n);
  return true;
}

/**
 * `analyze` with a memo per distinct raw word (lower-casing, stop-word check and Porter stem
 * done once per word): catalogs repeat their words heavily (BFCL: ≈ 210,000 words, ≈ 8,000
 * distinct), so an index keeps one analyser for its whole life. The memo is bounded
 * (`memoWords`, cleared when full; 0 = no memo) and never changes a result.
 */
export class TextAnalyzer {
  /** Created on first use, so a memo-less analyser (`analyze`, per call) allocates none. */
  private words: Map<string, WordAnalysis> | undefined;
  /** The words of the text being analysed (reused from call to call). */
  private readonly scratch: WordAnalysis[] = [];

  constructor(private readonly memoWords = DEFAULT_MEMO_WORDS) {}

  /** Distinct words remembered now (≤ memoWords). */
  get memoSize(): number {
    return this.words?.size ?? 0;
  }

  analyze(text: string, options: AnalyzeOptions = {}): string[] {
    const words = this.wordsOf(text, options.keepStopWords === true);
    const terms = new Array<string>(words.length);
    for (let i = 0; i < words.length; i++) terms[i] = (words[i] as WordAnalysis).term;
    return terms;
  }

  /**
   * `analyze`'s terms as their ids in `ids`. Each remembered word asks `ids` once per generation,
   * so a store that keeps term ids (skill store) pays one memo lookup per word of its text, not two.
   */
  analyzeIds(text: string, ids: TermIds, options: AnalyzeOptions = {}): Uint32Array {
    const words = this.wordsOf(text, options.keepStopWords === true);
    const out = new Uint32Array(words.length);
    const generation = ids.generation;
    for (let i = 0; i < words.length; i++) {
      const word = words[i] as WordAnalysis;
      if (word.idOwner !== ids || word.idGeneration !== generation) {
        word.id = ids.idOf(word.term);
        word.idOwner = ids;
        word.idGeneration = generation;
      }
      out[i] = word.id;
    }
    return out;
  }

  /** The analysed words of `text`, in order (stop words dropped unless kept), in a scratch list the next call reuses. */
  private wordsOf(text: string, keepStopWords: boolean): WordAnalysis[] {
    const words = this.scratch;
    words.length = 0;
    // Text NFKD leaves alone where words are concerned (nearly all tool metadata and skill text,
    // dashes and emoji included): one scan, same result as below.
    if (this.analyzeUnnormalised(text, keepStopWords, words)) return words;
    words.length = 0;
    for (const raw of splitIdentifier(text.normalize('NFKD'))) this.push(raw, keepStopWords, words);
    return words;
  }

  /**
   * `splitIdentifier` + lower-casing + stop words + stemming in one scan of the text as it is;
   * false (with `terms` partly filled) at the first character NFKD turns into a letter or digit.
   */
  private analyzeUnnormalised(text: string, keepStopWords: boolean, terms: WordAnalysis[]): boolean {
    return scanWords(text, true, (start, end) => this.push(text.slice(start, end), keepStopWords, terms));
  }

  private push(raw: string, keepStopWords: boolean, terms: WordAnalysis[]): void {
    let word = this.words?.get(raw);
    if (word === undefined) {
      const lower = raw.toLowerCase();
      word = { term: porterStem(lower), stop: STOP_WORDS.has(lower), id: 0, idOwner: undefined, idGeneration: 0 };
      if (this.memoWords > 0) {
        this.words ??= new Map();
        if (this.words.size >= this.memoWords) this.words.clear();
        this.words.set(raw, word);
      }
    }
    if (keepStopWords || !word.stop) terms.push(word);
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
