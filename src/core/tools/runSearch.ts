import type { DirectSelection } from './modes/directSelect';
import { selectOutcome } from './modes/directSelect';
import { executeSearch } from './index/toolSearchEngine';
import type { SearchContext, SearchOutcome } from './index/toolSearchEngine';
import { withGeneralHits } from './index/generalTools';
import { liftHits, PRIOR_CANDIDATE_POOL, priorsForTerms } from './pickPrior/searchPrior';
import { summarizeParameters } from './toolRecord';
import type { CompiledToolConfig, ToolRecord } from './toolRecord';
import type { ToolSearchInput, ToolSearchOutput } from './toolSearchSchema';
import { truncate } from './toolText';
import type { Clock } from '../platform/ports';
import type { ToolIndex } from './index/toolIndex';
import type { SemanticStage } from '../search/embedding/semanticStage';
import type { RankerOptions } from './index/toolRanker';
import type { ToolPickLog } from './pickPrior/toolPickLog';
import type { ToolCatalog } from './toolCatalog';

/**
 * What one `tool_search` call of a run finds and how it reads to the model — the ranking half
 * of `ToolRun.search` (the run keeps validation, logging and activation).
 */

/** Max description characters in a tool_search result (the full one arrives with activation). */
const RESULT_DESCRIPTION_CHARS = 320;

/** The parts of a run's host a search reads (ToolRun's RunHost has them all). */
interface RunSearchHost {
  catalog: ToolCatalog;
  index: ToolIndex;
  clock: Clock;
  ranker?: RankerOptions;
  picks?: ToolPickLog;
  /** The embedding stage of hybrid ranking, when an embedder is on. */
  semantic?: SemanticStage;
}

export interface RunSearchScope {
  host: RunSearchHost;
  config: CompiledToolConfig;
  /** The record of `name` when this run may use it. */
  usable(name: string): ToolRecord | undefined;
  /** Whether a ranked search may return the tool (usable, and not always visible unless asked for). */
  isCandidate(name: string): boolean;
}

/**
 * A `select:` query loads exactly the named usable tools; any other query is ranked, lifted by
 * the pick prior when `learnFromUse` is on (`terms` are the query's logged terms, computed once).
 * With `placeGeneral` (a search a model or person reads: `tool_search`, the gateway's
 * `find_tools`), a ranked search whose best hit is weak gets the general-purpose tools its shape
 * asks for in the top 5 (index/generalTools.ts); pre-activation ranks without them, since a tool
 * placed there shares no word with the request and could never pass its gate.
 */
export function findForRun(
  scope: RunSearchScope,
  input: ToolSearchInput,
  selection: DirectSelection | undefined,
  learn: boolean,
  terms: () => string[],
  placeGeneral = false,
): SearchOutcome {
  if (selection) return selectOutcome(selection, (name) => scope.usable(name));
  const limit = Math.min(input.limit, scope.config.search.maxSearchResults);
  const priors = learn && scope.host.picks ? priorsForTerms(terms(), scope.host.picks, scope.host.clock.now()) : new Map<string, number>();
  const context: SearchContext = {
    index: scope.host.index,
    records: scope.host.catalog.registry(),
    config: scope.config,
    ranker: scope.host.ranker,
    semantic: scope.host.semantic,
    isCandidate: (name) => scope.isCandidate(name),
  };
  const found = executeSearch(context, input.query, input.search_type, priors.size > 0 ? Math.max(limit, PRIOR_CANDIDATE_POOL) : limit);
  const lifted = priors.size > 0 ? { ...found, hits: liftHits(found.hits, priors).slice(0, limit) } : found;
  if (!placeGeneral || found.effective !== 'fts' || found.error) return lifted;
  return { ...lifted, hits: [...withGeneralHits(context, input.query, lifted.hits, limit)] };
}

/** What `tool_search` returns for an outcome (descriptions shortened and scrubbed, parameters summarised). */
export function searchOutputOf(outcome: SearchOutcome, query: string, scrub: (text: string) => string): ToolSearchOutput {
  return {
    tools: outcome.hits.map((hit) => ({
      name: hit.record.name,
      description: scrub(truncate(hit.record.description, RESULT_DESCRIPTION_CHARS)),
      score: hit.score,
      match_type: hit.matchType,
      loading_mode: hit.record.loadingMode,
      parameters: summarizeParameters(hit.record.inputSchema),
    })),
    query,
    search_type: outcome.effective,
    ...(outcome.note ? { note: outcome.note } : outcome.hits.length === 0 ? { note: 'No matching tools. Try other words or search_type "regex".' } : {}),
  };
}
