import type { SearchHit } from '../index/toolSearchEngine';
import { applyPickPrior, pickPriors } from './pickPrior';
import { queryTermsForLog } from './toolPickLog';
import type { ToolPickLog } from './toolPickLog';

/**
 * The post-ranking step that applies the pick prior to one `tool_search` (kept apart from the
 * ranker): the ranker returns a slightly larger pool, the prior lifts past good picks within
 * it, and the caller cuts the pool back to the requested limit.
 */

/** Hits the ranker returns when a prior applies, so a lifted tool can climb into the top results. */
export const PRIOR_CANDIDATE_POOL = 20;

/** The query's terms as the pick log keeps them (computed once per search, for the prior and the log). */
export function logTermsOf(query: string): string[] {
  try {
    return queryTermsForLog(query);
  } catch {
    return [];
  }
}

/** Priors for these query terms, or an empty map (then the search runs exactly as without learning). */
export function priorsForTerms(terms: readonly string[], log: ToolPickLog, now: number): Map<string, number> {
  try {
    return terms.length === 0 ? new Map() : pickPriors([...terms], log.picks(), now);
  } catch {
    return new Map(); // a damaged log never breaks a search
  }
}

export function liftHits(hits: readonly SearchHit[], priors: ReadonlyMap<string, number>): SearchHit[] {
  const lifted = applyPickPrior(
    hits.map((hit) => ({ ...hit, name: hit.record.name })),
    priors,
  );
  return lifted.map(({ name: _name, ...hit }) => hit);
}

/** Records a result list the model was shown; a failing log never fails the search. */
export function recordShown(log: ToolPickLog, session: string, terms: readonly string[], hits: readonly SearchHit[], now: number): void {
  try {
    log.recordTerms(
      session,
      terms,
      hits.map((hit) => hit.record.name),
      now,
    );
  } catch {
    // best effort
  }
}
