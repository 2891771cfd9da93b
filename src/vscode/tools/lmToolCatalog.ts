import * as vscode from 'vscode';
import { TOOLSHED_TOOL_NAMES } from '../../core/config/settingsSchema';
import type { ToolInput } from '../../core/tools/toolRecord';
import type { ToolSearchService } from '../../core/tools/toolSearchService';
import type { Logger } from '../../core/platform/ports';

/**
 * Keeps the tool-search catalog equal to `vscode.lm.tools` (built-in, extension and MCP tools).
 *
 * VS Code has no "tools changed" event, so the catalog is re-synced lazily right before it is
 * used (every chat request, tool_search and tool_invoke call) and when extensions change. A
 * cheap fingerprint makes a sync with nothing new cost microseconds; the service then
 * re-indexes only the records whose hash changed.
 */
export class LmToolCatalog {
  private fingerprint = '';

  constructor(
    private readonly service: ToolSearchService,
    private readonly logger: Logger,
    private readonly readTools: () => readonly vscode.LanguageModelToolInformation[] = () => vscode.lm.tools,
    /** Tools only Toolshed can run (skill scripts), catalogued beside the `vscode.lm` ones. */
    private readonly ownTools: () => readonly ToolInput[] = () => [],
  ) {}

  /** Syncs when `vscode.lm.tools` (or Toolshed's own tools) changed since the last call. Returns the catalog size. */
  sync(): number {
    const tools = this.readTools();
    const own = this.ownTools();
    const fingerprint = [...tools, ...own].map((t) => `${t.name}\u0001${t.description?.length}\u0001${t.tags?.join(',')}\u0001${JSON.stringify(t.inputSchema ?? null).length}`).join('\u0002');
    if (fingerprint !== this.fingerprint) {
      const report = this.service.setTools([...tools.map(toToolInput), ...own]);
      this.fingerprint = fingerprint;
      this.logger.debug(`Tool catalog synced: ${tools.length} tools (+${report.added} ~${report.updated} -${report.removed})`);
    }
    return tools.length;
  }
}

/** Where a tool comes from, judged by VS Code's naming conventions. */
export function toolSourceOf(name: string): string {
  if (name.startsWith('mcp_')) return 'mcp';
  if (/^(copilot_|vscode_|run_in_terminal|get_|manage_|runTests|runSubagent)/.test(name)) return 'builtin';
  if ((TOOLSHED_TOOL_NAMES as readonly string[]).includes(name)) return 'toolshed';
  return 'extension';
}

export function toToolInput(tool: vscode.LanguageModelToolInformation): ToolInput {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    tags: [...tool.tags],
    source: toolSourceOf(tool.name),
  };
}
