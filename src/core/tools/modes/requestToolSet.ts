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
    sent: ordered.slice(0, cap).map((c) => c.record).sort(byName),
    overCap: ordered.slice(cap).map((c) => c.record).sort(byName),
  };
}
