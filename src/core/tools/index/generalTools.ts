import { requestShapes } from '../../search/requestShapes';
import type { GeneralKind } from '../../search/requestShapes';
import type { ToolRecord } from '../toolRecord';
import { absoluteRelevance, requestTermWeights } from './absoluteRelevance';
import { RANKER_DEFAULTS, scoreTools } from './toolRanker';
import { sortByContract } from './toolSearchEngine';
import type { SearchContext, SearchHit } from './toolSearchEngine';

/**
 * General-purpose tools: a tool whose input is a free program in some language — a SQL statement
 * for a database, a command for a shell, a query for a web search engine, the address of any page
 * to fetch — serves asks that no word of its description names ("top 10 customers by total
 * spend" is a SQL query; "whats using port 3000" a shell command). The rule and what it costs are
 * in docs/contracts.md ("General-purpose tools in the top 5"); the request's side is
 * search/requestShapes.ts.
 *
 * A tool is general purpose when its schema has the program's parameter *and* its description
 * says it runs it. Both are needed: many tools take a `query` (a Jira search, a Drive search) or a
 * `url` (a browser's navigate) that is not a free program of that kind.
 */

interface SchemaProperty {
  type?: unknown;
  description?: unknown;
  items?: { type?: unknown };
}

/** A parameter that takes text: typed `string` (or an array of strings for `urls`), or untyped (some servers publish `{}`). */
function textParameter(property: SchemaProperty | undefined, listOk = false): boolean {
  if (!property || typeof property !== 'object') return false;
  if (property.type === undefined || property.type === 'string') return true;
  return listOk && property.type === 'array' && (property.items?.type === undefined || property.items.type === 'string');
}

/**
 * The parameters a call must give: the required ones, or the only one. A program parameter that is
 * optional beside others (a feedback form's `url`) is not what the tool runs.
 */
function programParameters(schema: unknown): Record<string, SchemaProperty> {
  const shape = schema as { properties?: unknown; required?: unknown } | undefined;
  const props = shape?.properties && typeof shape.properties === 'object' ? (shape.properties as Record<string, SchemaProperty>) : {};
  const names = Object.keys(props);
  const required = Array.isArray(shape?.required) ? shape.required.filter((name): name is string => typeof name === 'string') : [];
  const kept = names.length === 1 ? names : names.filter((name) => required.includes(name));
  return Object.fromEntries(kept.map((name) => [name, props[name]]));
}

const describedText = (property: SchemaProperty | undefined) => (typeof property?.description === 'string' ? property.description : '');

const RUNS = /\b(?:run|runs|execute|executes|executing)\b/i;
const SQL = /\bsql\b/i;
const SHELL = /\b(?:terminal|shell|command line|command-line)\b/i;
const WEB_SEARCH = /\bweb search\b|\bsearch(?:es)? (?:the )?(?:web|internet)\b|\bsearch web\b/i;
const FETCHES = /\b(?:fetch|fetches|scrape|scrapes|extract|extracts|retrieve|retrieves)\b/i;

/** The kind of free program `tool` runs, or undefined when it is not a general-purpose tool. */
export function generalKindOf(tool: Pick<ToolRecord, 'description' | 'inputSchema'>): GeneralKind | undefined {
  const props = programParameters(tool.inputSchema);
  const description = tool.description;
  // A `sql` parameter, or a `query` / `statement` that the tool or the parameter says is SQL.
  const sqlParameter =
    textParameter(props.sql) ||
    (['query', 'statement'] as const).some((name) => textParameter(props[name]) && (SQL.test(describedText(props[name])) || SQL.test(description)));
  if (sqlParameter && RUNS.test(description)) return 'sql';
  if ((textParameter(props.command) || textParameter(props.cmd)) && SHELL.test(description)) return 'shell';
  if ((textParameter(props.query) || textParameter(props.q)) && WEB_SEARCH.test(description)) return 'webSearch';
  if ((textParameter(props.url) || textParameter(props.urls, true)) && FETCHES.test(description)) return 'fetch';
  return undefined;
}

/** Kinds per record, computed once per record (records are rebuilt when a tool changes). */
const kindCache = new WeakMap<ToolRecord, GeneralKind | null>();

function cachedKind(record: ToolRecord): GeneralKind | undefined {
  let kind = kindCache.get(record);
  if (kind === undefined) {
    kind = generalKindOf(record) ?? null;
    kindCache.set(record, kind);
  }
  return kind ?? undefined;
}

/** How many of the first places a general-purpose tool may take when the ranking left its kind out. */
const GENERAL_TOOL_PLACES = 5;

/**
 * The ranked `names` with, for each general-purpose kind of `shapes` (the request's) that
 * none of the first GENERAL_TOOL_PLACES has, the best tool of that kind (`pick` chooses among
 * them) put at the last of those places; what it displaces moves one place down and the list
 * keeps its length. Returns `names` itself when nothing changes.
 */
