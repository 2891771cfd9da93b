import { STEM_PREFIX } from './bm25f';
import type { WeightedTerm } from './bm25f';
import type { RelatedTerms, RelationKind } from './relatedTerms';
import { TextAnalyzer, splitIdentifier } from './textAnalysis';
import { TOOL_VOCABULARY, formCues } from './toolVocabulary';

/**
 * Query-side vocabulary bridge for BM25 ranking (nothing changes in the index):
 *
 * - de-compounding: a query word the catalog does not contain is split into two words it does
 *   contain (`copyediting` → `copy` + `edit`, against the catalog's own vocabulary);
 * - stem variants: the Porter stemmer leaves some forms of one word apart (`discovered` →
 *   `discov`, `discoverer` → `discover`, `discovery` → `discoveri`): a query term brings the
 *   catalog's longer or shorter forms of it (one is the other plus ≤ `variantMaxExtra` letters,
 *   sharing ≥ STEM_PREFIX), at `variantWeight`, IDF capped at the user's word;
 * - related words: a query term brings related terms from the WordNet table (synonyms,
 *   derivations, hypernyms) that the catalog contains, at `relatedWeight` (< 1) of a user's word.
 *   By default only terms the catalog lacks are expanded, so an expansion never competes with an
 *   exact match of the user's word (there is none) and never changes the ranking of a query whose
 *   words all occur. When present terms are expanded too, an expansion's IDF is capped at its
 *   source term's: in fields of the same length it scores below the exact word;
 * - tool vocabulary: a user's word brings the words tool descriptions use for the same thing
 *   (`folder` → directory, `post` → message, `remember` → memory, observation; toolVocabulary.ts),
 *   and the request's form brings a few more (a web address → url, page, fetch; `#name` →
 *   channel; a path → file, directory; a pasted SQL statement, a pasted error, a how-to
 *   question), for every query term, at `toolVocabularyWeight`, IDF capped at the user's word's
 *   when the catalog has it; `cues` says which terms the form brought, so the ranker keeps
 *   them at that weight where the user's word for them sits inside a value.
 */

export interface ExpansionOptions {
  /** Weight of a related term relative to the user's word (0 = no expansion). */
  relatedWeight: number;
  relationKinds: readonly RelationKind[];
  /** Related terms kept per query term (the table lists the most frequent senses first). */
  maxRelatedPerTerm: number;
  /** Weight of each part of a de-compounded word (0 = no de-compounding). */
  compoundPartWeight: number;
  /**
   * Expand only query terms the catalog does not contain (df = 0): the bridge then never
   * changes the ranking of a query whose words all occur in the catalog.
   */
  onlyMissingTerms: boolean;
  /** Weight of a stem variant relative to the user's word (0 = none). */
  variantWeight: number;
  /** Letters after the shared prefix that each of the two stems may have. */
  variantMaxExtra: number;
  /**
   * Weight of a term the tool vocabulary (toolVocabulary.ts) or the request's form brings, for
   * every query term, present in the catalog or not (absent: TOOL_VOCABULARY_WEIGHT; 0 = none).
   */
  toolVocabularyWeight?: number;
}

/**
 * Default weight of a tool-vocabulary term relative to the user's word, chosen on the odd ids of
 * the blind requests (bench/data/mcp-catalog; the sweep is in docs/benchmarks.md, "Blind
 * requests"): below it recall fell, at the user's own weight more no-tool requests pre-activated.
 */
const TOOL_VOCABULARY_WEIGHT = 0.9;

/** What the expansion needs to know about the catalog. */
export interface ExpansionVocabulary {
  df(term: string): number;
  idf(term: string): number;
  /** Catalog terms sharing the term's first STEM_PREFIX letters (absent: no stem variants). */
  termsSharingPrefix?(term: string): readonly string[];
}

export interface ExpandedQuery {
  /** The user's terms (weight 1), then de-compounded parts, then stem variants and related terms. */
  terms: WeightedTerm[];
  /** IDF per term, related terms capped at their source term's IDF. */
  idf: Map<string, number>;
  /**
   * Terms the request's form brings (formCues) and the weight each counts at least: a cue the
   * user also wrote inside a value ("error" in a pasted "TypeError: …") keeps the cue's weight
   * when the ranker weighs the words of values down.
   */
  cues: Map<string, number>;
}

const MIN_COMPOUND_CHARS = 6;
const MIN_PART_CHARS = 3;
/**
 * Longer words are not de-compounded. Every split point of a word is analysed (two stems and two
 * look-ups each), so the work grows with the square of its length: a pasted base64 blob or
 * minified line of 100,000 letters took seconds. Real compounds are far shorter (English's
 * longest dictionary word has 45 letters); a longer "word" is data.
 */
export const MAX_COMPOUND_CHARS = 48;

