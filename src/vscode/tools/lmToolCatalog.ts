import * as vscode from 'vscode';
import { TOOLSHED_TOOL_NAMES } from '../../core/platform/toolNames';
import { HOST_LIST_MAX_STALE_MS, HostToolCatalog, pollHostToolList } from '../../core/tools/hostToolCatalog';
import type { NameFinder } from '../../core/search/nameFinder';
import type { ToolInput, ToolRecord } from '../../core/tools/toolRecord';
import type { ToolSearchService } from '../../core/tools/toolSearchService';
import type { Logger } from '../../core/platform/ports';

type ToolsChangedEvent = (listener: () => void) => vscode.Disposable;

interface LmToolCatalogOptions {
  /** The host's tool list (default `vscode.lm.tools`). */
  readTools?: () => readonly vscode.LanguageModelToolInformation[];
  /** Tools only Toolshed can run (the skill scripts), catalogued beside the `vscode.lm` ones. */
  ownTools?: { toolInputs(): readonly ToolInput[] };
  /** The host's tool-change event (default `vscode.lm.onDidChangeTools` where it exists; undefined = poll). */
  changeEvent?: ToolsChangedEvent;
  /** Hears the count of deferred tools after each `syncCounted` (the activity registry: the sidebar shows it). */
  deferredCounts?: { setDeferredCatalogSize(size: number): void };
}

/** Whether MCP servers are still publishing tools (the participant waits, with progress). */
export interface ToolCatalogSettling {
  readonly isSettling: boolean;
  /** Resolves once no tool changed for the quiet period, or after `maxMs`; true when it had to wait. */
  settle(maxMs?: number, token?: vscode.CancellationToken): Promise<boolean>;
  /** A change seen by other means (tests stand in for a starting MCP server with it). */
  recordChange(): void;
}

/**
 * Keeps the tool-search catalog equal to `vscode.lm.tools` (built-in, extension and MCP tools):
 * synced at activation and whenever the tool list changes — on `vscode.lm.onDidChangeTools`
 * where the host has it, else by an identity check of the list every second (5× a second while
 * MCP servers are publishing tools) — so MCP tools are indexed (and counted in the sidebar) as
 * soon as their servers publish them. That same read tells whether the list is settling: there
 * is one reader of `vscode.lm.tools`. Callers still `sync()` before use, which costs O(1)
 * unless the list changed (event) or the poll stalled for a few seconds; `sync({ fresh: true })`
 * re-reads the list now.
 */
export class LmToolCatalog implements vscode.Disposable, ToolCatalogSettling {
  private readonly host: HostToolCatalog<vscode.LanguageModelToolInformation>;
  private readonly disposables: vscode.Disposable[] = [];

  private readonly deferredCounts: { setDeferredCatalogSize(size: number): void } | undefined;

  constructor(
    service: ToolSearchService,
    private readonly logger: Logger,
    options: LmToolCatalogOptions = {},
  ) {
    const { readTools = () => vscode.lm.tools, ownTools } = options;
    const changeEvent = 'changeEvent' in options ? options.changeEvent : toolsChangedEvent();
    this.deferredCounts = options.deferredCounts;
    this.host = new HostToolCatalog({
      service,
      logger,
      readTools,
      toInput: toToolInput,
      extraInputs: () => ownTools?.toolInputs() ?? [],
      hasChangeEvent: changeEvent !== undefined,
      maxStaleMs: HOST_LIST_MAX_STALE_MS,
    });
    if (changeEvent) {
      this.disposables.push(
        changeEvent(() => {
          this.host.markChanged();
          this.syncInBackground();
        }),
      );
    } else {
      this.disposables.push(pollHostToolList(this.host, (error) => this.logSyncFailure(error)));
    }
  }

  get isSettling(): boolean {
    return this.host.isSettling;
  }

  async settle(maxMs = 5000, token?: vscode.CancellationToken): Promise<boolean> {
    if (!this.isSettling) return false;
    const deadline = Date.now() + maxMs;
    while (this.isSettling && Date.now() < deadline && !token?.isCancellationRequested) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return true;
  }

  recordChange(): void {
    this.host.recordChange();
  }

  /** Syncs when `vscode.lm.tools` changed (see the class comment). Returns the catalog size. */
  sync(options: { fresh?: boolean } = {}): number {
    return this.host.sync(options).size;
  }

  /**
   * What an adapter calls before it uses the catalog (`services.syncToolCatalog`): `sync`, then
   * the deferred count to `deferredCounts`. Bound, so it can be handed on as it is.
   */
  readonly syncCounted = (options: { fresh?: boolean } = {}): number => {
    const size = this.sync(options);
    this.deferredCounts?.setDeferredCatalogSize(this.deferredCount());
    return size;
  };

  /** A sync nobody waits for (event, poll, activation): re-reads now; a failure is logged, never thrown. */
  syncInBackground(): void {
    try {
      this.sync({ fresh: true });
    } catch (error) {
      this.logSyncFailure(error);
    }
  }

  private logSyncFailure(error: unknown): void {
    this.logger.warn(`Tool catalog sync failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Every tool name of the last read, indexed for finding names in text (see HostToolCatalog.toolNames). */
  toolNames(): NameFinder {
    this.host.sync(); // O(1) unless never read or the poll stalled
    return this.host.toolNames();
  }

  /** Deferred tools in the registry (recounted only after a catalog or settings change). */
  deferredCount(): number {
    return this.host.deferredCount();
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/**
 * The run-time visibility of catalogued tools (`services.toolVisibility`; fail closed: a hidden
 * tool is not executable either). Policy (allow/deny) is applied by the tool service itself;
 * nothing is hidden by trust today: tool_invoke is refused instead.
 */
export function runToolVisibility(): (tool: ToolRecord) => boolean {
  return () => true;
}

/** `vscode.lm.onDidChangeTools` when this VS Code has it (not in every version's API). */
function toolsChangedEvent(): ToolsChangedEvent | undefined {
  const event = (vscode.lm as { onDidChangeTools?: unknown }).onDidChangeTools;
  return typeof event === 'function' ? (event as ToolsChangedEvent) : undefined;
}

/** Where a tool comes from, judged by VS Code's naming conventions. */
function toolSourceOf(name: string): string {
  if (name.startsWith('mcp_')) return 'mcp';
  if (/^(copilot_|vscode_|run_in_terminal|get_|manage_|runTests|runSubagent)/.test(name)) return 'builtin';
  if ((TOOLSHED_TOOL_NAMES as readonly string[]).includes(name)) return 'toolshed';
  return 'extension';
}

function toToolInput(tool: vscode.LanguageModelToolInformation): ToolInput {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    tags: [...tool.tags],
    source: toolSourceOf(tool.name),
  };
}
