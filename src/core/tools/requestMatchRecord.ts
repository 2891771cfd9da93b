import type { GatedTool, JudgedTool } from './requestMatch';

/**
 * What pre-activation looked at for one request, kept by its run so that Explain Last Turn shows
 * the numbers the turn used (never a second search).
 */
export interface RequestMatchRecord {
  /** Every ranked candidate with its relevance and the gate's verdict on it (passed, or which rule failed with its numbers). */
  candidates: JudgedTool[];
  /**
   * The minimum relevance the gate applied: `toolshed.toolSearch.minRelevance` (0 = the gate and
   * the relative cut off), raised for a long request read sentence by sentence (requestMatch.ts).
   */
  minRelevance: number;
  /** The share of the best candidate's relevance a candidate also needs (0 when the gate is off). */
  relativeCut: number;
  /** `toolshed.toolSearch.preActivateTools` in force. */
  max: number;
  /** Candidates that passed the gate, in order (at most `max`). */
  passed: string[];
  /** Those activated (the others were already sent this request). */
  activated: string[];
}

/**
 * Why a tool was activated before round 1, as every surface says it (the step line, `/tools`,
 * Manage Tools, Explain Last Turn): the request's words it matched and its relevance, so a tool
 * whose description buys matches is visible — "matched your request: weather, forecast — 0.62".
 */
export function requestMatchReason(tool: Pick<GatedTool, 'relevance' | 'matchedTerms'>): string {
  const words = tool.matchedTerms?.length ? `: ${tool.matchedTerms.join(', ')}` : '';
  return `matched your request${words} — ${tool.relevance.toFixed(2)}`;
}
