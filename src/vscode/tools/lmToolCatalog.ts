import * as vscode from 'vscode';
import { TOOLSHED_TOOL_NAMES } from '../../core/config/settingsSchema';
import { HostToolCatalog } from '../../core/tools/hostToolCatalog';
import type { ToolInput } from '../../core/tools/toolRecord';
import type { ToolSearchService } from '../../core/tools/toolSearchService';
import type { Logger } from '../../core/platform/ports';

/**
 * Without a change event: how often the tool list is read and identity-checked (off the search
 * path), and so how stale a `tool_search` catalog may be at most.
 */
const POLL_MS = 1000;

type ToolsChangedEvent = (listener: () => void) => vscode.Disposable;

/**
 * Keeps the tool-search catalog equal to `vscode.lm.tools` (built-in, extension and MCP tools):
 * synced at activation and whenever the tool list changes — on `vscode.lm.onDidChangeTools`
 * where the host has it, else by an identity check of the list every second — so MCP tools are
 * indexed (and counted in the sidebar) as soon as their servers publish them. Callers still
 * `sync()` before use, which costs O(1) unless the list changed (event) or the last check is
 * older than a second; `sync({ fresh: true })` re-reads the list now.
 */
export class LmToolCatalog implements vscode.Disposable {
  private readonly host: HostToolCatalog<vscode.LanguageModelToolInformation>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    service: ToolSearchService,
    private readonly logger: Logger,
    readTools: () => readonly vscode.LanguageModelToolInformation[] = () => vscode.lm.tools,
    /** Tools only Toolshed can run (skill scripts), catalogued beside the `vscode.lm` ones. */
    ownTools: () => readonly ToolInput[] = () => [],
    changeEvent: ToolsChangedEvent | undefined = toolsChangedEvent(),
  ) {
    this.host = new HostToolCatalog({ service, logger, readTools, toInput: toToolInput, extraInputs: ownTools, hasChangeEvent: changeEvent !== undefined, maxStaleMs: POLL_MS });
    if (changeEvent) {
      this.disposables.push(changeEvent(() => {
        this.host.markChanged();
        this.syncInBackground();
      }));
    } else {
      const timer = setInterval(() => this.syncInBackground(), POLL_MS);
      timer.unref?.();
      this.disposables.push(new vscode.Disposable(() => clearInterval(timer)));
    }
  }

  /** Syncs when `vscode.lm.tools` changed (see the class comment). Returns the catalog size. */
  sync(options: { fresh?: boolean } = {}): number {
    return this.host.sync(options).size;
  }

  /** A sync nobody waits for (event, poll, activation): re-reads now; a failure is logged, never thrown. */
  syncInBackground(): void {
    try {
      this.sync({ fresh: true });
    } catch (error) {
      this.logger.warn(`Tool catalog sync failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Deferred tools in the registry (recounted only after a catalog or settings change). */
  deferredCount(): number {
    return this.host.deferredCount();
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/** `vscode.lm.onDidChangeTools` when this VS Code has it (not in every version's API). */
function toolsChangedEvent(): ToolsChangedEvent | undefined {
  const event = (vscode.lm as { onDidChangeTools?: unknown }).onDidChangeTools;
  return typeof event === 'function' ? (event as ToolsChangedEvent) : undefined;
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