export function expandQuery(
  query: string,
  vocabulary: ExpansionVocabulary,
  related: RelatedTerms | undefined,
  options: ExpansionOptions,
  /** The catalog's analyser (its word memo serves the many words de-compounding tries). */
  analyzer: TextAnalyzer = new TextAnalyzer(0),
): ExpandedQuery {
  const weights = new Map<string, number>();
  const idf = new Map<string, number>();
  const cues = new Map<string, number>();
  const primary: string[] = [];
  /** Expansion sources: the user's terms (also those the catalog lacks), before de-compounding. */
  const sources: string[] = [];
  /** The user's words as written (lower case): the tool vocabulary is keyed by them. */
  const words: string[] = [];
  const addPrimary = (term: string, weight: number) => {
    if (weights.has(term)) return;
    weights.set(term, weight);
    idf.set(term, vocabulary.idf(term));
    primary.push(term);
  };
  // Same tokens as `analyze` (which splits the NFKD form), one word at a time.
  for (const word of splitIdentifier(query.normalize('NFKD'))) {
    const lower = word.toLowerCase();
    if (!words.includes(lower)) words.push(lower);
    const term = analyzer.analyze(lower)[0];
    if (term === undefined) continue; // a stop word
    if (!sources.includes(term)) sources.push(term);
    if (vocabulary.df(term) > 0 || options.compoundPartWeight <= 0) {
      addPrimary(term, 1);
      continue;
    }
    const parts = splitCompound(lower, vocabulary, analyzer);
    if (parts) for (const part of parts) addPrimary(part, options.compoundPartWeight);
    else addPrimary(term, 1);
  }
  if (options.variantWeight > 0 && vocabulary.termsSharingPrefix) {
    for (const source of [...primary]) {
      for (const candidate of stemVariants(source, vocabulary.termsSharingPrefix(source), options.variantMaxExtra)) {
        if (weights.has(candidate)) continue;
        weights.set(candidate, options.variantWeight);
        // Capped at the source's IDF: a variant never outscores the user's own word.
        idf.set(candidate, Math.min(vocabulary.idf(candidate), vocabulary.idf(source)));
      }
    }
  }
  const vocabularyWeight = options.toolVocabularyWeight ?? TOOL_VOCABULARY_WEIGHT;
  if (vocabularyWeight > 0) {
    // Cues are words, analysed like the table's ("directory" is the term `directori`).
    const bridged: Array<{ term: string; source?: string }> = formCues(query).flatMap((cue) => analyzer.analyze(cue).map((term) => ({ term })));
    for (const word of words) {
      const source = analyzer.analyze(word)[0];
      for (const term of TOOL_VOCABULARY.lookup(word)) bridged.push({ term, source });
    }
    for (const { term, source } of bridged) {
      if (vocabulary.df(term) === 0) continue;
      if (source === undefined) cues.set(term, vocabularyWeight);
      if (weights.has(term)) continue;
      weights.set(term, vocabularyWeight);
      // Capped at the user's word's IDF when the catalog has that word: "show" bringing the rarer
      // "list" must not make "list" outweigh what the user actually wrote.
      const sourceIdf = source !== undefined && vocabulary.df(source) > 0 ? vocabulary.idf(source) : Infinity;
      idf.set(term, Math.min(vocabulary.idf(term), sourceIdf));
    }
  }
  if (related && options.relatedWeight > 0 && options.maxRelatedPerTerm > 0) {
    for (const source of sources) {
      const present = vocabulary.df(source) > 0;
      if (present && options.onlyMissingTerms) continue;
      const sourceIdf = present ? vocabulary.idf(source) : Infinity;
      let kept = 0;
      for (const candidate of related.lookup(source, options.relationKinds)) {
        if (kept >= options.maxRelatedPerTerm) break;
        if (weights.has(candidate) || vocabulary.df(candidate) === 0) continue;
        weights.set(candidate, options.relatedWeight);
        idf.set(candidate, Math.min(vocabulary.idf(candidate), sourceIdf));
        kept++;
      }
    }
  }
  return {
    terms: [...weights].map(([term, weight]) => ({ term, weight })),
    idf,
    cues,
  };
}

/**
 * Of `candidates` (terms sharing `term`'s first letters), the longer or shorter forms of the same
 * stem: one is the other plus at most `maxExtra` letters (discov → discover, discoveri). Two
 * stems that merely share a beginning (discov / discount) are not variants.
 */
export function stemVariants(term: string, candidates: readonly string[], maxExtra: number): string[] {
  if (term.length < STEM_PREFIX || !/^[a-z]+$/.test(term)) return [];
  const out: string[] = [];
  for (const candidate of candidates) {
    if (candidate === term || Math.abs(candidate.length - term.length) > maxExtra) continue;
    const [shorter, longer] = candidate.length < term.length ? [candidate, term] : [term, candidate];
    if (shorter.length >= STEM_PREFIX && longer.startsWith(shorter)) out.push(candidate);
  }
  return out;
}

/**
 * `word` (lower case, not in the catalog) as two catalog terms, preferring the most balanced
 * split (`copyediting` → copi + edit); undefined when no split has both parts in the catalog, or
 * when the word is longer than MAX_COMPOUND_CHARS.
 */
export function splitCompound(
  word: string,
  vocabulary: Pick<ExpansionVocabulary, 'df'>,
  analyzer: TextAnalyzer = new TextAnalyzer(0),
): [string, string] | undefined {
  if (word.length < MIN_COMPOUND_CHARS || word.length > MAX_COMPOUND_CHARS || !/^[a-z]+$/.test(word)) return undefined;
  let best: [string, string] | undefined;
  let bestBalance = 0;
  for (let i = MIN_PART_CHARS; i <= word.length - MIN_PART_CHARS; i++) {
    const left = analyzer.analyze(word.slice(0, i));
    const right = analyzer.analyze(word.slice(i));
    if (left.length !== 1 || right.length !== 1) continue;
    if (vocabulary.df(left[0]) === 0 || vocabulary.df(right[0]) === 0) continue;
    const balance = Math.min(i, word.length - i);
    if (balance > bestBalance) {
      best = [left[0], right[0]];
      bestBalance = balance;
    }
  }
  return best;
}
