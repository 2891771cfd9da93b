/**
 * The one home of the gateway's tool names: an upstream tool `create_issue` of the server the
 * user called `github` is served as `mcp_github_create_issue` — the way VS Code names MCP tools,
 * so Toolshed's namespace derivation (`mcp_<server>_…` → `github`), settings globs
 * (`mcp_github_*`) and the learned data already read it. Names keep to `[A-Za-z0-9_-]` and 64
 * characters, what model APIs accept for a function name. The mapping is kept, never parsed
 * back from the name: a tool or server name may itself contain `_`.
 */

export interface UpstreamToolRef {
  /** The upstream's slug (UpstreamSpec.slug). */
  server: string;
  /** The tool's own name on that server. */
  tool: string;
}

const MAX_NAME_LENGTH = 64;

/** The server's part of a name: letters, digits and `-` only (the `mcp_<server>_` pattern), lower case. */
export function serverSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24);
  return slug || 'server';
}

function baseName(server: string, tool: string): string {
  const safeTool = tool.replace(/[^A-Za-z0-9_-]/g, '_') || 'tool';
  return `mcp_${server}_${safeTool}`.slice(0, MAX_NAME_LENGTH);
}

export class GatewayNames {
  private readonly refs = new Map<string, UpstreamToolRef>();
  private readonly byServer = new Map<string, Map<string, string>>();

  /** Names the server's current tools (a tool keeps its name while listed); returns them in order. */
  setServerTools(server: string, tools: readonly string[]): string[] {
    const previous = this.byServer.get(server) ?? new Map<string, string>();
    for (const name of previous.values()) this.refs.delete(name);
    const next = new Map<string, string>();
    for (const tool of tools) {
      if (next.has(tool)) continue;
      let name = previous.get(tool);
      if (!name || this.refs.has(name)) {
        const base = baseName(server, tool);
        name = base;
        for (let n = 2; this.refs.has(name); n++) name = `${base.slice(0, MAX_NAME_LENGTH - String(n).length - 1)}_${n}`;
      }
      this.refs.set(name, { server, tool });
      next.set(tool, name);
    }
    this.byServer.set(server, next);
    return [...next.values()];
  }

  resolve(name: string): UpstreamToolRef | undefined {
    return this.refs.get(name);
  }

  nameOf(server: string, tool: string): string | undefined {
    return this.byServer.get(server)?.get(tool);
  }

  /** Every served name with its upstream tool. */
  entries(): IterableIterator<[string, UpstreamToolRef]> {
    return this.refs.entries();
  }
}
