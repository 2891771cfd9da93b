/**
 * SkillService — the one facade the VS Code layer and the CLI use for skills.
 *
 *   const service = await createSkillService({ engine, store, config, logger, events, clock, tokenCounter, fs, env });
 *   const packs = resolveSkillPacks({ config, extensionPath, builtInPackNames, workspaceFolders, homeDir });   // skillPackSources.ts
 *   await service.loadPacks(packs, { onProgress: (done, total, file) => …, cancellation: token });
 *   await service.reloadFile(uri.fsPath);          // file watcher: created / changed
 *   await service.removeFile(uri.fsPath);          // file watcher: deleted (file or folder)
 *
 *   const ctx: SkillRequestContext = { scope: { tenantId, projectId }, toolGate, knownToolNames,
 *                                      includeWorkspacePacks: workspace.isTrusted, pinnedNames };
 *   await service.search({ query, search_type?, limit?, task_type? }, ctx)   → skill_search output
 *   await service.get({ names, format?, max_tokens? }, ctx)                  → skill_get output
 *   await service.list({ page?, page_size?, task_type?, origin?, scope? }, ctx) → skill_list output
 *   await service.directory(ctx)                                             → <skill_directory> block
 *   await service.getRelevant({ task, top_k?, max_tokens?, task_type? }, ctx) → pre-flight injection
 *
 *   service.listPacks()          → packs → skills with status (active | inactive + reason | invalid + problems), file, line
 *   await service.validatePacks() → compiler-style problems for "Validate Skill Packs"
 *   parseSkillDocument(text, fileName, options)  (skillDocumentParser.ts) → per-document diagnostics
 *   await service.addLearnedSkill(input) / removeLearnedSkill(name) — journaled; survive a rebuild
 *   await service.promoteLearnedSkill(name, 'tenant' | 'global', { from?, tenantId? }) — project → tenant → global
 *   await service.syncSharedSkills()  — another window changed the shared (tenant/global) store
 *   await service.save() / dispose()
 *
 * A load runs beside the answers: while it does, `search`, `get`, `getRelevant` and
 * `selectionCandidates` answer from the saved index when it holds the load's packs, each pack
 * skill they return checked against its file, and wait for the load otherwise; the other answers
 * wait for it (earlyAnswers.ts).
 *
 * Tool inputs are validated with the zod schemas of skillToolSchemas.ts (a ZodError is thrown
 * for invalid input). Every returned string is redacted and tool-gated; events are listed in docs/contracts.md#events.
 */
import type { SkillsConfig } from '../config/settingsSchema';
import type { ByteStore, Clock, EventSink, FileLock, FileSystemPort, Logger, TokenCounter } from '../platform/ports';
import type { SqlEngine } from '../sql/sqlEngine';
import { LearnedSkillJournal } from './store/learned/learnedSkillJournal';
import { SkillPackLoader } from './packs/skillPackLoader';
import type { FileChangeResult, LoadOptions, LoadSummary } from './packs/skillPackLoader';
import { removeReportedPath } from './packs/reportedDeletes';
import type { ResolvedSkillPack } from './packs/skillPackSources';
import { SkillVectors } from './skillVectors';
import { EarlyAnswers } from './earlyAnswers';
import { sourceBodyReader } from './packs/sourceBodies';
import { VectorCache } from '../sql/vectorCache';
import type { Embedder } from '../search/embedding/embedder';
import { SkillQueries } from './skillQueries';
import { SkillBrowsing } from './skillBrowsing';
import type { DirectoryResult } from './skillQueries';
import type { SkillRequestContext, SkillScoreAdjuster } from './skillRequestContext';
import type { RankedSkill, RelevantRequest, RelevantResult, SelectionCandidateRow } from './relevantSkills';
import type { LearnedSkillInput } from './store/skillRecords';
import { LearnedSkills } from './store/learned/learnedSkills';
import type { SkillIdentity, SkillScope } from './store/skillScope';
import { SharedSkillStore } from './store/learned/sharedSkillStore';
import type { SharedCounters } from './store/learned/sharedSkillStore';
import { sharedSyncMark } from './store/learned/sharedGeneration';
import type { SkillRecord } from './skillSchema';
import { buildSkillTree, skillTreeStatuses } from './skillTree';
import type { PackSkillStatuses, SkillTreePack } from './skillTree';
import { readNamesWithScripts, readPackSkillFiles } from './store/skillRows';
import { markStart } from '../platform/startTrace';
import { yieldToHost } from '../platform/hostSlices';
import { SkillStore } from './store/skillStore';
import type { SkillGetOutput, SkillListOutput, SkillSearchOutput } from './skillToolSchemas';
import { validateSkillTargets } from './packs/skillValidation';
import type { ValidationReport } from './packs/skillValidation';
import type { SkillTermCount } from './packs/offThreadSkillTerms';
import type { SkillDocumentParse } from './packs/document/offThreadParser';

