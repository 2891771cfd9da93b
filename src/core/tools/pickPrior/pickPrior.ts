/**
 * A small, bounded prior from past picks: a tool that the model called — and that
 * worked — after a `tool_search` for similar words is lifted a little for a new query. Pure
 * functions over plain records; the log lives in toolPickLog.ts.
 *
 * - bounded: the lift is below MAX_PRIOR (0.1 of the normalised [0, 1] score), whatever the log;
 * - fading: each pick counts 0.5^(age / 30 days);
 * - similar queries only: Jaccard overlap of analysed query terms, below MIN_SIMILARITY ignored;
 * - failures never lift (they add nothing);
 * - reorders only: it applies to tools the search already returned for this request (so it
 *   can never surface a tool the run may not see).
 */

export const MAX_PRIOR = 0.1;
export const HALF_LIFE_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Tuned on BFCL's tuning half only (sha1(id) first byte even; click log from one half of it,
 * measured on the other): 0.1–0.25 all gave R@1 +0.002, R@5 +0.004 there, 0.3 and up less;
 * the middle of that plateau is kept. The held-out half is only used by `npm run bench`.
 */
const MIN_SIMILARITY = 0.25;

export interface PickRecord {
  /** Analysed, redacted query terms of the search the pick followed. */
  terms: readonly string[];
  tool: string;
  succeeded: boolean;
  at: number;
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const left = new Set(a);
  const right = new Set(b);
  let shared = 0;
  for (const term of left) if (right.has(term)) shared++;
  return shared / (left.size + right.size - shared);
}

export function decay(ageMs: number): number {
  return Math.pow(0.5, Math.max(0, ageMs) / HALF_LIFE_MS);
}

/** tool → lift in [0, MAX_PRIOR), from the picks relevant to `queryTerms` at time `now`. */
export function pickPriors(queryTerms: readonly string[], picks: readonly PickRecord[], now: number, minSimilarity = MIN_SIMILARITY): Map<string, number> {
  const evidence = new Map<string, number>();
  for (const pick of picks) {
    if (!pick.succeeded) continue;
    const similarity = jaccard(queryTerms, pick.terms);
    if (similarity < minSimilarity) continue;
    const weight = similarity * decay(now - pick.at);
    if (!(weight > 0)) continue;
    evidence.set(pick.tool, (evidence.get(pick.tool) ?? 0) + weight);
  }
  const priors = new Map<string, number>();
  for (const [tool, weight] of evidence) priors.set(tool, MAX_PRIOR * (1 - Math.exp(-weight)));
  return priors;
}

export interface ScoredHit {
  name: string;
  score: number;
}

/**
 * Adds each hit's prior to its score and re-sorts by the new score (reported capped at 1); ties keep
 * the ranker's order. Hits keep their identity; nothing is added or removed.
 */
export function applyPickPrior<T extends ScoredHit>(hits: readonly T[], priors: ReadonlyMap<string, number>): T[] {
  if (priors.size === 0) return [...hits];
  return (
    hits
      .map((hit, index) => ({ hit, index, lifted: hit.score + Math.min(MAX_PRIOR, Math.max(0, priors.get(hit.name) ?? 0)) }))
      // Sorted on the uncapped sum, so a lift also separates ties at the top; reported capped at 1.
      .sort((a, b) => b.lifted - a.lifted || a.index - b.index)
      .map(({ hit, lifted }) => ({ ...hit, score: Math.min(1, lifted) }))
  );
}
