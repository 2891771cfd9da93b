/**
 * When `hybrid` selection asks a model at all. A selection request costs a model round trip
 * (and, with premium models, quota) before anything visible happens, so it is made only when it
 * can change the outcome:
 *
 * - the best candidate that passed the gate (`toolshed.skills.minRelevance`) is still below
 *   `toolshed.skills.askModelBelowRelevance`: lexical evidence alone cannot tell whether it
 *   applies ("start the local development server" shares four words with an MCP-server skill),
 *   so the model confirms it or picks none; or
 * - more candidates passed than there are free slots, and the one the search order would drop is
 *   close in absolute relevance to the best, so the search order cannot be trusted to keep the
 *   right ones.
 *
 * Otherwise — nothing passed the gate, or a confident match with no close rival beyond the
 * slots — the search answer is used without a model request.
 */

/**
 * How far below the best candidate the first dropped one must be for the search order to stand
 * (absolute relevance is a share of the request's IDF mass: 0.15 is roughly one rare word of a
 * seven-word request; checked on the skills relevance set, bench/skillRelevanceBench.ts).
 */
const CLOSE_MARGIN = 0.15;

export interface RelevanceOf {
  /** Absolute relevance in [0, 1]; absent = unknown (treated as fully relevant). */
  relevance?: number;
}

export interface HybridThresholds {
  /** Below this the best candidate is confirmed by the model (`toolshed.skills.askModelBelowRelevance`). */
  confident: number;
  margin?: number;
}

export function hybridNeedsModel(open: readonly RelevanceOf[], slots: number, thresholds: HybridThresholds): boolean {
  if (slots <= 0 || open.length === 0) return false;
  const ranked = open.map((candidate) => candidate.relevance ?? 1).sort((a, b) => b - a);
  const best = ranked[0] ?? 0;
  if (best < thresholds.confident) return true;
  return open.length > slots && best - (ranked[slots] ?? 0) < (thresholds.margin ?? CLOSE_MARGIN);
}
