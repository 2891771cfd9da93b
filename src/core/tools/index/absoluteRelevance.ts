import type { FieldStats } from '../../search/bm25f';
import { describingFocus, idfCoverage } from '../../search/termCoverage';
import { splitIdentifier, withoutContractions } from '../../search/textAnalysis';
import type { TextAnalyzer } from '../../search/textAnalysis';
import type { ToolField } from './toolDocument';

/**
 * How well one tool matches a request, on a scale that does not depend on the other candidates
 * (search scores are min-max normalised per response, so the best hit always scores 1.0 however
 * poor it is). Two shares, both IDF-weighted:
 *
 *   coverage = Σ idf(t) over request terms the tool's text contains / Σ idf(t) over request terms
 *   focus    = Σ idf(t) over the tool's describing terms the request contains / (Σ idf(t) over them + prior)
 *              (search/termCoverage.ts, shared with skills)
 *   relevance = min(1, FOCUSED_SCALE × √(coverage × focus))
 *
 * Coverage says the request is about the tool: a request word no tool uses (a city, a file name,
 * "poem") counts with the IDF of an unseen word, the highest there is, so a request that shares
 * only "create" with a tool is not about that tool. Numbers do not count at all: they are
 * argument values ("add 5 to 3"), never what a tool is for. Every field of the tool counts.
 * Focus says the tool is about the request: only its name, tags and description count, so a
 * description stuffed with common words — which covers any request — is focused on none.
 *
 * Calibrated on the tuning halves of the real MCP set (bench/realMcpBench.ts) and BFCL: coverage
 * alone pre-activated a tool for 64 % of the MCP requests no tool serves; with focus (and the
 * two-word rule of tools/requestMatch.ts) 8 %, gold in round 1 0.73 → 0.70 there and 0.596 → 0.604
 * on BFCL's odd half. A plain product coverage × min(1, focus / p) traded far more gold for the
 * same precision (p = 0.1: 0.62 gold).
 */

/** Any occurrence counts: the measure asks "is the word there", not how often. */
const ANY_FIELD: Readonly<Record<ToolField, number>> = { name: 1, tags: 1, description: 1, paramNames: 1, paramDescriptions: 1 };

export interface RelevanceSource {
  readonly stats: FieldStats<ToolField>;
  readonly analyzer: TextAnalyzer;
}

const ALL_DIGITS = /^[0-9]+$/;

/** The request's distinct terms with their IDF over the catalog (numbers left out). */
export function requestTermWeights(source: RelevanceSource, request: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of source.analyzer.analyze(withoutContractions(request))) {
    if (weights.has(term) || ALL_DIGITS.test(term)) continue;
    weights.set(term, source.stats.idf(term));
  }
  return weights;
}

/** Relevance in [0, 1] of one indexed tool to the request terms (0 for an unknown tool or no term). */
export function absoluteRelevance(source: RelevanceSource, terms: ReadonlyMap<string, number>, toolName: string): number {
  const has = new Set(source.stats.documentTerms(toolName, ANY_FIELD).map((t) => t.term));
  const coverage = idfCoverage({ terms: [...terms.keys()], idf: (term) => terms.get(term) ?? 0, match: (term) => (has.has(term) ? 1 : 0) });
  if (coverage === 0) return 0;
  const ids = new Set<number>();
  for (const term of terms.keys()) {
    const id = source.stats.termId(term);
    if (id !== undefined) ids.add(id);
  }
  const focus = describingFocus(source.stats, toolName, DESCRIBING_FIELDS, Math.max(source.stats.size, 1), (id) => ids.has(id));
  return Math.min(1, FOCUSED_SCALE * Math.sqrt(coverage * focus));
}

const DESCRIBING_FIELDS: Readonly<Record<ToolField, number>> = { name: 1, tags: 1, description: 1, paramNames: 0, paramDescriptions: 0 };
/**
 * Relevance is FOCUSED_SCALE × √(coverage × focus), at most 1: both must be there — a request
 * about the tool (coverage) and a tool about the request (focus). The scale keeps the gate's
 * threshold (`toolshed.toolSearch.minRelevance`, 0.2) meaningful; chosen on the tuning halves of
 * the real MCP set and BFCL (docs/benchmarks.md).
 */
const FOCUSED_SCALE = 1.7;

/** The request terms (as analysed) that the tool's text contains, rarest first: what its relevance rests on. */
export function matchedTerms(source: RelevanceSource, terms: ReadonlyMap<string, number>, toolName: string): string[] {
  const out: string[] = [];
  for (const { term } of source.stats.documentTerms(toolName, ANY_FIELD)) if (terms.has(term)) out.push(term);
  return out.sort((a, b) => (terms.get(b) ?? 0) - (terms.get(a) ?? 0) || (a < b ? -1 : 1));
}

/** Whether the tool's name holds one of the request's terms. */
export function nameShares(source: RelevanceSource, terms: ReadonlyMap<string, number>, toolName: string): boolean {
  return source.stats.documentTerms(toolName, NAME_ONLY).some(({ term }) => terms.has(term));
}

const NAME_ONLY: Readonly<Record<ToolField, number>> = { name: 1, tags: 0, description: 0, paramNames: 0, paramDescriptions: 0 };

/**
 * Each analysed term of `text` → the word as the user wrote it (lower-cased; the first spelling
 * seen), so the surfaces show "days", not the stem "dai".
 */
export function spelledAs(source: RelevanceSource, text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const raw of splitIdentifier(text)) {
    const [term] = source.analyzer.analyze(raw);
    if (term !== undefined && !words.has(term)) words.set(term, raw.toLowerCase());
  }
  return words;
}

/** Rounded for display and JSON (two decimals, like search scores). */
export function roundRelevance(value: number): number {
  return Math.round(value * 100) / 100;
}
