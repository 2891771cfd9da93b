import type { Logger } from '../platform/ports';
import type { ToolInput } from './toolRecord';
import type { ToolSearchService } from './toolSearchService';

/**
 * Keeps the tool-search catalog equal to the host's tool list (`vscode.lm.tools`) at the cost of
 * a pointer comparison per tool when nothing changed — the search path calls `sync()` before
 * every `tool_search`, so a sync with nothing new must not re-read or re-hash the catalog.
 *
 * - With a host change event (`vscode.lm.onDidChangeTools`, when the host has it) the list is
 *   re-read only after the event fired: `sync()` is O(1) otherwise.
 * - Without one, reading the host's list is itself O(tools) (VS Code builds a new array per
 *   read: ~1 ms at 20k tools, as much as a search), so the adapter polls it off the search path
 *   and `sync()` re-reads only when the last read is older than `maxStaleMs`; `sync({ fresh:
 *   true })` always re-reads (e.g. before resolving a tool the model names).
 * - Either way, a re-read list whose elements are the very objects of the previous read (VS Code
 *   caches one frozen object per tool until that tool changes) is recognised by identity.
 * - Each host object is converted to a ToolInput once (cached by object identity), so the
 *   catalog's own identity fast path applies to every unchanged tool; a changed tool (a new
 *   object) is compared by content there and by its record hash (RFC Appendix B) in the index —
 *   never by a length or other lossy fingerprint.
 */

export interface HostToolCatalogOptions<T extends object> {
  service: ToolSearchService;
  logger: Logger;
  /** Reads the host's current tool list. */
  readTools: () => readonly T[];
  /** Converts one host tool (called once per host object). */
  toInput: (tool: T) => ToolInput;
  /**
   * Tools only Toolshed can run (skill scripts), catalogued beside the host's. Read on every
   * re-read of the host list; an unchanged result should return the same objects.
   */
  extraInputs?: () => readonly ToolInput[];
  /** True when the host notifies changes (then `markChanged` is wired to that notification). */
  hasChangeEvent: boolean;
  /** Without a change event: how old the last read may be before `sync()` reads again (default 0). */
  maxStaleMs?: number;
  /** Milliseconds clock (default `performance.now`). */
  now?: () => number;
}

export interface HostSyncResult {
  /** Tools the host reports. */
  size: number;
  /** True when the catalog was handed a changed list. */
  changed: boolean;
}

export class HostToolCatalog<T extends object> {
  private previous: readonly T[] = [];
  private previousExtras: readonly ToolInput[] = [];
  private readonly converted = new WeakMap<T, ToolInput>();
  /** Something may have changed since the last read (always true without a change event). */
  private stale = true;
  private deferred = { version: -1, count: 0 };
  private lastRead = -Infinity;

  constructor(private readonly options: HostToolCatalogOptions<T>) {}

  /** The host said its tool list changed (the next `sync()` re-reads it). */
  markChanged(): void {
    this.stale = true;
  }

  /** Brings the catalog up to date when the host's list changed. */
  sync(options: { fresh?: boolean } = {}): HostSyncResult {
    const now = this.options.now ?? (() => performance.now());
    if (!options.fresh && !this.stale && this.options.hasChangeEvent) return { size: this.previous.length + this.previousExtras.length, changed: false };
    if (!options.fresh && !this.options.hasChangeEvent && now() - this.lastRead < (this.options.maxStaleMs ?? 0)) {
      return { size: this.previous.length + this.previousExtras.length, changed: false };
    }
    const tools = this.options.readTools();
    const extras = this.options.extraInputs?.() ?? [];
    this.lastRead = now();
    this.stale = false;
    const size = tools.length + extras.length;
    if (sameElements(tools, this.previous) && sameElements(extras, this.previousExtras)) return { size, changed: false };
    const inputs = [...tools.map((tool) => this.inputOf(tool)), ...extras];
    const report = this.options.service.setTools(inputs);
    this.previous = tools;
    this.previousExtras = extras;
    this.options.logger.debug(`Tool catalog synced: ${tools.length} tools${extras.length ? ` + ${extras.length} of Toolshed's own` : ''} (+${report.added} ~${report.updated} -${report.removed})`);
    return { size, changed: true };
  }

  /** Registry tools that load deferred (the sidebar's count); recounted only after a catalog change. */
  deferredCount(): number {
    const version = this.options.service.catalogVersion;
    if (version !== this.deferred.version) {
      let count = 0;
      for (const record of this.options.service.registryMap().values()) if (record.loadingMode === 'deferred') count++;
      this.deferred = { version, count };
    }
    return this.deferred.count;
  }

  private inputOf(tool: T): ToolInput {
    let input = this.converted.get(tool);
    if (!input) {
      input = this.options.toInput(tool);
      this.converted.set(tool, input);
    }
    return input;
  }
}

/** Same length and the same object at every position (what an unchanged host list looks like). */
function sameElements<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
