/**
 * Toolshed tool search — the one facade the VS Code layer (and the CLI) uses.
 *
 *   const service = await createToolSearchService({ engine, store, config, logger, events, clock, tokenCounter });
 *   service.setTools(vscode.lm.tools.map(t => ({ name, description, inputSchema, tags, source })));  // on every change
 *   service.setExampleFiles(parsedToolsYaml);                  // optional *.tools.yaml examples
 *   const run = await service.startRun({ sessionId, isVisible }); // per chat request
 *   run.toolDefinitions()           → [{ name, description (examples rendered), inputSchema }] to send
 *   run.promptBlocks()              → ['<tool_discovery>…'] for the system prompt
 *   run.search(input)               → { ok, output } | { ok: false, error }   (tool_search call)
 *   run.resolveCall(name)           → { ok, tool, activated } | { ok: false, error } (any tool call)
 *   run.listActivations(), run.tokenReport()
 *   run.end()                       (or service.withRun(options, async run => …))
 *   service.exportSession(id) / importSession(snapshot) / clearActivations(id?)
 *   service.listActivations()       → every session's activations, for a tree view
 *   service.onEvent(listener) / onDidChange(listener) → { dispose() }
 *   service.flush() before deactivation (persists the index).
 *
 * Contracts: only registry ∩ run-visibility tools are ever listed, found, resolved or named;
 * a refused call always gets the same error text. Session scope needs a session id (else a
 * ToolSearchConfigError, fail closed) and serialises runs of one session (startRun waits).
 * `tool_search` input JSON Schema: `toolSearchInputJsonSchema()` in toolSearchSchema.ts.
 */
import { toolExamplesConfigSchema, toolSearchConfigSchema, toolsConfigSchema } from '../config/settingsSchema';
import type { ToolExample, ToolExamplesConfig, ToolSearchConfig, ToolsConfig } from '../config/settingsSchema';
import { lengthTokenCounter, nullEventSink, nullLogger, systemClock } from '../platform/basicPorts';
import type { ByteStore, Clock, EventSink, Logger, TokenCounter, ToolshedEvent } from '../platform/ports';
import type { SqlEngine } from '../sql/sqlEngine';
import { bundledRelatedTerms } from '../search/relatedTerms';
import type { Embedder } from '../search/embedding/embedder';
import { ToolEmbeddings } from './index/toolEmbeddings';
import type { RelatedTerms } from '../search/relatedTerms';
import { BUILTIN_TOOL_EXAMPLES } from './examples/builtinToolExamples';
import { ActivationSet, SessionRegistry } from './toolActivation';
import type { SessionSnapshot } from './toolActivation';
import { exportSessionSnapshot, importSessionSnapshot, listSessionActivations } from './sessionSnapshots';
import type { SessionActivation } from './sessionSnapshots';
export type { SessionActivation } from './sessionSnapshots';
import { ToolCatalog } from './toolCatalog';
import type { ExampleProblem } from './examples/toolExamples';
import { ToolIndex } from './index/toolIndex';
import type { SyncReport } from './index/toolIndex';
import type { RankerOptions } from './index/toolRanker';
import { CompiledToolConfig } from './toolRecord';
import type { ToolInput, ToolRecord } from './toolRecord';
import { ToolRun } from './toolRun';
import { ToolStates } from './modes/toolStates';
import { ToolPickLog } from './pickPrior/toolPickLog';
import type { RunHost } from './toolRun';

const PICK_LOG_SAVE_DELAY_MS = 30_000;

export class ToolSearchConfigError extends Error {
  override readonly name = 'ToolSearchConfigError';
}

export interface ToolSearchServiceOptions {
  engine: SqlEngine;
  store: ByteStore;
  /** Settings sections (raw objects are parsed with defaults). */
  config?: { toolSearch?: Partial<ToolSearchConfig>; toolExamples?: Partial<ToolExamplesConfig>; tools?: Partial<ToolsConfig> };
  logger?: Logger;
  events?: EventSink;
  clock?: Clock;
  tokenCounter?: TokenCounter;
  /** Storage key of the index database (default `tools.db`). */
  indexKey?: string;
  /** Toolshed's built-in examples (default table); pass `{}` to disable. */
  builtinExamples?: Readonly<Record<string, readonly ToolExample[]>>;
  /** Ranking knobs (benchmarks / ablations). */
  ranker?: RankerOptions;
  /** Related-word table for query expansion (default: the shipped WordNet-derived table). */
  relatedTerms?: RelatedTerms;
  /** Delay before persisting the index after a catalog change (ms; 0 = immediately). */
  saveDelayMs?: number;
  /** Embedding model of hybrid ranking (none = lexical only); `embeddings.use` changes it. */
  embedder?: Embedder;
}

