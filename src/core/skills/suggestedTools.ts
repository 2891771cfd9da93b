import { toolNameOfAllowed } from './packs/document/allowedToolsList';
import { TOOLSHED_TOOL_NAMES } from '../platform/toolNames';
import type { SkillRecord } from './skillSchema';
import type { ToolReferenceGate } from './render/toolReferenceGate';

/**
 * Tools from skills (docs/skills.md#tools-from-skills): the tools a returned skill names in `tools` /
 * `allowed-tools` that this run may use, as `suggested_tools`. Fail closed: a name is suggested
 * only when the request's tool gate answers `visible` or `activatable` — never for a denied,
 * hidden or unknown name, and never without a gate (the CLI has no run to ask). Toolshed's own
 * tools are left out: the loop decides those (some are hidden from it), and they are not what a
 * skill's procedure needs.
 */

/** A skill cannot flood the model's tool list: at most this many suggestions per result. */
export const MAX_SUGGESTED_TOOLS = 8;

const OWN_TOOLS: ReadonlySet<string> = new Set(TOOLSHED_TOOL_NAMES);

/**
 * Suggested tool names for `records` (in their given order, each skill's tools in declaration
 * order, first mention wins), bounded by `limit`.
 */
export function suggestedTools(
  records: readonly Pick<SkillRecord, 'tools' | 'allowed_tools'>[],
  gate: ToolReferenceGate,
  limit = MAX_SUGGESTED_TOOLS,
): string[] {
  if (!gate.active || limit <= 0) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    for (const name of [...record.tools.map((t) => t.tool.trim()), ...record.allowed_tools.map(toolNameOfAllowed)]) {
      if (out.length >= limit) return out;
      if (!name || seen.has(name)) continue;
      seen.add(name);
      if (!OWN_TOOLS.has(name) && gate.isUsable(name)) out.push(name);
    }
  }
  return out;
}
