import type { WeightedTerm } from '../../search/bm25f';
import { expandQuery } from '../../search/queryExpansion';
import type { ExpansionOptions } from '../../search/queryExpansion';
import { requestTerms } from '../../search/requestTerms';
import { valueOnlyTerms } from '../../search/requestValues';
import { TOOL_FIELD_B, TOOL_FIELD_WEIGHTS, TOOL_K1 } from './toolDocument';
import type { ToolField } from './toolDocument';
import type { ToolIndex } from './toolIndex';

/**
 * Full-text ranking of tools: BM25F over every query term and all fields (search/bm25f.ts,
 * shared with the skill index), exact over the whole catalog. The default path runs over impact
 * postings (search/impactPostings.ts): every tool holding any query term is scored over every
 * query term, so no candidate stage can drop the tool the ranking would put first, however long
 * the request (a posting budget over the "most selective" terms did: in a pasted task the rarest
 * words are names, ids and code, and the tool the request asks for was often not a candidate).
 * Parameters the postings were not built with (`--ranker` ablations, the optional bonuses) score
 * every tool that holds a query term instead; so does the term index itself soon after the
 * catalog changed (its refresh policy, search/termIndex.ts) — the same top k.
 *
 * Query terms are weighted as a request (search/requestTerms.ts, shared with skills): words on
 * code and data lines count less than prose, and a repeated word counts more, saturated; and,
 * for tools only, a word found only inside a value (an address, a path, a quote, a pasted error
 * or SQL statement, a number; search/requestValues.ts) counts VALUE_WEIGHT: it names what the
 * user has, not the tool they want.
 *
 * The returned relevances are BM25 (higher-is-better); the caller maps them to contract
 * scores (raw BM25 → score_raw → min-max, scoring.normalizeBm25).
 *
 * Defaults were tuned on the BFCL queries whose sha1(id) first byte is even and checked on
 * the odd half (k1 0.6, length normalisation name 0.7 / parameter descriptions 0.3); the
 * bonuses below stay off (each moved recall by ≤ ±0.01 either way). Query expansion defaults
 * were chosen on the BFCL queries with odd id numbers (`bench tools --half odd`): de-compounding
 * on (neutral there, and it finds `performCopyEditing` for "copyediting"); stem variants on at
 * 0.5 (R@5 0.651 → 0.660, R@10 0.790 → 0.799 on that half; weights 0.3–0.5 and 2–3 extra
 * letters all gained); WordNet related words and pseudo-relevance feedback off (no configuration
 * gained on that half; `--ranker '{"expansion":{"relatedWeight":0.5}}'`, `'{"feedback":…}'`).
 */

export interface RankerOptions {
  /** Unused since the whole catalog is scored (kept so `--ranker` JSON still parses). */
  candidates: number;
  fieldWeights: Record<ToolField, number>;
  fieldB: Record<ToolField, number>;
  /** BM25F term-frequency saturation (lower = the first occurrence counts for more). */
  k1: number;
  /** Bonus × (share of the tool-name terms present in the query) × max idf. */
  nameCoverageBonus: number;
  /** Bonus per adjacent query-term pair found adjacent in the name or description. */
  bigramBonus: number;
  /** Bonus × (share of the tool's parameter-name terms present in the query). */
  paramCoverageBonus: number;
  /** Query expansion (search/queryExpansion.ts): related words and de-compounding. */
  expansion: ExpansionOptions;
  /** Pseudo-relevance feedback: terms of the first pass's top documents, added at a low weight. */
  feedback: FeedbackOptions;
  /** Ablation of hybrid ranking: the embedding's nearest neighbours alone (no lexical stage). */
  semanticOnly?: boolean;
}

export interface FeedbackOptions {
  /** Top documents of the first pass read for feedback terms (0 = no feedback). */
  documents: number;
  /** Feedback terms added to the query. */
  terms: number;
  /** Weight of the strongest feedback term relative to a user's word (others scale down). */
  weight: number;
  /** Terms in more than this share of the catalog are never feedback terms. */
  maxDocumentShare: number;
}

export const RANKER_DEFAULTS: RankerOptions = {
  candidates: 120,
  fieldWeights: { ...TOOL_FIELD_WEIGHTS },
  fieldB: { ...TOOL_FIELD_B },
  k1: TOOL_K1,
  nameCoverageBonus: 0,
  bigramBonus: 0,
  paramCoverageBonus: 0,
  expansion: {
    relatedWeight: 0,
    relationKinds: ['s', 'd', 'h'],
    maxRelatedPerTerm: 3,
    compoundPartWeight: 0.5,
    onlyMissingTerms: true,
    variantWeight: 0.5,
    variantMaxExtra: 3,
  },
  feedback: { documents: 0, terms: 0, weight: 0, maxDocumentShare: 0.05 },
};

