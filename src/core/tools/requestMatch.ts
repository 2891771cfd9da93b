import { absoluteRelevance, matchedTerms, nameShares, requestTermWeights, spelledAs } from './index/absoluteRelevance';
import type { RelevanceSource } from './index/absoluteRelevance';
import type { SearchHit } from './index/toolSearchEngine';
import { findForRun } from './runSearch';
import type { RunSearchScope } from './runSearch';
import { fusedRelevance } from '../search/embedding/fusedRelevance';
import type { RelevanceCalibration } from '../search/embedding/fusedRelevance';
import type { SemanticStage } from '../search/embedding/semanticStage';
import { passingRelevance } from '../search/relativeCut';
import { proseSentences } from '../search/requestTerms';
import { stuffedReason } from './index/stuffedTools';
import type { GateVerdict } from '../search/gateVerdict';

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

/** A candidate as the gate judged it (what `seen` receives and Explain Last Turn prints). */
export type JudgedTool = GatedTool & { verdict: GateVerdict };

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

/** Longest request text read (about what a chat message holds; analysis cost stays bounded). */
const MAX_REQUEST_CHARS = 20_000;

/**
 * Requests longer than this (`tool_search`'s own query limit, far above a one-line ask) are read
 * sentence by sentence: a pasted task shares a word or two with almost every tool somewhere in its
 * context, code and logs, so gated whole it pre-activated tools for most long requests no tool
 * serves (real MCP long-request tuning half: 7 of 8 with the whole request, 5 of 8 with its first
 * 2,000 characters).
 */
const LONG_REQUEST_CHARS = 500;

/**
 * For a long request, a tool is pre-activated when one prose sentence of it passes the gate — as
 * a short request would, but at this relevance at least. Chosen on the real MCP long-request
 * tuning half (bench/realMcpBench.ts): at 0.44, 2 of 8 no-tool requests pre-activated a tool; at
 * 0.46 none, with a gold tool in round 1 for 7 of 23 tool requests (6 with the first 2,000
 * characters gated whole); at 0.5, 5 of 23.
 */
const LONG_REQUEST_MIN_RELEVANCE = 0.46;

/** Sentences of one long request searched at most (each is one ranked search). */
const MAX_SENTENCES = 200;

interface ScoredTool {
  name: string;
  relevance: number;
  lexical: number;
  matchedTerms: string[];
  flagged?: string;
  enoughWords: boolean;
  /** Distinct request terms the tool's text shares, and whether its name holds one (the word rule's evidence). */
  shared: number;
  inName: boolean;
  /** The gate's decision on this candidate in the search it came from (`judged`). */
  verdict?: GateVerdict;
}

/**
 * The tools this run could activate for the request, best first, each with its relevance: the
 * run's own ranked search (its visibility and policy, never an always-sent tool) over the
 * request's words, kept only where the relevance reaches `minRelevance` and REQUEST_RELATIVE_CUT of
 * the best candidate's, at most `max`. A long request (over LONG_REQUEST_CHARS) is searched
 * sentence by sentence, every prose sentence of it wherever it stands, and a tool passes on its
 * best sentence at LONG_REQUEST_MIN_RELEVANCE at least. `seen` receives the ranked candidates with
 * their relevance, before the gate, and the minimum relevance the gate applied (what Explain Last
 * Turn shows).
 */
export function matchRequestTools(
  scope: RunSearchScope,
  relevance: RelevanceSource,
  request: string,
  max: number,
  minRelevance: number,
  seen?: (candidates: readonly JudgedTool[], minRelevance: number) => void,
): GatedTool[] {
  const text = request.slice(0, MAX_REQUEST_CHARS).trim();
  if (max <= 0 || !text) return [];
  if (text.length <= LONG_REQUEST_CHARS) {
    const scored = judged(scoredCandidates(scope, relevance, text, max), minRelevance);
    const passed = capped(scored, max);
    seen?.(scored.map(judgedOf), minRelevance);
    return passed.map(gated);
  }
  const floor = minRelevance > 0 ? Math.max(minRelevance, LONG_REQUEST_MIN_RELEVANCE) : 0;
  const best = new Map<string, ScoredTool>();
  const passed = new Map<string, ScoredTool>();
  for (const sentence of proseSentences(text).slice(0, MAX_SENTENCES)) {
    const scored = judged(scoredCandidates(scope, relevance, sentence, max), floor);
    for (const tool of scored) {
      keepBest(best, tool);
      if (tool.verdict?.passed) keepBest(passed, tool);
    }
  }
  // A tool that passed in one sentence is shown as it passed there; any other by its best sentence's verdict.
  const considered = [...best.values()].map((tool) => passed.get(tool.name) ?? tool).sort(byRelevance);
  const kept = capped(considered, max);
  seen?.(considered.slice(0, Math.max(max, REQUEST_CANDIDATES)).map(judgedOf), floor);
  return kept.map(gated);
}