export interface StartRunOptions {
  /** Stable chat session id; required when activationScope is `session`. */
  sessionId?: string;
  /** ToolVisibilityPolicy for this run (entitlements, workspace trust…). Hidden = not executable. */
  isVisible?: (tool: ToolRecord) => boolean;
  runId?: string;
}

export interface Disposable {
  dispose(): void;
}

export class ToolSearchService {
  private readonly sessions = new SessionRegistry();
  private readonly eventListeners = new Set<(event: ToolshedEvent) => void>();
  private readonly changeListeners = new Set<() => void>();
  private runCounter = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private lastSync: SyncReport | undefined;
  private fileExamples: Record<string, ToolExample[]> = {};
  private toolsConfig: ToolsConfig;
  /** tool_search result lists and the model's picks, in the index database. */
  readonly pickLog: ToolPickLog;
  /** Hybrid ranking's embedder and tool vectors (`use` switches; undefined = lexical only). */
  readonly embeddings: ToolEmbeddings;

  constructor(
    private readonly catalog: ToolCatalog,
    private readonly index: ToolIndex,
    private readonly options: ToolSearchServiceOptions,
    private readonly logger: Logger,
    private readonly sink: EventSink,
  ) {
    this.toolsConfig = catalog.config.tools;
    this.embeddings = new ToolEmbeddings(index, () => catalog.registry(), logger);
    this.embeddings.use(options.embedder);
    this.pickLog = new ToolPickLog(
      () => this.index.companionDb,
      () => {
        this.index.markDirty();
        // Learning data is not worth a database export per search: saved within half a minute (or at flush).
        if (!this.saveTimer) this.scheduleSave(PICK_LOG_SAVE_DELAY_MS);
      },
    );
    this.index.onBeforeSave(() => {
      try {
        this.pickLog.flush();
      } catch (error) {
        this.logger.warn(`The tool pick log could not be written: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  get config(): { toolSearch: ToolSearchConfig; toolExamples: ToolExamplesConfig } {
    return { toolSearch: this.catalog.config.search, toolExamples: this.catalog.config.examples };
  }

  /** How the stored index was opened: created, loaded, or rebuilt (with the reason). */
  get indexStatus(): { status: string; rebuildReason?: string; backupKey?: string } {
    return this.index.openStatus;
  }

  get lastSyncReport(): SyncReport | undefined {
    return this.lastSync;
  }

  // ── catalog ────────────────────────────────────────────────────────────────

  /** Replaces the catalog (all of `vscode.lm.tools` plus Toolshed's own) and re-indexes what changed. */
  setTools(tools: readonly ToolInput[]): SyncReport {
    this.catalog.setTools(tools);
    return this.reindex();
  }

  upsertTools(tools: readonly ToolInput[]): SyncReport {
    this.catalog.upsertTools(tools);
    return this.reindex();
  }

  removeTools(names: readonly string[]): SyncReport {
    this.catalog.removeTools(names);
    return this.reindex();
  }

  /** Examples from `*.tools.yaml` files (see toolExamples.loadToolExampleFiles). */
  setExampleFiles(examples: Record<string, ToolExample[]>): SyncReport {
    this.fileExamples = examples;
    this.catalog.setExampleSources(this.exampleSources());
    return this.reindex();
  }

  /** New settings (e.g. on onDidChangeConfiguration). Policy and examples re-apply at once. */
  updateConfig(config: { toolSearch?: Partial<ToolSearchConfig>; toolExamples?: Partial<ToolExamplesConfig>; tools?: Partial<ToolsConfig> }): SyncReport {
    const search = toolSearchConfigSchema.parse({ ...this.catalog.config.search, ...config.toolSearch });
    const examples = toolExamplesConfigSchema.parse({ ...this.catalog.config.examples, ...config.toolExamples });
    const tools = parseToolsConfig({ ...this.toolsConfig, ...config.tools }, this.logger);
    this.toolsConfig = tools;
    this.catalog.setConfig(search, examples, tools);
    this.catalog.setExampleSources(this.exampleSources(examples));
    return this.reindex();
  }

  /** The execution registry (post ToolPolicy). For views; the model sees run-filtered lists only. */
  registry(): ToolRecord[] {
    return [...this.catalog.registry().values()];
  }

  /** The execution registry by name, without a copy (read-only; for counts and lookups). */
  registryMap(): ReadonlyMap<string, ToolRecord> {
    return this.catalog.registry();
  }

  /** Changes whenever tools, settings or example sources change (cache key for derived views). */
  get catalogVersion(): number {
    return this.catalog.version;
  }

  /** Allowed by the allow/deny policy (the user's `off` aside): what Manage Tools may list. */
  isPolicyAllowed(name: string): boolean {
    return this.catalog.config.isPolicyAllowed(name);
  }

  /** Turned off by the user in `toolshed.tools.state` (never said of a tool the policy denies). */
  isOffByUser(name: string): boolean {
    return this.catalog.config.isOffByUser(name);
  }

  exampleProblems(): ExampleProblem[] {
    return this.catalog.exampleProblems();
  }

  // ── runs ───────────────────────────────────────────────────────────────────

  /**
   * Starts a run (one chat request). Session scope: requires `sessionId` (else
   * ToolSearchConfigError) and waits until the session's previous run has ended.
   */
  async startRun(options: StartRunOptions = {}): Promise<ToolRun> {
    const scope = this.catalog.config.search.activationScope;
    const runId = options.runId ?? `run-${++this.runCounter}`;
    const isVisible = options.isVisible ?? (() => true);
    const host = this.runHost();
    if (scope === 'session') {
      if (!options.sessionId) {
        this.emit({ type: 'tool_activation_denied', payload: { reason: 'session_scope_without_session_id', run_id: runId } });
        throw new ToolSearchConfigError(
          'toolshed.toolSearch.activationScope is "session" but this request has no session id, so tool activation cannot be kept safe. Provide a session id or set activationScope to "run".',
        );
      }
      const session = this.sessions.get(options.sessionId);
      const release = await session.lock.acquire();
      return new ToolRun(runId, host, 'session', session.activations, isVisible, options.sessionId, release);
    }
    return new ToolRun(runId, host, 'run', new ActivationSet(), isVisible, options.sessionId, () => undefined);
  }

  /** Runs `fn` with a fresh run and always ends it. */
  async withRun<T>(options: StartRunOptions, fn: (run: ToolRun) => Promise<T> | T): Promise<T> {
    const run = await this.startRun(options);
    try {
      return await fn(run);
    } finally {
      run.end();
    }
  }

  // ── session activation state ───────────────────────────────────────────────

  /** Every session's activations of registry tools (for a tree view), newest first. */
  listActivations(): SessionActivation[] {
    return listSessionActivations(this.sessions, this.catalog.registry());
  }

  /** JSON to carry in ChatResult.metadata; only tools still in the registry are exported. */
  exportSession(sessionId: string): SessionSnapshot {
    return exportSessionSnapshot(this.sessions, this.catalog.registry(), sessionId);
  }

  /** Restores a snapshot (validated); visibility is still checked on every later read. */
  async importSession(snapshot: unknown): Promise<number> {
    const added = await importSessionSnapshot(this.sessions, snapshot, (message) => new ToolSearchConfigError(message));
    if (added > 0) this.notifyChanged();
    return added;
  }

  /** Clears one session's activations, or all sessions' when no id is given. */
  clearActivations(sessionId?: string): void {
    this.sessions.clear(sessionId);
    this.notifyChanged();
  }

  // ── events & lifecycle ─────────────────────────────────────────────────────

  onEvent(listener: (event: ToolshedEvent) => void): Disposable {
    this.eventListeners.add(listener);
    return { dispose: () => this.eventListeners.delete(listener) };
  }

  /** Fires after catalog or activation changes (refresh views). */
  onDidChange(listener: () => void): Disposable {
    this.changeListeners.add(listener);
    return { dispose: () => this.changeListeners.delete(listener) };
  }

  /** Persists the index now if it changed. */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    await this.index.saveIfDirty();
  }

  async dispose(): Promise<void> {
    await this.flush();
    this.index.close();
    this.eventListeners.clear();
    this.changeListeners.clear();
  }

  // ── internals ──────────────────────────────────────────────────────────────

  private exampleSources(examples: ToolExamplesConfig = this.catalog.config.examples) {
    return { settings: examples.overrides, files: this.fileExamples, builtin: this.options.builtinExamples ?? BUILTIN_TOOL_EXAMPLES };
  }

  private reindex(): SyncReport {
    // O(changed) when the catalog knows its delta; a full diff after settings changes.
    const taken = this.catalog.takeDelta();
    const delta = this.catalog.config.search.enableIncrementalIndex ? taken : undefined;
    const report = delta ? this.index.applyDelta(delta.upserted, delta.removed) : this.index.sync([...this.catalog.registry().values()]);
    this.lastSync = report;
    if (!report.skipped) {
      this.logger.debug(`Tool index: +${report.added} ~${report.updated} -${report.removed} (${report.ms.toFixed(1)} ms)`);
      this.scheduleSave();
    }
    const problems = delta ? delta.upserted.flatMap((record) => record.exampleProblems) : this.catalog.exampleProblems();
    for (const problem of problems) {
      this.logger.debug(`Tool example for ${problem.tool} (${problem.source} #${problem.index + 1}) not used: ${problem.message}`);
    }
    this.notifyChanged();
    return report;
  }

  private scheduleSave(delay = this.options.saveDelayMs ?? 500): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    if (delay <= 0) {
      void this.index.save().catch(() => undefined);
      return;
    }
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.index.save().catch(() => undefined);
    }, delay);
    (this.saveTimer as { unref?: () => void }).unref?.();
  }

  private runHost(): RunHost {
    return {
      catalog: this.catalog,
      index: this.index,
      clock: this.options.clock ?? systemClock,
      tokenCounter: this.options.tokenCounter ?? lengthTokenCounter,
      ranker: this.options.ranker,
      emit: (event) => this.emit(event),
      changed: () => this.notifyChanged(),
      picks: this.pickLog,
      semantic: this.embeddings.stage,
      ...(this.embeddings.remote
        ? {
            embedQuery: async (text: string) => {
              await this.embeddings.prepare(text);
              return this.embeddings.unavailableReason();
            },
          }
        : {}),
    };
  }

  private emit(event: ToolshedEvent): void {
    try {
      this.sink.emit(event);
    } catch (error) {
      this.logger.warn(`Event sink failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const listener of this.eventListeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure must not break a tool call.
      }
    }
  }

  private notifyChanged(): void {
    for (const listener of this.changeListeners) {
      try {
        listener();
      } catch {
        // ignore
      }
    }
  }
}

/** `toolshed.tools` with bad entries dropped (each named in the log), never a throw. */
function parseToolsConfig(raw: Partial<ToolsConfig>, logger: Logger): ToolsConfig {
  const parsed = toolsConfigSchema.safeParse(raw);
  const state = parsed.success ? parsed.data.state : raw.state && typeof raw.state === 'object' ? raw.state : {};
  const states = new ToolStates(state as Record<string, unknown>);
  for (const problem of states.problems) logger.warn(`toolshed.tools.state["${problem.pattern}"]: ${problem.message}.`);
  const valid = Object.fromEntries(Object.entries(state).filter(([pattern]) => !states.problems.some((p) => p.pattern === pattern)));
  return { state: valid as ToolsConfig['state'] };
}

export async function createToolSearchService(options: ToolSearchServiceOptions): Promise<ToolSearchService> {
  const logger = options.logger ?? nullLogger;
  const search = toolSearchConfigSchema.parse(options.config?.toolSearch ?? {});
  const examples = toolExamplesConfigSchema.parse(options.config?.toolExamples ?? {});
  const compiled = new CompiledToolConfig(search, examples, parseToolsConfig(options.config?.tools ?? {}, logger));
  const catalog = new ToolCatalog(compiled, { settings: examples.overrides, files: {}, builtin: options.builtinExamples ?? BUILTIN_TOOL_EXAMPLES });
  const index = await ToolIndex.open({
    engine: options.engine,
    store: options.store,
    logger,
    clock: options.clock,
    key: options.indexKey,
    incremental: search.enableIncrementalIndex,
    rebuildOnInit: search.rebuildIndexOnInit,
    relatedTerms: options.relatedTerms ?? bundledRelatedTerms(),
  });
  if (index.openStatus.status === 'rebuilt') logger.info(`Tool index rebuilt: ${index.openStatus.rebuildReason ?? 'unknown reason'}`);
  return new ToolSearchService(catalog, index, options, logger, options.events ?? nullEventSink);
}