export interface RankedTool {
  name: string;
  relevance: number;
}

export function rankTools(
  index: ToolIndex,
  query: string,
  isCandidate: (name: string) => boolean,
  limit: number,
  options: RankerOptions = RANKER_DEFAULTS,
): RankedTool[] {
  const stats = index.stats;
  const { terms, idf } = rankingQuery(index, query, options);
  if (terms.length === 0) return [];
  const feedback = { ...RANKER_DEFAULTS.feedback, ...options.feedback };
  if (feedback.documents > 0 && feedback.terms > 0 && feedback.weight > 0) {
    const firstPass = topTools(index, query, terms, idf, isCandidate, feedback.documents, options);
    const added = feedbackTerms(stats, firstPass, new Set(terms.map((t) => t.term)), feedback, options.fieldWeights);
    for (const t of added) {
      terms.push(t);
      idf.set(t.term, stats.idf(t.term));
    }
  }
  return topTools(index, query, terms, idf, isCandidate, limit, options);
}

/**
 * The best `limit` tools that pass `isCandidate` for the weighted terms, exact over the catalog.
 * The caller's filter (policy, visibility) runs only for a tool that would enter the top k at
 * that point, not for every tool holding a term; the top k of the tools that pass is the same as
 * when every tool is filtered first.
 */
function topTools(
  index: ToolIndex,
  query: string,
  terms: readonly WeightedTerm[],
  idf: ReadonlyMap<string, number>,
  isCandidate: (name: string) => boolean,
  limit: number,
  options: RankerOptions,
): RankedTool[] {
  const bonuses = options.nameCoverageBonus > 0 || options.paramCoverageBonus > 0 || options.bigramBonus > 0;
  if (!bonuses && builtWith(options))
    return index.terms.topK(terms, isCandidate, limit, (a, b) => a < b, idf).map((hit) => ({ name: hit.key, relevance: hit.score }));
  const pool = index.candidateNames(terms.map((t) => t.term));
  const scores = index.stats.scorePool(pool, terms, options.fieldWeights, options.fieldB, idf, options.k1);
  const querySet = new Set(terms.map((t) => t.term));
  const ordered = options.bigramBonus > 0 ? index.analyzer.analyze(query) : [];
  const top: RankedTool[] = [];
  for (let i = 0; i < pool.length; i++) {
    const relevance = bonuses ? scores[i] + bonusScore(index, pool[i], querySet, ordered, options) : scores[i];
    const candidate = { name: pool[i], relevance };
    if (!entersTopK(top, candidate, limit) || !isCandidate(candidate.name)) continue;
    insertTopK(top, candidate, limit);
  }
  return top;
}

/**
 * The weighted terms a ranking scores and their IDFs: the query's words expanded (de-compounded
 * parts, stem variants; search/queryExpansion.ts), each weighted as the request weighs it.
 */
export function rankingQuery(index: ToolIndex, query: string, options: RankerOptions = RANKER_DEFAULTS): { terms: WeightedTerm[]; idf: Map<string, number> } {
  const expanded = expandQuery(query, index.stats, index.relatedTerms, { ...RANKER_DEFAULTS.expansion, ...options.expansion }, index.analyzer);
  return { terms: weightedAsRequest(expanded.terms, query, expanded.cues), idf: expanded.idf };
}

/**
 * Each expanded term's weight times the weight the request gives its word (search/requestTerms.ts:
 * code and data lines count less, repeats saturate). Parts and variants the request does not
 * spell keep their expansion weight.
 */
function weightedAsRequest(terms: readonly WeightedTerm[], query: string, cues: ReadonlyMap<string, number>): WeightedTerm[] {
  const asRequest = new Map(requestTerms(query).map((t) => [t.term, t.weight]));
  const values = valueOnlyTerms(query);
  return terms.map((t) => ({
    term: t.term,
    weight: Math.max(t.weight * (asRequest.get(t.term) ?? 1) * (values.has(t.term) ? VALUE_WEIGHT : 1), cues.get(t.term) ?? 0),
  }));
}

/** The relevance of each of `names` for `query` (0 for a tool the index does not hold): the ranking's own scores, for a few named tools. */
export function scoreTools(index: ToolIndex, query: string, names: readonly string[], options: RankerOptions = RANKER_DEFAULTS): number[] {
  const { terms, idf } = rankingQuery(index, query, options);
  const held = names.filter((name) => index.stats.has(name));
  const scores = terms.length && held.length ? index.stats.scorePool(held, terms, options.fieldWeights, options.fieldB, idf, options.k1) : [];
  const byName = new Map(held.map((name, i) => [name, scores[i] ?? 0]));
  return names.map((name) => byName.get(name) ?? 0);
}

