import { EXACT_SCORE, REGEX_SCORES, normalizeBm25 } from '../../search/scoring';
import type { MatchType } from '../../search/scoring';
import { REGEX_BUDGET_NOTE, compileSafeRegex } from '../../search/safeRegex';
import type { SafeRegex } from '../../search/safeRegex';
import { LEXICAL_POOL, exactNameMatcher, fusedScores, hybridRank } from '../../search/embedding/semanticStage';
import type { SemanticStage } from '../../search/embedding/semanticStage';
import type { ToolIndex } from './toolIndex';
import { RANKER_DEFAULTS, rankTools } from './toolRanker';
import type { RankerOptions } from './toolRanker';
import { SIDE_EFFECTS_RANK } from '../toolRecord';
import type { CompiledToolConfig, ToolRecord } from '../toolRecord';
import type { SearchType } from '../toolSearchSchema';

/**
 * Executes one search over a filtered candidate set (the caller's `isCandidate` already
 * encodes registry ∩ visibility ∩ include_always_loaded) and applies the score contract
 * (docs/contracts.md#score-contract): scores in [0, 1]; exact = 1.0; regex tiers; fts = min-max normalised BM25;
 * deterministic order −score, preferred namespace, side effects, shorter name, name.
 */

export interface SearchHit {
  record: ToolRecord;
  score: number;
  matchType: MatchType;
}

export interface SearchOutcome {
  hits: SearchHit[];
  effective: SearchType;
  /** Set when the request could not be served as asked; written for a model. */
  error?: string;
  note?: string;
}

export interface SearchContext {
  index: ToolIndex;
  records: ReadonlyMap<string, ToolRecord>;
  config: CompiledToolConfig;
  isCandidate(name: string): boolean;
  ranker?: RankerOptions;
  /** The embedding stage of hybrid ranking; absent = lexical ranking only. */
  semantic?: SemanticStage;
}

export function executeSearch(ctx: SearchContext, query: string, requested: SearchType, limit: number): SearchOutcome {
  if (requested === 'exact') return { hits: exactSearch(ctx, query, limit), effective: 'exact' };
  if (requested === 'regex') return regexSearch(ctx, query, limit);
  const accept = (name: string) => ctx.records.has(name) && ctx.isCandidate(name);
  if (ctx.semantic) return { hits: hybridSearch(ctx, ctx.semantic, query, accept, limit), effective: 'fts' };
  const ranked = rankTools(ctx.index, query, accept, limit, ctx.ranker ?? RANKER_DEFAULTS);
  const scores = normalizeBm25(ranked.map((r) => r.relevance));
  const hits = ranked.map((r, i) => ({ record: ctx.records.get(r.name)!, score: scores[i], matchType: 'fts' as const }));
  return { hits: sortByContract(hits, ctx.config), effective: 'fts' };
}

/**
 * BM25F candidates united with the embedding's nearest neighbours and fused
 * (search/embedding/fusion.ts); equal fused scores fall back to the contract's order.
 */
function hybridSearch(ctx: SearchContext, stage: SemanticStage, query: string, accept: (name: string) => boolean, limit: number): SearchHit[] {
  const lexical = ctx.ranker?.semanticOnly ? [] : rankTools(ctx.index, query, accept, Math.max(limit, LEXICAL_POOL), ctx.ranker ?? RANKER_DEFAULTS);
  const hitOf = (name: string): SearchHit => ({ record: ctx.records.get(name)!, score: 0, matchType: 'fts' });
  const ranking = hybridRank(lexical, query, stage, accept, exactNameMatcher(query), (a, b) => contractCompare(hitOf(a), hitOf(b), ctx.config)).slice(0, limit);
  const scores = fusedScores(ranking);
  return ranking.map((c, i) => ({ record: ctx.records.get(c.name)!, score: scores[i], matchType: 'fts' as const }));
}

function contractCompare(a: SearchHit, b: SearchHit, config: CompiledToolConfig): number {
  return (
    b.score - a.score ||
    config.namespaceRank(a.record.namespace) - config.namespaceRank(b.record.namespace) ||
    SIDE_EFFECTS_RANK[a.record.sideEffects] - SIDE_EFFECTS_RANK[b.record.sideEffects] ||
    a.record.name.length - b.record.name.length ||
    (a.record.name < b.record.name ? -1 : a.record.name > b.record.name ? 1 : 0)
  );
}

export function sortByContract(hits: SearchHit[], config: CompiledToolConfig): SearchHit[] {
  return hits.sort((a, b) => contractCompare(a, b, config));
}

function candidates(ctx: SearchContext): ToolRecord[] {
  const out: ToolRecord[] = [];
  for (const record of ctx.records.values()) if (ctx.isCandidate(record.name)) out.push(record);
  return out;
}

/** Exact name lookup; a query naming several tools (comma/space separated) returns each. */
function exactSearch(ctx: SearchContext, query: string, limit: number): SearchHit[] {
  const trimmed = query.trim();
  const wanted = [trimmed, ...trimmed.split(/[\s,]+/).filter((part) => part.length > 0 && part !== trimmed)];
  const found = new Map<string, ToolRecord>();
  for (const name of wanted) {
    const direct = ctx.records.get(name);
    if (direct && ctx.isCandidate(direct.name)) {
      found.set(direct.name, direct);
      continue;
    }
    const lower = name.toLowerCase();
    for (const record of candidates(ctx)) if (record.name.toLowerCase() === lower) found.set(record.name, record);
  }
  const hits = [...found.values()].map((record) => ({ record, score: EXACT_SCORE, matchType: 'exact' as const }));
  return sortByContract(hits, ctx.config).slice(0, limit);
}

function regexTier(record: ToolRecord, regex: SafeRegex): number | undefined {
  if (regex.test(record.name)) {
    if (regex.testWhole(record.name)) return REGEX_SCORES.fullName;
    return regex.testPrefix(record.name) ? REGEX_SCORES.namePrefix : REGEX_SCORES.nameSubstring;
  }
  if (regex.test(record.description) || record.tags.some((tag) => regex.test(tag))) return REGEX_SCORES.descriptionOrTags;
  return undefined;
}

function regexSearch(ctx: SearchContext, pattern: string, limit: number): SearchOutcome {
  const compiled = compileSafeRegex(pattern);
  if (!compiled.ok) return { hits: [], effective: 'regex', error: compiled.message };
  const hits: SearchHit[] = [];
  for (const record of candidates(ctx)) {
    const tier = regexTier(record, compiled.regex);
    // The matcher answers false once the budget is spent, so this hit may be incomplete.
    if (compiled.regex.exhausted) break;
    if (tier !== undefined) hits.push({ record, score: tier, matchType: 'regex' });
  }
  return {
    hits: sortByContract(hits, ctx.config).slice(0, limit),
    effective: 'regex',
    note: compiled.regex.exhausted ? REGEX_BUDGET_NOTE : undefined,
  };
}
