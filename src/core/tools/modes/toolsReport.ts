import type { DeferralDecision } from './deferralDecision';
import { MAX_TOOLS_PER_REQUEST } from './deferralDecision';

/**
 * The words of `/tools` that depend on why a tool is or is not sent, kept pure so each claim is
 * tested against the state it describes: a tool missing from the catalog is "turned off by you"
 * only when the user's `toolshed.tools.state` says so; otherwise it is still arriving (an MCP
 * server publishing its tools, counted once the catalog syncs).
 */

export interface HostToolCounts {
  /** Allowed by policy, turned off in `toolshed.tools.state`. */
  offByUser: number;
  /** Allowed, not off, but not in the catalog yet. */
  starting: number;
}

export function countUncatalogued(
  hostNames: readonly string[],
  deps: { catalogued(name: string): boolean; policyAllowed(name: string): boolean; offByUser(name: string): boolean },
): HostToolCounts {
  let offByUser = 0;
  let starting = 0;
  for (const name of hostNames) {
    if (!deps.policyAllowed(name)) continue; // the policy's denials stay unnamed and uncounted
    if (deps.offByUser(name)) offByUser++;
    else if (!deps.catalogued(name)) starting++;
  }
  return { offByUser, starting };
}

/**
 * The heading of the tools sent without being pinned or activated: why they are sent, and
 * that the per-request limit cut the list when it did (the rest then wait behind tool_search).
 */
export function sentListHeading(decision: Pick<DeferralDecision, 'reason'> | undefined, overCap: number): string {
  const why =
    decision?.reason === 'mode_off'
      ? 'tool search mode is off'
      : decision?.reason === 'under_threshold'
        ? 'all definitions fit the auto threshold'
        : 'nothing is deferred';
  return overCap > 0 ? `Sent because ${why}, up to the ${MAX_TOOLS_PER_REQUEST}-tool limit per request` : `Sent because ${why}`;
}

/** The heading of the deferred count: over the limit, or held back by the mode. */
export function deferredHeading(overCap: number): string {
  return overCap > 0
    ? `Deferred (${overCap} over the ${MAX_TOOLS_PER_REQUEST}-tool limit; found on demand with \`tool_search\`)`
    : 'Deferred (found on demand with `tool_search`)';
}
