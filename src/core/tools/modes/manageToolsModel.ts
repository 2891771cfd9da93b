import type { ToolState } from '../../config/settingsSchema';
import { ToolStates } from './toolStates';
import type { ToolSource } from './toolSources';

/**
 * The data behind **Toolshed: Manage Tools…**: tools grouped by where they come from
 * (built-in, extension, Toolshed, each MCP server) with the user's current state, and the
 * edit of `toolshed.tools.state` that a choice makes. Pure, so the quick pick stays thin.
 */

export interface ManageableTool {
  name: string;
  /** Where it comes from (see toolSources.ts). */
  source: ToolSource;
}

export interface ToolGroup {
  /** Separator label: "Built-in (VS Code)", "Extension GitHub Copilot Chat", "Toolshed", "MCP server memory". */
  label: string;
  /** Set for an MCP server: the server id in tool names (`mcp_<server>_…`). */
  server?: string;
  /** For an MCP server: its name in `mcp.json` when known, else the server id. */
  serverLabel?: string;
  tools: Array<{ name: string; state: ToolState | undefined }>;
}

export type StateChoice = ToolState | 'default';

export type StateTarget = { kind: 'tool'; name: string } | { kind: 'server'; server: string };

function serverPattern(server: string): string {
  return `mcp_${server}_*`;
}

/** Group key, label and rank (VS Code's own first, then Toolshed, extensions, MCP servers). */
function groupOf(source: ToolSource): { key: string; label: string; rank: number; server?: string; serverLabel?: string } {
  switch (source.kind) {
    case 'builtin':
      return { key: 'builtin', label: 'Built-in (VS Code)', rank: 0 };
    case 'toolshed':
      return { key: 'toolshed', label: 'Toolshed', rank: 1 };
    case 'extension':
      return { key: `extension:${source.extension}`, label: `Extension ${source.extension}`, rank: 2 };
    case 'mcp':
      return { key: `mcp:${source.server}`, label: `MCP server ${source.label}`, rank: 3, server: source.server, serverLabel: source.label };
  }
}

export function groupToolsBySource(tools: readonly ManageableTool[], stateMap: Readonly<Record<string, ToolState>>): ToolGroup[] {
  const states = new ToolStates(stateMap);
  const groups = new Map<string, { rank: number; group: ToolGroup }>();
  for (const tool of [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const { key, label, rank, server, serverLabel } = groupOf(tool.source);
    let entry = groups.get(key);
    if (!entry) {
      entry = { rank, group: { label, ...(server ? { server, serverLabel } : {}), tools: [] } };
      groups.set(key, entry);
    }
    entry.group.tools.push({ name: tool.name, state: states.stateOf(tool.name) });
  }
  return [...groups.entries()].sort(([a, x], [b, y]) => x.rank - y.rank || (a < b ? -1 : 1)).map(([, entry]) => entry.group);
}

/**
 * The new `toolshed.tools.state` value after a choice. A server choice replaces the entries
 * that named single tools of that server (so "all off" means all), and `default` removes the
 * user's entry. Other entries are kept as they are, in order.
 */
export function applyStateChoice(current: Readonly<Record<string, unknown>>, target: StateTarget, choice: StateChoice): Record<string, ToolState> {
  const next: Record<string, ToolState> = {};
  const key = target.kind === 'tool' ? target.name : serverPattern(target.server);
  const prefix = target.kind === 'server' ? `mcp_${target.server}_` : undefined;
  for (const [pattern, state] of Object.entries(current ?? {})) {
    if (pattern === key) continue;
    if (prefix && pattern.startsWith(prefix) && !/[*?[\]{}]/.test(pattern)) continue;
    if (state === 'always' || state === 'deferred' || state === 'off') next[pattern] = state;
  }
  if (choice !== 'default') next[key] = choice;
  return next;
}
