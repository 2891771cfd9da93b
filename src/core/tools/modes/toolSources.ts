/**
 * Where a tool comes from, told from what VS Code gives an extension rather than from its name:
 * MCP tools carry the tag `mcp`; an extension's tools are declared in its manifest
 * (`contributes.languageModelTools`); what neither declares nor tags is VS Code's own. An MCP
 * tool's name starts with a prefix VS Code derives from the server's own (possibly truncated)
 * name — `mcp_memory-server_…`, `mcp_secure-filesy_…` — so the server is shown under the name
 * the user gave it in `mcp.json` when that prefix matches one definition; else the prefix.
 */

/** `mcp_github_create_issue` → `github` (VS Code's MCP tool naming). */
function mcpServerOf(name: string): string | undefined {
  return /^mcp_([A-Za-z0-9.-]+)_/.exec(name)?.[1];
}

export interface HostToolFacts {
  name: string;
  tags: readonly string[];
}

export interface McpServerConfig {
  /** The key in `mcp.json` ("memory", "filesystem"). */
  name: string;
  command?: string;
  args?: readonly string[];
  url?: string;
}

export type ToolSource =
  | { kind: 'toolshed' }
  | { kind: 'builtin' }
  | { kind: 'extension'; extension: string }
  /** `server`: the id in tool names (for `mcp_<server>_*`); `label`: the mcp.json name when known. */
  | { kind: 'mcp'; server: string; label: string };

export interface SourceFacts {
  ownTools: ReadonlySet<string>;
  /** The display name of the extension whose manifest declares the tool, if any. */
  declaredBy(name: string): string | undefined;
  mcpServers: readonly McpServerConfig[];
}

export function toolSourceFrom(tool: HostToolFacts, facts: SourceFacts): ToolSource {
  if (facts.ownTools.has(tool.name)) return { kind: 'toolshed' };
  const server = mcpServerOf(tool.name);
  if (tool.tags.includes('mcp') && server) return { kind: 'mcp', server, label: mcpServerLabel(server, facts.mcpServers) };
  const extension = facts.declaredBy(tool.name);
  if (extension) return { kind: 'extension', extension };
  // Untagged, undeclared, yet named like an MCP tool: an extension registering MCP-style tools at run time.
  if (server) return { kind: 'mcp', server, label: mcpServerLabel(server, facts.mcpServers) };
  return { kind: 'builtin' };
}

/** Words that say nothing about which server it is. */
const GENERIC = new Set([
  'mcp',
  'server',
  'servers',
  'modelcontextprotocol',
  'npx',
  'node',
  'uvx',
  'python',
  'python3',
  'docker',
  'run',
  'stdio',
  'http',
  'https',
  'com',
  'org',
  'latest',
  'index',
  'dist',
]);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3 && !GENERIC.has(word) && !/^\d+$/.test(word));
}

/**
 * The `mcp.json` name of the server behind a tool-name prefix: the one definition whose name,
 * command or arguments share the most words with the prefix (a truncated word counts, as VS Code
 * cuts prefixes short); the prefix itself when none or several match equally.
 */
export function mcpServerLabel(prefix: string, servers: readonly McpServerConfig[]): string {
  const exact = servers.find((server) => server.name.toLowerCase() === prefix.toLowerCase());
  if (exact) return exact.name;
  const prefixWords = words(prefix);
  let best: { name: string; score: number } | undefined;
  let tie = false;
  for (const server of servers) {
    const own = words([server.name, server.command ?? '', ...(server.args ?? []), server.url ?? ''].join(' '));
    const score = prefixWords.filter((word) => own.some((w) => w.startsWith(word) || word.startsWith(w))).length;
    if (score === 0) continue;
    if (!best || score > best.score) {
      best = { name: server.name, score };
      tie = false;
    } else if (score === best.score && server.name !== best.name) {
      // One server may be read twice (VS Code also shows mcp.json as the `mcp` setting): not a tie.
      tie = true;
    }
  }
  return best && !tie ? best.name : prefix;
}

/** The server definitions of one `mcp.json` (`servers`) or settings object (`mcp.servers`); anything else is skipped. */
export function mcpServersOf(value: unknown): McpServerConfig[] {
  const servers = (value as { servers?: unknown } | undefined)?.servers;
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) return [];
  return Object.entries(servers as Record<string, unknown>).flatMap(([name, definition]) => {
    if (!definition || typeof definition !== 'object') return [];
    const d = definition as { command?: unknown; args?: unknown; url?: unknown };
    return [
      {
        name,
        ...(typeof d.command === 'string' ? { command: d.command } : {}),
        ...(Array.isArray(d.args) ? { args: d.args.filter((arg): arg is string => typeof arg === 'string') } : {}),
        ...(typeof d.url === 'string' ? { url: d.url } : {}),
      },
    ];
  });
}