/** Weight of a word found only inside a value (an address, a path, a quote, a pasted error or statement; search/requestValues.ts). */
const VALUE_WEIGHT = 0.35;

/** True when `options` rank with the weights the index's impact postings were built with. */
function builtWith(options: RankerOptions): boolean {
  return options.k1 === TOOL_K1 && sameWeights(options.fieldWeights, TOOL_FIELD_WEIGHTS) && sameWeights(options.fieldB, TOOL_FIELD_B);
}

function sameWeights(a: Readonly<Record<ToolField, number>>, b: Readonly<Record<ToolField, number>>): boolean {
  return (Object.keys(b) as ToolField[]).every((field) => a[field] === b[field]);
}

/**
 * The strongest terms of the first pass's top documents that the query lacks (RM-style
 * pseudo-relevance feedback): Σ over documents of (score share × weighted normalised frequency)
 * × idf, weighted so the strongest gets `weight` and the rest scale down.
 */
function feedbackTerms(
  stats: ToolIndex['stats'],
  top: readonly RankedTool[],
  queryTerms: ReadonlySet<string>,
  options: FeedbackOptions,
  fieldWeights: Record<ToolField, number>,
): Array<{ term: string; weight: number }> {
  const total = top.reduce((sum, t) => sum + t.relevance, 0);
  if (total <= 0) return [];
  const maxDf = Math.max(2, Math.floor(options.maxDocumentShare * stats.size));
  const value = new Map<string, number>();
  for (const doc of top) {
    const share = doc.relevance / total;
    for (const { term, frequency } of stats.documentTerms(doc.name, fieldWeights)) {
      if (queryTerms.has(term)) continue;
      const df = stats.df(term);
      if (df > maxDf || df < 2) continue;
      value.set(term, (value.get(term) ?? 0) + share * frequency * stats.idf(term));
    }
  }
  const best = [...value].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, options.terms);
  const strongest = best[0]?.[1] ?? 0;
  return strongest > 0 ? best.map(([term, v]) => ({ term, weight: (options.weight * v) / strongest })) : [];
}

/** True when `candidate` would take a place in `top` (best-first, at most `k` entries). */
function entersTopK(top: readonly RankedTool[], candidate: RankedTool, k: number): boolean {
  return k > 0 && (top.length < k || byRelevanceThenName(candidate, top[top.length - 1]) < 0);
}

/** Keeps `top` sorted best-first with at most `k` entries (k is small: ≤ 20). */
function insertTopK(top: RankedTool[], candidate: RankedTool, k: number): void {
  if (!entersTopK(top, candidate, k)) return;
  let i = top.length;
  while (i > 0 && byRelevanceThenName(candidate, top[i - 1]) < 0) i--;
  top.splice(i, 0, candidate);
  if (top.length > k) top.pop();
}

/**
 * Optional name-centric bonuses (off by default; measured ≤ ±0.01 recall on BFCL). Coverage
 * comes from the term statistics; the bigram bonus needs term order, which only the index's
 * stored rows keep (read per candidate — fine for an ablation, not for the default path).
 */
function bonusScore(index: ToolIndex, name: string, querySet: ReadonlySet<string>, ordered: readonly string[], options: RankerOptions): number {
  const stats = index.stats;
  if (!stats.has(name)) return 0;
  let score = 0;
  if (options.nameCoverageBonus > 0) score += options.nameCoverageBonus * stats.fieldCoverage(name, 'name', querySet);
  if (options.paramCoverageBonus > 0) score += options.paramCoverageBonus * stats.fieldCoverage(name, 'paramNames', querySet);
  const terms = options.bigramBonus > 0 && ordered.length > 1 ? index.fieldTerms(name) : undefined;
  if (terms) {
    const pairs = new Set<string>();
    for (const field of ['name', 'description'] as const) {
      const list = terms[field];
      for (let i = 0; i + 1 < list.length; i++) pairs.add(`${list[i]} ${list[i + 1]}`);
    }
    for (let i = 0; i + 1 < ordered.length; i++) if (pairs.has(`${ordered[i]} ${ordered[i + 1]}`)) score += options.bigramBonus;
  }
  return score;
}

function byRelevanceThenName(a: RankedTool, b: RankedTool): number {
  return b.relevance - a.relevance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
