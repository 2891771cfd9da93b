import type { FieldStats } from '../../search/bm25f';
import type { TextAnalyzer } from '../../search/textAnalysis';
import type { ToolField } from './toolDocument';

/**
 * How well one tool matches a request, on a scale that does not depend on the other candidates
 * (search scores are min-max normalised per response, so the best hit always scores 1.0 however
 * poor it is): the share of the request's IDF mass that the tool's own text covers.
 *
 *   relevance(tool) = Σ idf(t) over request terms t the tool contains / Σ idf(t) over request terms
 *
 * A request word no tool uses (a city, a file name, "poem") counts with the IDF of an unseen word,
 * the highest there is: a request that shares only "create" with a tool is not about that tool.
 * Numbers do not count at all: they are argument values ("add 5 to 3"), never what a tool is for.
 * Every field of the tool counts (name, tags, description, parameters).
 *
 * Calibrated on BFCL's odd half (3,258 tools, 1,030 requests; up to 3 of the top 5 ranked tools):
 * gate 0.2 put the gold tool in round 1 for 0.551 of requests with 2.04 other tools activated per
 * request; 0.3 gave 0.486 / 1.47, 0.1 gave 0.574 / 2.40. Counting only the words the catalog knows
 * gave the same curve shifted (0.540 / 1.89 at 0.3) but scores "create a birthday poem" 1.0 for
 * every create tool; leaving out parameter descriptions cost hits (0.455 against 0.540 at 0.3).
 * With the gate at 0.2, `bench turn-economy` on that half: 3 tools cut rounds per request by 19.8 %
 * (gold in round 1: 0.553), 4 tools by 21.4 % (0.602), both with fewer prompt tokens than without
 * pre-activation (−25 %, −22 %); hence the default of 4.
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
  for (const term of source.analyzer.analyze(request)) {
    if (weights.has(term) || ALL_DIGITS.test(term)) continue;
    weights.set(term, source.stats.idf(term));
  }
  return weights;
}

/** Relevance in [0, 1] of one indexed tool to the request terms (0 for an unknown tool or no term). */
export function absoluteRelevance(source: RelevanceSource, terms: ReadonlyMap<string, number>, toolName: string): number {
  let total = 0;
  for (const weight of terms.values()) total += weight;
  if (total <= 0) return 0;
  let covered = 0;
  for (const { term } of source.stats.documentTerms(toolName, ANY_FIELD)) covered += terms.get(term) ?? 0;
  return Math.min(1, covered / total);
}

/** The request terms (as analysed) that the tool's text contains, rarest first: what its relevance rests on. */
export function matchedTerms(source: RelevanceSource, terms: ReadonlyMap<string, number>, toolName: string): string[] {
  const out: string[] = [];
  for (const { term } of source.stats.documentTerms(toolName, ANY_FIELD)) if (terms.has(term)) out.push(term);
  return out.sort((a, b) => (terms.get(b) ?? 0) - (terms.get(a) ?? 0) || (a < b ? -1 : 1));
}

/** Rounded for display and JSON (two decimals, like search scores). */
export function roundRelevance(value: number): number {
  return Math.round(value * 100) / 100;
}
