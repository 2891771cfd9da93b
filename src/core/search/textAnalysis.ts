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
  const terms: string[] = [];
  for (const raw of splitIdentifier(text.normalize('NFKD'))) {
    const lower = raw.toLowerCase();
    if (!options.keepStopWords && STOP_WORDS.has(lower)) continue;
    terms.push(stem(lower));
  }
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