export type { SkillRequestContext } from './skillRequestContext';
export interface SkillServiceDeps {
  engine: SqlEngine;
  /** Where `skills.db` and the learned-skill journal live. */
  store: ByteStore;
  config: SkillsConfig;
  logger: Logger;
  events: EventSink;
  clock: Clock;
  tokenCounter: TokenCounter;
  fs: FileSystemPort;
  /** Environment for `requires` checks (process.env in VS Code and the CLI). */
  env: Readonly<Record<string, string | undefined>>;
  /** Storage key of the database (default `skills.db`). */
  dbKey?: string;
  /** Ignore stored bytes and rebuild from packs (+ journal). */
  forceRebuild?: boolean;
  /** Debounce for saving after file reloads (default 1000 ms; 0 = save immediately). */
  autoSaveDelayMs?: number;
  /**
   * The store every window of the user shares (the extension's global storage) and its lock:
   * learned skills of scope `tenant` and `global` live there (sharedSkillStore.ts). Absent: every
   * scope stays in `store` (the CLI).
   */
  shared?: { bytes: ByteStore; lock: FileLock; key?: string; tenantId?(): string };
  /** How pack files are parsed (VS Code: large ones on a worker thread, offThreadParser.ts); default inline. */
  parse?: SkillDocumentParse;
  /** Where a pack load has its skills' search terms counted when not as they are stored (a parser thread: offThreadSkillTerms.ts). */
  countTerms?: SkillTermCount;
  /** Files a pack load writes at a time (skillPackLoader.ts; default 16): smaller in tests, so few files make many batches. */
  loadBatchFiles?: number;
}

export type { SkillTreePack } from './skillTree';

