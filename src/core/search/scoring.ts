/**
 * The score contract shared by `tool_search` and `skill_search` (docs/contracts.md#score-contract):
 * scores are in [0, 1], higher is better, comparable only within one response.
 */

export type MatchType = 'exact' | 'regex' | 'fts';

export const EXACT_SCORE = 1.0;

/** Regex tiers: how strongly the pattern matched. */
export const REGEX_SCORES = {
  fullName: 0.95,
  namePrefix: 0.9,
  nameSubstring: 0.85,
  descriptionOrTags: 0.75,
} as const;

/**
 * Maps BM25 relevances (higher = more relevant, ≥ 0) to contract scores.
 *
 * The usual form is `score_raw = 1 / (1 + max(raw, 0))` with `raw` a lower-is-better BM25 cost.
 * SQLite FTS5's `bm25()` returns −relevance, which that formula would flatten to 1 for every
 * row; we therefore take the cost as `1 / relevance`, giving `score_raw = r / (1 + r)`, bounded
 * in [0, 1) and monotone in relevance. Then min-max normalise over the returned candidates
 * (0.5 when all equal) and clamp.
 */
export function normalizeBm25(relevances: readonly number[]): number[] {
  if (relevances.length === 0) return [];
  return minMax(relevances.map(boundedRelevance));
}

/** `r / (1 + r)`: a BM25 relevance on an absolute scale in [0, 1) (before min-max). */
export function boundedRelevance(r: number): number {
  const relevance = Number.isFinite(r) ? Math.max(r, 0) : 0;
  return relevance / (1 + relevance);
}

/** Min-max normalisation into [0, 1] (0.5 when all equal). */
export function minMax(raw: readonly number[]): number[] {
  if (raw.length === 0) return [];
  const max = Math.max(...raw);
  const min = Math.min(...raw);
  if (max === min) return raw.map(() => 0.5);
  return raw.map((value) => clamp01((value - min) / (max - min)));
}

function clamp01(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value));
}

/** Non-negative BM25 IDF (Lucene form), so very common terms never subtract. */
export function bm25Idf(totalDocs: number, docFreq: number): number {
  return Math.log(1 + (totalDocs - docFreq + 0.5) / (docFreq + 0.5));
}