/** The ranked candidates for one text, each with its relevance and the evidence the gate reads. */
function scoredCandidates(scope: RunSearchScope, relevance: RelevanceSource, text: string, max: number): ScoredTool[] {
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
  return outcome.hits.map((hit) => {
    const name = hit.record.name;
    const flagged = stuffedReason(relevance.stats, name);
    const lexical = absoluteRelevance(relevance, terms, name);
    const matched = matchedTerms(relevance, terms, name);
    return {
      name,
      relevance: fusedRelevance(lexical, similarity?.of(name), similarity?.calibration),
      lexical,
      matchedTerms: matched.map((term) => spelling.get(term) ?? term),
      ...(flagged === undefined ? {} : { flagged }),
      enoughWords: enoughWords(relevance, terms, { name, matchedTerms: matched }),
      shared: matched.length,
      inName: nameShares(relevance, terms, name),
    };
  });
}

/**
 * The candidates of one search, each with the gate's verdict: a flagged (stuffed-looking) tool
 * never passes; then the threshold; then the word rule, which is about lexical evidence (a tool
 * the embedding vouches for — fused relevance above the lexical one — needs no shared word);
 * then the relative cut against the best candidate that has the evidence. A threshold of 0 turns
 * the gate off, the relative cut and the word rule included. The verdicts are the gate itself:
 * what passes is exactly what they say passed, and Explain Last Turn prints them.
 */
function judged(scored: readonly ScoredTool[], minRelevance: number): ScoredTool[] {
  const on = minRelevance > 0;
  const cut = on ? REQUEST_RELATIVE_CUT : 0;
  const evidenced = (tool: ScoredTool) => !on || tool.enoughWords || tool.relevance > tool.lexical;
  const eligible = scored.filter((tool) => tool.flagged === undefined && evidenced(tool));
  const floor = passingRelevance(eligible, (tool) => tool.relevance, minRelevance, cut);
  const best = eligible.reduce((top, tool) => Math.max(top, tool.relevance), 0);
  const passes = new Set(floor);
  return scored.map((tool): ScoredTool => {
    let verdict: GateVerdict;
    if (tool.flagged !== undefined) verdict = { passed: false, rule: 'stuffed', reason: tool.flagged };
    else if (on && tool.relevance < minRelevance) verdict = { passed: false, rule: 'minRelevance', relevance: tool.relevance, minimum: minRelevance };
    else if (!evidenced(tool)) verdict = { passed: false, rule: 'words', shared: tool.shared, inName: tool.inName };
    else if (!passes.has(tool)) verdict = { passed: false, rule: 'relativeCut', relevance: tool.relevance, best, cut };
    else verdict = { passed: true };
    return { ...tool, verdict };
  });
}

/** The candidates that passed, in the given order, at most `max`; those past it get the cap's verdict (in place, so `seen` shows it). */
function capped(judgedTools: readonly ScoredTool[], max: number): ScoredTool[] {
  const passed = judgedTools.filter((tool) => tool.verdict?.passed);
  passed.slice(max).forEach((tool, i) => {
    tool.verdict = { passed: false, rule: 'cap', position: max + i + 1, max };
  });
  return passed.slice(0, max);
}

function gated(tool: ScoredTool): GatedTool {
  return { name: tool.name, relevance: tool.relevance, matchedTerms: tool.matchedTerms, ...(tool.flagged ? { flagged: tool.flagged } : {}) };
}

function judgedOf(tool: ScoredTool): JudgedTool {
  return { ...gated(tool), verdict: tool.verdict ?? { passed: true } };
}

function keepBest(into: Map<string, ScoredTool>, tool: ScoredTool): void {
  const held = into.get(tool.name);
  if (!held || tool.relevance > held.relevance) into.set(tool.name, tool);
}

function byRelevance(a: ScoredTool, b: ScoredTool): number {
  return b.relevance - a.relevance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
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
  // The stuffed check comes first and holds for a lone hit too: a query only a stuffed tool
  // matches is exactly what its bought vocabulary is for.
  const unstuffed = hits.filter((hit) => stuffedReason(relevance.stats, hit.record.name) === undefined);
  if (unstuffed.length === 0 || hits.length <= 1) return unstuffed;
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