export interface SkillService {
  readonly openInfo: { status: string; reason?: string; backupKey?: string };
  loadPacks(packs: readonly ResolvedSkillPack[], options?: LoadOptions): Promise<LoadSummary>;
  reloadFile(file: string): Promise<FileChangeResult>;
  removeFile(file: string): Promise<FileChangeResult>;
  search(input: unknown, ctx: SkillRequestContext): Promise<SkillSearchOutput>;
  get(input: unknown, ctx: SkillRequestContext): Promise<SkillGetOutput>;
  list(input: unknown, ctx: SkillRequestContext): Promise<SkillListOutput>;
  directory(ctx: SkillRequestContext): Promise<DirectoryResult>;
  getRelevant(request: RelevantRequest, ctx: SkillRequestContext): Promise<RelevantResult>;
  /** Names + one-line descriptions for active-skill selection (see SkillQueries.selectionCandidates). */
  selectionCandidates(
    task: string,
    limit: number,
    ctx: SkillRequestContext,
    fillWithAll?: boolean,
    seen?: (ranked: RankedSkill[]) => void,
  ): Promise<SelectionCandidateRow[]>;
  /** Cluster siblings of model-chosen active skills that fit `maxTokens` (toolshed.skills.clusterExpansion). */
  clusterSiblings(
    names: readonly string[],
    request: { maxTokens: number; exclude: readonly string[]; searchOrder: readonly string[] },
    ctx: SkillRequestContext,
  ): Promise<string[]>;
  listPacks(): SkillTreePack[];
  /**
   * `listPacks()` reduced to what a count needs — each pack's skills' names and statuses, and
   * whether it is a workspace pack — from the in-memory index: no stored row is read (the Skill
   * Directory's header counts this after every load; reading the list costs ≈ 80 ms at 10,000 skills).
   */
  packStatuses(): PackSkillStatuses[];
  /** Names of the SKILL.md skills with files under `scripts/` (skill-script discovery reads only their records). */
  skillsWithScripts(): string[];
  /** Each stored skill of these packs with its file (which of them VS Code offers itself is decided from the file). */
  packSkillFiles(packNames: readonly string[]): Array<{ name: string; file: string; origin: 'pack' }>;
  validatePacks(packs?: readonly ResolvedSkillPack[]): Promise<ValidationReport>;
  /**
   * Stores a learned skill in its scope (`scope_mode` + `tenant_id` / `project_id`; the
   * `scopeMode` setting when absent; ids left out are taken from `callerScope`, the request's
   * `SkillRequestContext.scope`). Throws when no request could see that scope (project without
   * project id, tenant without tenant id). Journaled before it resolves.
   */
  addLearnedSkill(input: LearnedSkillInput, callerScope?: SkillRequestContext['scope']): Promise<SkillRecord>;
  /** Removes a learned skill; pass the scope when several scopes have one of that name. */
  removeLearnedSkill(name: string, scope?: SkillScope): Promise<boolean>;
  /** Every learned skill (all scopes), for merge checks and export (cached; usage counts may lag). */
  learnedSkills(): SkillRecord[];
  /** One learned skill of one scope, read fresh. */
  learnedSkill(identity: SkillIdentity): SkillRecord | undefined;
  /** Active skills of this project's view that carry a `cluster` (workspace packs included: learning runs only when trusted). */
  clusteredSkills(projectId: string): SkillRecord[];
  /** Names of all pack skills (any scope), e.g. to refuse imports that would collide. */
  packSkillNames(): Set<string>;
  /** Stores learned records exactly as given (a merge, its undo, an import), all or nothing; journaled. */
  restoreLearnedSkills(records: readonly SkillRecord[]): Promise<void>;
  /**
   * Moves a learned skill to a wider scope (project → tenant → global); `tenantId` defaults to
   * the skill's own. Throws with the reason, changing nothing, when that is not possible.
   */
  promoteLearnedSkill(name: string, to: 'tenant' | 'global', options?: { from?: SkillScope; tenantId?: string }): Promise<SkillRecord>;
  /**
   * Re-reads the shared store (another window wrote to it, or the tenant id changed): this window
   * then holds the global skills and its own tenant's. Returns how many skills changed here.
   */
  syncSharedSkills(): Promise<number>;
  /**
   * Adds feedback increments to the shared store's counters for those names that are shared
   * (tenant/global) learned skills here; returns their new totals (every window's counts summed).
   */
  addSharedCounters(deltas: readonly SharedCounters[]): Promise<SharedCounters[]>;
  /** A shared learned skill's counters summed over every window (last read), or undefined. */
  sharedCounters(name: string): SharedCounters | undefined;
  /** A full record by name, unfiltered (for UI: "open definition"); never send it to a model as is. */
  inspect(name: string): SkillRecord | undefined;
  updateConfig(config: SkillsConfig): void;
  /** Installs (or removes) the re-ranking of full-text hits — learning's decay and effectiveness. */
  setScoreAdjuster(adjuster: SkillScoreAdjuster | undefined): void;
  useEmbedder(embedder: Embedder | undefined): void;
  save(): Promise<void>;
  /**
   * For a process about to exit while its load still checks the library, with another process
   * about to open the same store and check it again (the resident hook a first prompt starts):
   * from now on a save writes only the use counts, never what the load wrote, so the process
   * need not wait for the load. The store on disk stays as its last whole save left it, and the
   * next process reads the changed files itself. A load that has ended is saved as `dispose`
   * would: the work of a cold load is not thrown away.
   */
  handOver(): Promise<void>;
  dispose(): Promise<void>;
}

