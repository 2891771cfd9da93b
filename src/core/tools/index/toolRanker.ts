import { selectSelectiveTerms } from '../../search/ftsBm25';
import { expandQuery } from '../../search/queryExpansion';
import type { ExpansionOptions } from '../../search/queryExpansion';
import type { ToolField } from './toolDocument';
import type { ToolIndex } from './toolIndex';

/**
 * Full-text ranking of tools in two stages:
 * 1. candidate generation — FTS MATCH (the sql.js FTS4/FTS5 index) over the most selective
 *    query terms; a posting budget keeps large catalogs fast. Only docids come back (one
 *    `group_concat` row), so sql.js never marshals a row or a matchinfo blob per document.
 * 2. scoring — BM25F over every query term and all fields, computed in JS from in-memory
 *    term statistics that mirror exactly what FTS indexed (`ToolIndex.stats`, kept current
 *    incrementally; search/bm25f.ts, shared with the skill index), over the candidate pool.
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
  /** Summed document frequencies allowed in the stage-1 MATCH (selective terms first): at least this… */
  postingBudget: number;
  /**
   * …and at least this share of the catalog, so large catalogs keep their recall (measured
   * R@5 0.39 with a fixed 500 vs 0.47 with 5,000 postings at 100k tools, p95 ≈ 12 ms).
   */
  postingBudgetShare: number;
  /** Unused since the whole candidate pool is scored (kept so `--ranker` JSON still parses). */
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
  /** Minimum query terms kept for stage 1 even when over the posting budget. */
  minStage1Terms: number;
  /** Set false to return FTS's own weighted BM25 order (matchinfo / bm25(); ablation). */
  rerank: boolean;
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
  postingBudget: 500,
  postingBudgetShare: 0.05,
  candidates: 120,
  fieldWeights: { name: 3, tags: 1.5, description: 1, paramNames: 0.8, paramDescriptions: 0.4 },
  fieldB: { name: 0.7, tags: 0.5, description: 0.75, paramNames: 0.6, paramDescriptions: 0.3 },
  k1: 0.6,
  nameCoverageBonus: 0,
  bigramBonus: 0,
  paramCoverageBonus: 0,
  minStage1Terms: 2,
  rerank: true,
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
  const expansion = { ...RANKER_DEFAULTS.expansion, ...options.expansion };
  const expanded = expandQuery(query, stats, index.relatedTerms, expansion, index.analyzer);
  const terms = expanded.terms;
  if (terms.length === 0) return [];
  const budget = postingBudgetFor(stats.size, options);
  const selected = withinBudget(
    selectSelectiveTerms(expanded.primary, (t) => stats.df(t), budget, options.minStage1Terms),
    expanded.related,
    (t) => stats.df(t),
    budget,
  );
  if (!options.rerank) {
    // Ablation: stage-1 BM25 from FTS alone (matchinfo on FTS4, bm25() on FTS5).
    const pool: RankedTool[] = [];
    for (const [name, relevance] of index.ftsCandidates(selected)) if (isCandidate(name)) pool.push({ name, relevance });
    return pool.sort(byRelevanceThenName).slice(0, limit);
  }
  // Stage 1: FTS finds the candidates; stage 2: BM25F over every query term, in JS
  // (term statistics mirror what FTS indexed; no per-row matchinfo).
  // The caller's filter (policy, visibility) runs only for a tool that would enter the top k
  // at that point, not for every candidate (a large catalog's pool holds thousands); the top k
  // of the tools that pass is the same as when the pool is filtered first.
  const bonuses = options.nameCoverageBonus > 0 || options.paramCoverageBonus > 0 || options.bigramBonus > 0;
  const poolOf = (names: string[]) => (bonuses ? names.filter(isCandidate) : names);
  let pool = poolOf(index.ftsCandidateNames(selected));
  let scores = stats.scorePool(pool, terms, options.fieldWeights, options.fieldB, expanded.idf, options.k1);
  const feedback = { ...RANKER_DEFAULTS.feedback, ...options.feedback };
  if (feedback.documents > 0 && feedback.terms > 0 && feedback.weight > 0 && pool.length > 0) {
    const firstPass: RankedTool[] = [];
    for (let i = 0; i < pool.length; i++) {
      const candidate = { name: pool[i], relevance: scores[i] };
      if (!entersTopK(firstPass, candidate, feedback.documents) || (!bonuses && !isCandidate(candidate.name))) continue;
      insertTopK(firstPass, candidate, feedback.documents);
    }
    const added = feedbackTerms(stats, firstPass, new Set(terms.map((t) => t.term)), feedback, options.fieldWeights);
    if (added.length > 0) {
      terms.push(...added);
      const more = withinBudget(
        [...selected],
        added.map((t) => t.term),
        (t) => stats.df(t),
        budget * 2,
      );
      pool = poolOf(index.ftsCandidateNames(more));
      for (const t of added) expanded.idf.set(t.term, stats.idf(t.term));
      scores = stats.scorePool(pool, terms, options.fieldWeights, options.fieldB, expanded.idf, options.k1);
    }
  }
  const querySet = new Set(terms.map((t) => t.term));
  const ordered = bonuses && options.bigramBonus > 0 ? index.analyzer.analyze(query) : [];
  const top: RankedTool[] = [];
  for (let i = 0; i < pool.length; i++) {
    const relevance = bonuses ? scores[i] + bonusScore(index, pool[i], querySet, ordered, options) : scores[i];
    const candidate = { name: pool[i], relevance };
    if (!entersTopK(top, candidate, limit) || (!bonuses && !isCandidate(candidate.name))) continue;
    insertTopK(top, candidate, limit);
  }
  return top;
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

/** Adds `extra` terms (rarest first) to stage 1 while their postings fit what `chosen` left. */
function withinBudget(chosen: string[], extra: readonly string[], docFreq: (term: string) => number, budget: number): string[] {
  if (extra.length === 0) return chosen;
  let used = chosen.reduce((sum, term) => sum + docFreq(term), 0);
  for (const term of [...extra].sort((a, b) => docFreq(a) - docFreq(b))) {
    const df = docFreq(term);
    if (used + df > budget) break;
    chosen.push(term);
    used += df;
  }
  return chosen;
}

/** The stage-1 posting budget for a catalog of `documents` tools (scales with the catalog). */
function postingBudgetFor(documents: number, options: Pick<RankerOptions, 'postingBudget' | 'postingBudgetShare'>): number {
  return Math.max(options.postingBudget, Math.ceil((options.postingBudgetShare ?? 0) * documents));
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
