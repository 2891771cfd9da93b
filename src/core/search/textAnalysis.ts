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
  ('a an and are as at be been but by can could do does for from has have how i if in into is it its ' +
    'me my of on or our please should so some than that the their them then there these this those to ' +
    'us was we were what when where which while who will with would you your given using use').split(' '),
);

/** Splits camelCase, PascalCase, snake_case, kebab-case, dotted and digit boundaries. */
export function splitIdentifier(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([a-zA-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0);
}

export interface AnalyzeOptions {
  /** Keep stop words (e.g. when analysing a tool name, where "get" or "by" still matter). */
  keepStopWords?: boolean;
}

/** Text → normalised terms (see module comment). Order is preserved; duplicates are kept. */
export function analyze(text: string, options: AnalyzeOptions = {}): string[] {
  // ASCII text (nearly all tool metadata and most queries): one pass, same result as below.
  if (!NON_ASCII.test(text)) return analyzeAscii(text, options.keepStopWords === true);
  const terms: string[] = [];
  for (const raw of splitIdentifier(text.normalize('NFKD'))) {
    const lower = raw.toLowerCase();
    if (!options.keepStopWords && STOP_WORDS.has(lower)) continue;
    terms.push(stem(lower));
  }
  return terms;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** 0 other, 1 upper, 2 lower, 3 digit. */
function charClass(code: number): number {
  if (code >= 97 && code <= 122) return 2;
  if (code >= 65 && code <= 90) return 1;
  if (code >= 48 && code <= 57) return 3;
  return 0;
}

/**
 * `splitIdentifier` + lower-casing + stop words + stemming in one scan of an ASCII string.
 * Token boundaries are exactly splitIdentifier's: lower/digit→upper, an upper run before
 * upper+lower ("HTTPServer" → HTTP Server), letter↔digit, and any non-alphanumeric.
 */
function analyzeAscii(text: string, keepStopWords: boolean): string[] {
  const terms: string[] = [];
  const n = text.length;
  let start = -1;
  let prev = 0;
  const emit = (end: number) => {
    const lower = text.slice(start, end).toLowerCase();
    if (keepStopWords || !STOP_WORDS.has(lower)) terms.push(stem(lower));
  };
  for (let i = 0; i < n; i++) {
    const cls = charClass(text.charCodeAt(i));
    if (cls === 0) {
      if (start >= 0) emit(i);
      start = -1;
      prev = 0;
      continue;
    }
    if (start >= 0) {
      const boundary =
        (cls === 1 && (prev === 2 || prev === 3)) ||
        (cls === 1 && prev === 1 && i + 1 < n && charClass(text.charCodeAt(i + 1)) === 2) ||
        (cls === 3 && prev !== 3) ||
        (cls !== 3 && prev === 3);
      if (boundary) {
        emit(i);
        start = i;
      }
    } else {
      start = i;
    }
    prev = cls;
  }
  if (start >= 0) emit(n);
  return terms;
}

/**
 * Memoised Porter stemming. Stemming is pure, and catalogs repeat words heavily, so a bounded
 * cache (cleared when full) removes most of the analysis cost of indexing large catalogs.
 */
const STEM_CACHE_LIMIT = 100_000;
const stemCache = new Map<string, string>();
function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = porterStem(word);
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, stemmed);
  }
  return stemmed;
}

/** Distinct terms of `text`, in first-seen order. */
export function uniqueTerms(text: string, options?: AnalyzeOptions): string[] {
  return [...new Set(analyze(text, options))];
}
