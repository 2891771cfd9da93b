import { absoluteRelevance, matchedTerms, nameShares, requestTermWeights, spelledAs } from './index/absoluteRelevance';
import type { RelevanceSource } from './index/absoluteRelevance';
import type { SearchHit } from './index/toolSearchEngine';
import { findForRun } from './runSearch';
import type { RunSearchScope } from './runSearch';
import { fusedRelevance } from '../search/embedding/fusedRelevance';
import type { RelevanceCalibration } from '../search/embedding/fusedRelevance';
import type { SemanticStage } from '../search/embedding/semanticStage';
import { passingRelevance } from '../search/relativeCut';
import { stuffedReason } from './index/stuffedTools';

/**
 * The relevance gate: which tools are activated without the model choosing them — before the
 * first round (tools matching the user's request) and among a `tool_search` call's results.
 * Both use the same absolute measure (index/absoluteRelevance.ts; with an embedder on, the
 * higher of it and the calibrated similarity, search/embedding/fusedRelevance.ts) and the same
 * threshold (`toolshed.toolSearch.minRelevance`), so a weak match is never resent in every later round.
 * A tool whose text looks stuffed (index/stuffedTools.ts) is never activated by the gate, not even
 * as a search's top hit: its relevance was bought with breadth.
 */

export interface GatedTool {
  name: string;
  /** Absolute relevance to the request, in [0, 1]. */
  relevance: number;
  /** The request's words the tool matched (shown beside the relevance, so a poisoned description is visible). */
  matchedTerms?: string[];
  /** Set when the tool's description looks stuffed (far longer or broader than its peers): why, in words. Never pre-activated. */
  flagged?: string;
}

/**
 * Ranked candidates looked at before the gate. On BFCL's odd half the share of requests with the
 * gold tool pre-activated was the same (±0.002) with 3, 5 or 10 candidates: the gate and `max`
 * decide, not the pool.
 */
const REQUEST_CANDIDATES = 5;

/**
 * A candidate is pre-activated only when its relevance also reaches this share of the best
 * candidate's (search/relativeCut.ts): a tool matched on one common word next to a much better
 * match is left to `tool_search`. Chosen on BFCL's odd half (docs/benchmarks.md).
 */
export const REQUEST_RELATIVE_CUT = 0.6;

/**
 * Lexical evidence enough to pre-activate a tool: its text shares at least two distinct words with
 * the request, one of them in the tool's name, or three anywhere. One shared word ("next", "list",
 * "file", "call") is what requests no tool serves have in common with some tool — nearly every
 * gold tool pre-activated on the real MCP set's tuning half shared two or more; two generic words
 * in a description ("difference … between", "job … question") are the next most common accident.
 * On that half: no-tool requests pre-activating 0.100 → 0.075, gold in round 1 0.667 → 0.631
 * (BFCL odd half 0.605 → 0.598).
 */
function enoughWords(source: RelevanceSource, terms: ReadonlyMap<string, number>, tool: { name: string; matchedTerms: readonly string[] }): boolean {
  const shared = tool.matchedTerms.length;
  return shared >= 3 || (shared >= 2 && nameShares(source, terms, tool.name));
}

/** Longest request text searched: the words that name a capability come early, and analysis cost stays bounded. */
const MAX_REQUEST_CHARS = 2000;

/**
 * The tools this run could activate for the request, best first, each with its relevance: the
 * run's own ranked search (its visibility and policy, never an always-sent tool) over the
 * request's words, kept only where the relevance reaches `minRelevance` and REQUEST_RELATIVE_CUT of
 * the best candidate's, at most `max`. `seen` receives every ranked candidate with its relevance,
 * before the gate (what Explain Last Turn shows).
 */
export function matchRequestTools(
  scope: RunSearchScope,
  relevance: RelevanceSource,
  request: string,
  max: number,
  minRelevance: number,
  seen?: (candidates: readonly GatedTool[]) => void,
): GatedTool[] {
  const text = request.slice(0, MAX_REQUEST_CHARS).trim();
  if (max <= 0 || !text) return [];
  const outcome = findForRun(
    scope,
    { query: text, search_type: 'fts', limit: Math.max(max, REQUEST_CANDIDATES), include_always_loaded: false },
    undefined,
    false,
    () => [],
  );
  if (outcome.error) return [];
  const terms = requestTermWeights(relevance, text);
  const similarity = similarityTo(scope.host.semantic, text);
  const spelling = spelledAs(relevance, text);
  const scored = outcome.hits.map((hit) => {
    const flagged = stuffedReason(relevance.stats, hit.record.name);
    const lexical = absoluteRelevance(relevance, terms, hit.record.name);
    return {
      name: hit.record.name,
      relevance: fusedRelevance(lexical, similarity?.of(hit.record.name), similarity?.calibration),
      lexical,
      matchedTerms: matchedTerms(relevance, terms, hit.record.name).map((term) => spelling.get(term) ?? term),
      ...(flagged === undefined ? {} : { flagged }),
    };
  });
  const gated = (tool: (typeof scored)[number]): GatedTool => ({
    name: tool.name,
    relevance: tool.relevance,
    matchedTerms: tool.matchedTerms,
    ...(tool.flagged ? { flagged: tool.flagged } : {}),
  });
  seen?.(scored.map(gated));
  // A threshold of 0 turns the gate off, the relative cut included (and with it the two-word rule).
  // The rule is about lexical evidence: a tool the embedding vouches for (fused relevance above
  // the lexical one) needs no shared word. A flagged (stuffed-looking) tool never passes.
  const evidenced = scored.filter(
    (tool) => tool.flagged === undefined && (minRelevance <= 0 || enoughWords(relevance, terms, tool) || tool.relevance > tool.lexical),
  );
  return passingRelevance(evidenced, (tool) => tool.relevance, minRelevance, minRelevance > 0 ? REQUEST_RELATIVE_CUT : 0)
    .slice(0, max)
    .map(gated);
}

/**
 * The results of a ranked `tool_search` that are activated on discovery: the top hit always
 * (the model asked for this capability and may call it next round), the others only when they
 * pass the gate. The model still reads every result; one it calls that was not activated is
 * activated on first use.
 */
export function gateDiscoveredHits(
  relevance: RelevanceSource,
  query: string,
  hits: readonly SearchHit[],
  minRelevance: number,
  semantic?: SemanticStage,
): SearchHit[] {
  if (hits.length <= 1) return [...hits];
  const terms = requestTermWeights(relevance, query);
  const similarity = similarityTo(semantic, query);
  return hits.filter(
    (hit, i) =>
      (i === 0 || gatedRelevance(relevance, terms, similarity, hit.record.name) >= minRelevance) &&
      stuffedReason(relevance.stats, hit.record.name) === undefined,
  );
}

/** A tool's similarity to one text and the model's calibration, when hybrid ranking has both (else lexical evidence only). */
interface SimilarityEvidence {
  of(name: string): number | undefined;
  calibration: RelevanceCalibration;
}

function similarityTo(stage: SemanticStage | undefined, text: string): SimilarityEvidence | undefined {
  const calibration = stage?.calibration;
  const vector = calibration ? stage.queryVector(text) : undefined;
  return stage && calibration && vector ? { of: (name) => stage.table.similarity(name, vector), calibration } : undefined;
}

/** The gate's measure: lexical coverage, or the calibrated similarity when the embedding gives more evidence. */
function gatedRelevance(source: RelevanceSource, terms: ReadonlyMap<string, number>, similarity: SimilarityEvidence | undefined, name: string): number {
  return fusedRelevance(absoluteRelevance(source, terms, name), similarity?.of(name), similarity?.calibration);
}