export async function createSkillService(deps: SkillServiceDeps): Promise<SkillService> {
  const store = await SkillStore.open({
    engine: deps.engine,
    store: deps.store,
    logger: deps.logger,
    clock: deps.clock,
    key: deps.dbKey,
    forceRebuild: deps.forceRebuild,
    sourceBodies: sourceBodyReader(deps.fs),
  });
  const journal = new LearnedSkillJournal(deps.store, `${deps.dbKey ?? 'skills.db'}.learned.jsonl`, deps.logger);
  const replayed = await journal.replayInto(store);
  if (replayed > 0) deps.logger.info(`Restored ${replayed} learned skill(s) from the journal.`);
  const shared = deps.shared
    ? new SharedSkillStore({
        engine: deps.engine,
        bytes: deps.shared.bytes,
        lock: deps.shared.lock,
        logger: deps.logger,
        clock: deps.clock,
        key: deps.shared.key,
      })
    : undefined;
  const service = new DefaultSkillService(deps, store, journal, shared);
  if (shared) await service.startShared();
  return service;
}

class DefaultSkillService implements SkillService {
  private config: SkillsConfig;
  private readonly loader: SkillPackLoader;
  private readonly queries: SkillQueries;
  private readonly browsing: SkillBrowsing;
  private readonly learned: LearnedSkills;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private adjuster: SkillScoreAdjuster | undefined;
  private embedder: Embedder | undefined;
  private readonly vectors: SkillVectors;
  private readonly early: EarlyAnswers;
  /** Loads run one after another (a door may ask for another while its first is under way). */
  private loads: Promise<unknown> = Promise.resolve();
  /** Loads asked for whose reading and writing have not ended (their save may still be to come). */
  private loading = 0;
  /** Set by `handOver` while a load was under way: saves then write only the use counts. */
  private handedOver = false;

  constructor(
    private readonly deps: SkillServiceDeps,
    private readonly store: SkillStore,
    journal: LearnedSkillJournal,
    shared?: SharedSkillStore,
  ) {
    this.config = deps.config;
    this.learned = new LearnedSkills({
      store,
      journal,
      clock: deps.clock,
      defaultScopeMode: () => this.config.scopeMode,
      save: () => this.save(),
      shared,
      sharedMark: shared ? sharedSyncMark(deps.store) : undefined,
      tenantId: deps.shared?.tenantId,
    });
    this.vectors = new SkillVectors(
      () => this.embedder,
      store,
      new VectorCache(() => store.db),
      () => this.scheduleSave(),
    );
    this.early = new EarlyAnswers(deps.fs, store);
    this.loader = new SkillPackLoader({
      fs: deps.fs,
      store,
      clock: deps.clock,
      env: deps.env,
      logger: deps.logger,
      events: deps.events,
      parse: deps.parse,
      countTerms: deps.countTerms,
      batchFiles: deps.loadBatchFiles,
    });
    this.queries = new SkillQueries({
      store,
      config: () => this.config,
      events: deps.events,
      tokenCounter: deps.tokenCounter,
      clock: deps.clock,
      packPins: () => this.loader.resolvedPacks.filter((p) => p.enabled).map((p) => ({ names: p.pinnedSkillNames, workspace: p.workspace })),
      adjuster: () => this.adjuster,
      vectors: this.vectors,
      vetting: this.early,
    });
    this.browsing = new SkillBrowsing({ store, events: deps.events, adjuster: () => this.adjuster }, this.queries);
  }

  get openInfo() {
    return this.store.openInfo;
  }

  loadPacks(packs: readonly ResolvedSkillPack[], options?: LoadOptions): Promise<LoadSummary> {
    markStart('loadPacks');
    this.loading++;
    // A load asked for after a hand-over (a process that went on after all) checks the library
    // itself, and any load before it runs to its end first: what the store holds is whole again,
    // and saved whole.
    this.handedOver = false;
    let skillsStored: () => void = () => undefined;
    const answerable = new Promise<void>((resolve) => (skillsStored = resolve));
    const loaded = this.loads.then(async () => {
      try {
        // One turn of the event loop first: an answer asked while the stores opened (its call is
        // queued beside this load's start) runs before the load's first synchronous stretch.
        await yieldToHost();
        return await this.loader.loadAll(packs, {
          ...options,
          onSkillsStored: async () => {
            await this.reconcileExported();
            skillsStored();
            // A turn for the answers that waited, before the load's bookkeeping.
            await yieldToHost();
          },
        });
      } finally {
        this.loading--;
        skillsStored();
      }
    });
    // Answers asked for meanwhile follow one rule (earlyAnswers.ts); they need not wait for the
    // load's bookkeeping (its files' fingerprints), nor for the save.
    this.early.begin(packs, answerable);
    // Cancelled too: the files written so far are kept, and the next start reads only the rest.
    const saved = loaded.then(async (summary) => {
      await this.save();
      return summary;
    });
    this.loads = saved.catch(() => undefined);
    return saved;
  }

