import type { Logger } from '../platform/ports';
import { NameFinder } from '../search/nameFinder';
import { ToolListSettling } from './toolListSettling';
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
 *   read: ~1 ms at 20k tools, as much as a search), so `pollHostToolList` reads it off the
 *   search path (every `HOST_LIST_POLL_MS`, faster while the list is settling) and `sync()`
 *   re-reads only when the last read is older than `maxStaleMs` (the poll stalled);
 *   `sync({ fresh: true })` always re-reads (e.g. before resolving a tool the model names).
 * - Every read that adds, removes or redefines a tool (after the first) is a change for
 *   `isSettling`: MCP servers still publishing tools. One reader serves both, so a large list
 *   is read once per poll, not once per poll and once per settling sample.
 * - Either way, a re-read list whose elements are the very objects of the previous read (VS Code
 *   caches one frozen object per tool until that tool changes) is recognised by identity.
 * - Each host object is converted to a ToolInput once (cached by object identity), so the
 *   catalog's own identity fast path applies to every unchanged tool; a changed tool (a new
 *   object) is compared by content there and by its record hash (docs/contracts.md#hashes) in the index —
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
  /** How long the list must stay unchanged before it no longer counts as settling (default 800). */
  settlingQuietMs?: number;
}

/** Without a host change event: how often the host's list is read, off the search path. */
export const HOST_LIST_POLL_MS = 1000;
/** The same while the list is settling (servers publishing tools), to see the quiet moment soon. */
export const HOST_LIST_SETTLING_POLL_MS = 200;
/**
 * How stale the catalog may be before the search path reads the list itself: a few missed polls
 * (a busy host delays timers). While the poll keeps up, no search pays for a read.
 */
export const HOST_LIST_MAX_STALE_MS = 3 * HOST_LIST_POLL_MS;

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
  private readonly settling: ToolListSettling;
  private nameFinder: { tools: readonly T[]; extras: readonly ToolInput[]; finder: NameFinder } | undefined;

  constructor(private readonly options: HostToolCatalogOptions<T>) {
    this.settling = new ToolListSettling(options.settlingQuietMs ?? 800, () => this.now());
  }

  /** The host said its tool list changed (the next `sync()` re-reads it). */
  markChanged(): void {
    this.stale = true;
  }

  /** Whether tools were added, removed or redefined less than the quiet period ago. */
  get isSettling(): boolean {
    return this.settling.isSettling;
  }

  /** A change seen by other means counts as one seen by a read (tests stand in for a starting server). */
  recordChange(): void {
    this.settling.recordChange();
  }

  /** When the poll should read the list next. */
  pollDelayMs(): number {
    return this.isSettling ? HOST_LIST_SETTLING_POLL_MS : HOST_LIST_POLL_MS;
  }

  /** Brings the catalog up to date when the host's list changed. */
  sync(options: { fresh?: boolean } = {}): HostSyncResult {
    if (!options.fresh && !this.stale && this.options.hasChangeEvent) return { size: this.previous.length + this.previousExtras.length, changed: false };
    if (!options.fresh && !this.options.hasChangeEvent && this.now() - this.lastRead < (this.options.maxStaleMs ?? 0)) {
      return { size: this.previous.length + this.previousExtras.length, changed: false };
    }
    const firstRead = this.lastRead === -Infinity;
    const tools = this.options.readTools();
    const extras = this.options.extraInputs?.() ?? [];
    this.lastRead = this.now();
    this.stale = false;
    const size = tools.length + extras.length;
    if (sameElements(tools, this.previous) && sameElements(extras, this.previousExtras)) return { size, changed: false };
    const inputs = [...tools.map((tool) => this.inputOf(tool)), ...extras];
    const report = this.options.service.setTools(inputs);
    this.previous = tools;
    this.previousExtras = extras;
    // A reordered list is no change; the first read is the baseline.
    if (!firstRead && report.added + report.updated + report.removed > 0) this.settling.recordChange();
    this.options.logger.debug(
      `Tool catalog synced: ${tools.length} tools${extras.length ? ` + ${extras.length} of Toolshed's own` : ''} (+${report.added} ~${report.updated} -${report.removed})`,
    );
    return { size, changed: true };
  }

  /**
   * The names of the last read (host tools and Toolshed's own), indexed for finding them in text;
   * rebuilt only after the list changed, so a request pays nothing per tool.
   */
  toolNames(): NameFinder {
    const { previous: tools, previousExtras: extras } = this;
    if (this.nameFinder?.tools !== tools || this.nameFinder.extras !== extras) {
      const names = [...tools.map((tool) => this.inputOf(tool).name), ...extras.map((extra) => extra.name)];
      this.nameFinder = { tools, extras, finder: new NameFinder(names) };
    }
    return this.nameFinder.finder;
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

  private now(): number {
    return (this.options.now ?? performance.now.bind(performance))();
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

/**
 * Reads the host's list off the search path, every `HOST_LIST_POLL_MS` (every
 * `HOST_LIST_SETTLING_POLL_MS` while it is settling), until disposed. Timers are unreferenced:
 * a poll never keeps a process alive. A failed read is reported and the poll goes on.
 */
export function pollHostToolList<T extends object>(
  catalog: HostToolCatalog<T>,
  onError: (error: unknown) => void,
  timers: PollTimers = { setTimeout, clearTimeout },
): { dispose(): void } {
  let timer: unknown;
  let disposed = false;
  const schedule = () => {
    if (disposed) return;
    timer = timers.setTimeout(() => {
      try {
        catalog.sync({ fresh: true });
      } catch (error) {
        onError(error);
      }
      schedule();
    }, catalog.pollDelayMs());
    (timer as { unref?: () => void } | undefined)?.unref?.();
  };
  schedule();
  return {
    dispose() {
      disposed = true;
      if (timer !== undefined) timers.clearTimeout(timer as ReturnType<typeof setTimeout>);
    },
  };
}

/** The timer functions the poll uses (tests drive a clock of their own). */
export interface PollTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: ReturnType<typeof setTimeout>): void;
}

/** Same length and the same object at every position (what an unchanged host list looks like). */
function sameElements<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
