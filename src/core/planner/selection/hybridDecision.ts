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
 * - a candidate the search order would inject is not corroborated by the request's words
 *   (`injectableUnconfirmed`).
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
  /**
   * False when the candidate's describing fields share too few of the request's words
   * (SkillSearchIndex.corroborated); absent = they do, or not known (an exact match, a skill only
   * the embedding found).
   */
  corroborated?: false;
}

export interface HybridThresholds {
  /** Below this the best candidate is confirmed by the model (`toolshed.skills.askModelBelowRelevance`). */
  confident: number;
  margin?: number;
}

/**
 * How far the best candidate must stand above the STANDOUT_RANK-th for the search order to be
 * evidence at all. A request whose vocabulary is generic (a long paste of code, a list of
 * everyday words) has ten or more skills within a few hundredths of each other; the first of
 * them is there by chance. On the skills-at-scale tuning half (odd ids, 10,000 skills,
 * bench/tuneOffers.ts) this took the no-skill requests that got a skill's text without a
 * model's confirmation from 5 to 3 of 55 with the same one-skill reach; margins 0.05–0.15 over the
 * 10th behaved alike, over the 5th they cost one-skill tasks.
 */
const STANDOUT_MARGIN = 0.1;
const STANDOUT_RANK = 10;

/**
 * Whether the best candidate stands out from the rest: fewer than STANDOUT_RANK candidates, or
 * the best at least STANDOUT_MARGIN above the STANDOUT_RANK-th (relevance unknown = 1). When it
 * does not, what the model would have been asked is not answered from the search order: no
 * skill is injected unconfirmed (activeSkillSelection.ts) and a door offers none (runtimes/offeredSkills.ts).
 */
export function bestStandsOut(candidates: readonly RelevanceOf[]): boolean {
  if (candidates.length < STANDOUT_RANK) return true;
  const ranked = candidates.map((candidate) => candidate.relevance ?? 1).sort((a, b) => b - a);
  return (ranked[0] ?? 0) - (ranked[STANDOUT_RANK - 1] ?? 0) >= STANDOUT_MARGIN;
}

/**
 * Whether search alone may inject the candidate (without a model's confirmation): its relevance
 * reaches `confident` and, when there is a threshold at all, the request's words corroborate it.
 * A high relevance from two or three words in common is how a request no skill serves still
 * matches one; a skill that applies shares more of the request's words (the counts and how they
 * were chosen: skills/store/skillSearchIndex.ts, `corroborated`). The doors' offers ask the same
 * (runtimes/offeredSkills.ts).
 */
export function injectableUnconfirmed(candidate: RelevanceOf, confident: number): boolean {
  return (candidate.relevance ?? 1) >= confident && (confident <= 0 || candidate.corroborated !== false);
}

export function hybridNeedsModel(open: readonly RelevanceOf[], slots: number, thresholds: HybridThresholds): boolean {
  if (slots <= 0 || open.length === 0) return false;
  const ranked = open.map((candidate) => candidate.relevance ?? 1).sort((a, b) => b - a);
  const best = ranked[0] ?? 0;
  if (best < thresholds.confident) return true;
  // A candidate the search order would inject that the request's words do not corroborate.
  const wouldInject = open.filter((candidate) => (candidate.relevance ?? 1) >= thresholds.confident).slice(0, slots);
  if (wouldInject.some((candidate) => !injectableUnconfirmed(candidate, thresholds.confident))) return true;
  return open.length > slots && best - (ranked[slots] ?? 0) < (thresholds.margin ?? CLOSE_MARGIN);
}
