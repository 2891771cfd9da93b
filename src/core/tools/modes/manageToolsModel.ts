import type { ToolState } from '../../config/settingsSchema';
import { ToolStates } from './toolStates';

/**
 * The data behind **Toolshed: Manage Tools…**: tools grouped by where they come from
 * (built-in, extension, Toolshed, each MCP server) with the user's current state, and the
 * edit of `toolshed.tools.state` that a choice makes. Pure, so the quick pick stays thin.
 */

export interface ManageableTool {
  name: string;
  /** `builtin`, `extension`, `toolshed` or `mcp`. */
  source: string;
}

export interface ToolGroup {
  /** Separator label: "Built-in", "Extensions", "Toolshed", "MCP server github". */
  label: string;
  /** Set for an MCP server: the server id in tool names (`mcp_<server>_…`). */
  server?: string;
  tools: Array<{ name: string; state: ToolState | undefined }>;
}

export type StateChoice = ToolState | 'default';

export type StateTarget = { kind: 'tool'; name: string } | { kind: 'server'; server: string };

/** `mcp_github_create_issue` → `github` (VS Code's MCP tool naming). */
export function mcpServerOf(name: string): string | undefined {
  return /^mcp_([A-Za-z0-9-]+)_/.exec(name)?.[1];
}

export function serverPattern(server: string): string {
  return `mcp_${server}_*`;
}

const SOURCE_ORDER = ['builtin', 'extension', 'toolshed'];
const SOURCE_LABEL: Record<string, string> = { builtin: 'Built-in', extension: 'Extensions', toolshed: 'Toolshed' };

export function groupToolsBySource(tools: readonly ManageableTool[], stateMap: Readonly<Record<string, ToolState>>): ToolGroup[] {
  const states = new ToolStates(stateMap);
  const groups = new Map<string, ToolGroup>();
  for (const tool of [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const server = tool.source === 'mcp' ? mcpServerOf(tool.name) : undefined;
    const key = server ? `mcp:${server}` : tool.source;
    let group = groups.get(key);
    if (!group) {
      group = server ? { label: `MCP server ${server}`, server, tools: [] } : { label: SOURCE_LABEL[tool.source] ?? tool.source, tools: [] };
      groups.set(key, group);
    }
    group.tools.push({ name: tool.name, state: states.stateOf(tool.name) });
  }
  const rank = (key: string) => (key.startsWith('mcp:') ? SOURCE_ORDER.length : SOURCE_ORDER.indexOf(key) === -1 ? SOURCE_ORDER.length - 0.5 : SOURCE_ORDER.indexOf(key));
  return [...groups.entries()].sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1)).map(([, group]) => group);
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