  async reloadFile(file: string): Promise<FileChangeResult> {
    const result = await this.loader.reloadFile(file);
    if (result.status !== 'ignored') {
      await this.reconcileExported(result.file);
      this.scheduleSave();
    }
    return result;
  }

  async removeFile(file: string): Promise<FileChangeResult> {
    const result = await removeReportedPath(
      {
        fs: this.deps.fs,
        reloadFile: (f) => this.loader.reloadFile(f),
        removeFile: (f) => this.loader.removeFile(f),
        packSources: () => this.store.packSources(),
      },
      file,
    );
    if (result.removed.length || result.inserted.length || result.updated.length) {
      await this.reconcileExported(result.file);
      this.scheduleSave();
    }
    return result;
  }

  // While a load is under way: search, get and pre-flight (its candidates too) answer from the
  // stored index when it holds the load's packs, their skills vetted (earlyAnswers.ts); the others
  // wait for the load.
  search(input: unknown, ctx: SkillRequestContext) {
    markStart('search:enter');
    return this.early.answer(true, () => this.browsing.search(input, ctx));
  }

  get(input: unknown, ctx: SkillRequestContext) {
    return this.early.answer(true, () => this.queries.get(input, ctx)).finally(() => this.scheduleSave());
  }

  list(input: unknown, ctx: SkillRequestContext) {
    return this.early.answer(false, () => this.browsing.list(input, ctx));
  }

  directory(ctx: SkillRequestContext) {
    return this.early.answer(false, () => this.queries.directory(ctx));
  }

  getRelevant(request: RelevantRequest, ctx: SkillRequestContext) {
    return this.early.answer(true, () => this.queries.getRelevant(request, ctx)).finally(() => this.scheduleSave());
  }

  selectionCandidates(task: string, limit: number, ctx: SkillRequestContext, fillWithAll?: boolean, seen?: (ranked: RankedSkill[]) => void) {
    return this.early.answer(true, () => this.queries.selectionCandidates(task, limit, ctx, fillWithAll, seen));
  }

  clusterSiblings(
    names: readonly string[],
    request: { maxTokens: number; exclude: readonly string[]; searchOrder: readonly string[] },
    ctx: SkillRequestContext,
  ) {
    return this.early.answer(false, () => this.queries.clusterSiblings(names, request, ctx));
  }

  listPacks(): SkillTreePack[] {
    const reports = this.loader.packReports();
    // Before the first load no pack is listed: only learned skills show (the Skill Directory reads this at activation).
    return buildSkillTree(reports.length > 0 ? this.store.treeRecords() : this.store.learnedRecords(), reports, this.config.scopeMode);
  }

  packStatuses(): PackSkillStatuses[] {
    const reports = this.loader.packReports();
    // Before the first load: learned skills only (few), as listPacks reads them.
    return skillTreeStatuses(reports.length > 0 ? [...this.store.everySkill()] : this.store.learnedRecords(), reports);
  }

  skillsWithScripts(): string[] {
    return readNamesWithScripts(this.store.db);
  }

  packSkillFiles(packNames: readonly string[]): Array<{ name: string; file: string; origin: 'pack' }> {
    return readPackSkillFiles(this.store.db, packNames);
  }

  validatePacks(packs?: readonly ResolvedSkillPack[]): Promise<ValidationReport> {
    // Default agent-skill folders may simply not exist; a configured folder that is missing is a warning.
    const targets = (packs ?? this.loader.resolvedPacks)
      .filter((p) => p.enabled)
      .map((p) => ({ path: p.root, packName: p.name, format: p.format, ifAbsent: p.optional ? ('skip' as const) : ('warning' as const) }));
    return validateSkillTargets(this.deps.fs, targets, this.deps.parse);
  }

