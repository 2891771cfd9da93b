import type { SearchOutcome } from '../index/toolSearchEngine';
import type { ToolRecord } from '../toolRecord';

/**
 * `tool_search` with `select:<name>[,<name>…]` loads tools by their exact names (as Claude
 * Code's tool search does), without ranking. Names are literal: a `*` or `?` is not a glob.
 * Policy still applies in the caller; an unknown or denied name is simply not returned, and
 * the answer never says which of the two it was.
 */

export const SELECT_PREFIX = 'select:';
/** Names one `select:` may load (the tool_search limit range tops out at 20 as well). */
export const MAX_SELECT_NAMES = 20;

export interface DirectSelection {
  /** Distinct names, in the order given, at most MAX_SELECT_NAMES. */
  names: string[];
  /** Names given beyond MAX_SELECT_NAMES (ignored). */
  ignored: number;
}

export function parseDirectSelect(query: string): DirectSelection | undefined {
  const trimmed = query.trim();
  if (trimmed.slice(0, SELECT_PREFIX.length).toLowerCase() !== SELECT_PREFIX) return undefined;
  const all = [
    ...new Set(
      trimmed
        .slice(SELECT_PREFIX.length)
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name.length > 0),
    ),
  ];
  return { names: all.slice(0, MAX_SELECT_NAMES), ignored: Math.max(0, all.length - MAX_SELECT_NAMES) };
}

/** The one note for names that are not available — the same whether unknown, denied or hidden. */
function selectionNote(requested: number, found: number, ignored: number): string | undefined {
  const parts: string[] = [];
  const missing = requested - found;
  if (missing > 0)
    parts.push(
      `${missing} of the ${requested} selected name${requested === 1 ? ' is' : 's are'} not available here (select: needs exact tool names). Use tool_search with words describing what you need.`,
    );
  if (ignored > 0) parts.push(`Only the first ${MAX_SELECT_NAMES} names were considered; ${ignored} more were ignored.`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** The search outcome of a selection; `lookup` returns only tools the run may use. */
export function selectOutcome(selection: DirectSelection, lookup: (name: string) => ToolRecord | undefined): SearchOutcome {
  const records = selection.names.map(lookup).filter((record): record is ToolRecord => record !== undefined);
  return {
    hits: records.map((record) => ({ record, score: 1, matchType: 'exact' as const })),
    effective: 'exact',
    note: selectionNote(selection.names.length, records.length, selection.ignored),
  };
}

/** The query as logged in events: only the names that were available (a denied name the model typed is not repeated anywhere). */
export function selectionForLog(outcome: SearchOutcome, selection: DirectSelection): string {
  const missing = selection.names.length - outcome.hits.length;
  return `${SELECT_PREFIX}${outcome.hits.map((hit) => hit.record.name).join(',')}${missing > 0 ? ` (+${missing} unavailable)` : ''}`;
}
