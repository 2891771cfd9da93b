import type { ToolRecord } from '../toolRecord';
import { MAX_TOOLS_PER_REQUEST } from './deferralDecision';

/**
 * Which tools one request sends, and which it defers because of the per-request cap. Tools
 * over the cap are never dropped: they stay searchable and callable (activated on first use).
 * Priority when the cap bites: Toolshed's own tools (the way to everything else), then tools
 * activated in this run or session, then tools pinned `always`, then the rest; by name within a tier.
 */

export const enum SendTier {
  Own = 0,
  Activated = 1,
  Pinned = 2,
  Undeferred = 3,
}

export interface SendCandidate {
  record: ToolRecord;
  tier: SendTier;
}

export interface RequestToolSet {
  /** Sent with the request, by name. */
  sent: ToolRecord[];
  /** Wanted to be sent but over the cap: deferred for this request. */
  overCap: ToolRecord[];
}

export function capRequestTools(candidates: readonly SendCandidate[], cap: number = MAX_TOOLS_PER_REQUEST): RequestToolSet {
  const byName = (a: ToolRecord, b: ToolRecord) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  if (candidates.length <= cap) return { sent: candidates.map((c) => c.record).sort(byName), overCap: [] };
  const ordered = [...candidates].sort((a, b) => a.tier - b.tier || byName(a.record, b.record));
  return {
    sent: ordered
      .slice(0, cap)
      .map((c) => c.record)
      .sort(byName),
    overCap: ordered
      .slice(cap)
      .map((c) => c.record)
      .sort(byName),
  };
}

/**
 * The tools a request would send, with their tiers (`tierOf` is undefined for a tool the run may
 * not see or would not send). A deferring request sends only pinned (Toolshed's own included) and
 * activated tools, so those are looked up instead of scanning every tool: the scan cost ~4 ms per
 * `tool_search` at 3,258 tools, more than the search.
 */
export function sendCandidates(source: {
  defers: boolean;
  registry: ReadonlyMap<string, ToolRecord>;
  pinned: () => readonly ToolRecord[];
  activated: () => readonly string[];
  tierOf: (record: ToolRecord) => SendTier | undefined;
}): SendCandidate[] {
  const candidates: SendCandidate[] = [];
  const consider = (record: ToolRecord) => {
    const tier = source.tierOf(record);
    if (tier !== undefined) candidates.push({ record, tier });
  };
  if (!source.defers) {
    for (const record of source.registry.values()) consider(record);
    return candidates;
  }
  for (const record of source.pinned()) consider(record);
  for (const name of source.activated()) {
    const record = source.registry.get(name);
    if (record && record.loadingMode !== 'always') consider(record);
  }
  return candidates;
}