function withGeneralTools(
  names: readonly string[],
  shapes: readonly GeneralKind[],
  limit: number,
  records: ReadonlyMap<string, ToolRecord>,
  isCandidate: (name: string) => boolean,
  pick: (candidates: readonly ToolRecord[]) => ToolRecord | undefined,
): readonly string[] {
  const places = Math.min(limit, GENERAL_TOOL_PLACES);
  if (places < GENERAL_TOOL_PLACES) return names;
  const wanted = shapes.filter((kind) => !names.slice(0, places).some((name) => kindOf(records, name) === kind));
  if (wanted.length === 0) return names;
  const byKind = new Map<GeneralKind, ToolRecord[]>();
  for (const record of records.values()) {
    const kind = cachedKind(record);
    if (kind && wanted.includes(kind) && isCandidate(record.name)) byKind.set(kind, [...(byKind.get(kind) ?? []), record]);
  }
  const chosen: string[] = [];
  for (const kind of wanted) {
    const best = pick(byKind.get(kind) ?? []);
    if (best) chosen.push(best.name);
  }
  if (chosen.length === 0) return names;
  // The chosen tools take the last places of the first `places`, in the shapes' order; a chosen tool ranked lower moves up.
  const out = names.filter((name) => !chosen.includes(name));
  out.splice(Math.min(places - chosen.length, out.length), 0, ...chosen);
  return out.slice(0, limit);
}

function kindOf(records: ReadonlyMap<string, ToolRecord>, name: string): GeneralKind | undefined {
  const record = records.get(name);
  return record ? cachedKind(record) : undefined;
}

/**
 * Below this absolute relevance of the ranking's best tool (absoluteRelevance.ts: how much of the
 * request it covers and how focused it is on it), the ranking has not found what the request is
 * about, and general-purpose tools may take places. Above it, the ranking stands as it is: a
 * request that names its tool keeps its top 5. Chosen on the tuning halves (odd ids of the
 * blind and written-after requests, BFCL's odd half): 0.3–0.35 kept every BFCL figure and gained
 * the most; 0.4 and above began to cost BFCL.
 */
const WEAK_BEST_RELEVANCE = 0.3;

/**
 * `hits` (a ranked `fts` search, best first) with the general-purpose tools the request's shape
 * asks for placed in the top 5 when the best hit is weak (withGeneralTools, above). A placed tool
 * takes a score between its neighbours', so the scores still fall from first to last; it is an
 * `fts` hit like the others (its score is what its place says, not a relevance).
 */
export function withGeneralHits(ctx: SearchContext, request: string, hits: readonly SearchHit[], limit: number): readonly SearchHit[] {
  // The shapes first: a few regular expressions, where the relevance reads the best tool's terms.
  const shapes = requestShapes(request);
  if (shapes.length === 0) return hits;
  if (hits.length > 0 && absoluteRelevance(ctx.index, requestTermWeights(ctx.index, request), hits[0].record.name) >= WEAK_BEST_RELEVANCE) return hits;
  const names = hits.map((hit) => hit.record.name);
  const accept = (name: string) => ctx.records.has(name) && ctx.isCandidate(name);
  const placed = withGeneralTools(names, shapes, limit, ctx.records, accept, (candidates) => bestGeneralTool(ctx, request, candidates));
  if (placed === names) return hits;
  // A placed tool is new to the list or moved up from lower down: either way its old score (if any) is not its place's.
  const moved = new Set(placed.filter((name, i) => !names.includes(name) || names.indexOf(name) > i));
  const ranked = new Map(hits.filter((hit) => !moved.has(hit.record.name)).map((hit) => [hit.record.name, hit]));
  const out: SearchHit[] = [];
  for (let i = 0; i < placed.length; i++) {
    const hit = ranked.get(placed[i]);
    if (hit) {
      out.push(hit);
      continue;
    }
    const before = out.length ? out[out.length - 1].score : 1;
    const next = placed.slice(i + 1).find((name) => ranked.has(name));
    const after = next === undefined ? 0 : ranked.get(next)!.score;
    out.push({ record: ctx.records.get(placed[i])!, score: (before + after) / 2, matchType: 'fts' });
  }
  return out;
}

/** Among general-purpose tools of one kind, the one the ranking scores highest for the request; ties (often all 0) by the contract's order. */
function bestGeneralTool(ctx: SearchContext, request: string, candidates: readonly ToolRecord[]): ToolRecord | undefined {
  const relevance = scoreTools(
    ctx.index,
    request,
    candidates.map((record) => record.name),
    ctx.ranker ?? RANKER_DEFAULTS,
  );
  return sortByContract(
    candidates.map((record, i) => ({ record, score: relevance[i], matchType: 'fts' as const })),
    ctx.config,
  )[0]?.record;
}