  addLearnedSkill(input: LearnedSkillInput, callerScope?: SkillRequestContext['scope']): Promise<SkillRecord> {
    return this.learned.add(input, callerScope);
  }

  removeLearnedSkill(name: string, scope?: SkillScope): Promise<boolean> {
    return this.learned.remove(name, scope);
  }

  learnedSkills(): SkillRecord[] {
    return this.learned.list();
  }

  learnedSkill(identity: SkillIdentity): SkillRecord | undefined {
    return this.learned.get(identity);
  }

  clusteredSkills(projectId: string): SkillRecord[] {
    const filter = { projectId, includeWorkspacePacks: true, activeOnly: true };
    return this.store.byNames(
      this.store.clustered(filter).map((entry) => entry.name),
      filter,
    );
  }

  packSkillNames(): Set<string> {
    return new Set(this.store.packSkills().map((s) => s.name));
  }

  restoreLearnedSkills(records: readonly SkillRecord[]): Promise<void> {
    return this.learned.restore(records);
  }

  promoteLearnedSkill(name: string, to: 'tenant' | 'global', options?: { from?: SkillScope; tenantId?: string }): Promise<SkillRecord> {
    return this.learned.promote(name, to, options);
  }

  syncSharedSkills(): Promise<number> {
    return this.learned.syncShared();
  }

  addSharedCounters(deltas: readonly SharedCounters[]): Promise<SharedCounters[]> {
    return this.learned.addSharedCounters(deltas);
  }

  sharedCounters(name: string): SharedCounters | undefined {
    return this.learned.sharedCounters(name);
  }

  /**
   * First sync with the shared store. Learned tenant/global skills this window stored before
   * scopes were shared, or that a store made afresh since lacks, are added to it (the window's
   * mark, sharedGeneration.ts); otherwise the shared store is the truth (a skill another window
   * deleted is not brought back).
   */
  async startShared(): Promise<void> {
    try {
      await this.learned.syncShared();
    } catch (error) {
      // A locked or unreadable shared store must not stop skills from working in this window.
      this.deps.logger.warn(
        `Shared skill store not available (tenant and global learned skills may be out of date): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  inspect(name: string): SkillRecord | undefined {
    return this.store.get(name);
  }

  updateConfig(config: SkillsConfig): void {
    this.config = config;
  }

  /** Hybrid ranking's embedder for `skill_search` and pre-flight (none = lexical). */
  useEmbedder(embedder: Embedder | undefined): void {
    this.embedder = embedder;
  }

  setScoreAdjuster(adjuster: SkillScoreAdjuster | undefined): void {
    this.adjuster = adjuster;
  }

  save(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    this.saving = this.saving
      .then(() => {
        if (this.handedOver) return this.store.saveUsage();
        // The save writes the whole store anyway: the time to drop vectors of skills edited or gone.
        this.vectors.prune(this.store.everySkill());
        return this.store.save();
      })
      .catch((error: unknown) => {
        this.deps.logger.error(`Saving the skill store failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    return this.saving;
  }

  handOver(): Promise<void> {
    if (this.loading > 0) this.handedOver = true;
    return this.handedOver ? this.save() : this.loads.then(() => this.save());
  }

  async dispose(): Promise<void> {
    // A load under way finishes first: the store is saved with what it wrote, then closed.
    await this.loads;
    await this.save();
    this.store.close();
  }

  /**
   * A learned skill exported as a pack skill is retired once that pack skill is loaded (and back
   * when it is gone), so requests see it once. A failure here must not fail the load itself.
   */
  private async reconcileExported(changedFile?: string): Promise<void> {
    await this.learned.reconcileExported(changedFile).catch((error: unknown) => {
      this.deps.logger.warn(`Could not retire or restore exported learned skills: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private scheduleSave(): void {
    const delay = this.deps.autoSaveDelayMs ?? 1000;
    if (delay <= 0) {
      void this.save();
      return;
    }
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, delay);
    this.saveTimer.unref?.();
  }
}
