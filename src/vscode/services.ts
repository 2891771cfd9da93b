import * as vscode from 'vscode';
import * as path from 'node:path';
import type { EventSink, Logger, ToolshedEvent } from '../core/platform/ports';
import { loadSqlEngine, type SqlEngine } from '../core/sql/sqlEngine';
import { createToolSearchService, type ToolSearchService } from '../core/tools/toolSearchService';
import { EmbeddingStatus } from './state/embeddingStatus';
import { followEmbedderSettings } from './state/embedderChoice';
import type { ToolRecord } from '../core/tools/toolRecord';
import { createLoggedEvents } from './outputChannelLogger';
import { SettingsAccessor } from './settingsAccessor';
import { ActivityRegistry } from './state/activityRegistry';
import { TurnExplanations } from './state/turnExplanations';
import { PinnedSkills } from './state/pinnedSkills';
import { createByteStore, createSharedSkillStorage } from './storage';
import { LmToolCatalog, runToolVisibility, type ToolCatalogSettling } from './tools/lmToolCatalog';
import { OffThreadRunner } from '../core/platform/offThreadRunner';
import { offThreadSkillParse } from '../core/skills/packs/document/offThreadParser';
import { offThreadSkillTerms } from '../core/skills/packs/offThreadSkillTerms';
import { offThreadToolExamplesParse } from '../core/tools/examples/offThreadExamples';
import { ToolExampleFiles } from './tools/toolExampleFiles';
import { ToolModes } from './tools/toolModes';
import { nodeFileSystem } from '../core/platform/nodeFileSystem';
import { lengthTokenCounter, systemClock } from '../core/platform/basicPorts';
import { createSkillService, type SkillRequestContext, type SkillService } from '../core/skills/skillService';
import type { ToolRun } from '../core/tools/toolRun';
import { SkillPackManager } from './skills/skillPackManager';
import { skillRequestContexts } from './skills/skillRequestContexts';
import { SkillScriptRunner } from './skills/skillScriptRunner';
import { SkillScriptTools } from './skills/skillScriptTools';
import { LearningController } from './learning/learningController';
import { NativeAgentSkills } from './skills/nativeAgentSkills';
import { keepSharedSkillsInSync } from './skills/sharedSkillsSync';
import { SkillChanges } from './skillChanges';
import { SkillTreeCache } from './skills/skillTreeCache';
import { LedgerStore } from '../core/ledger/ledgerStore';
import { WorkspaceLedger } from './workspaceLedger';
import { workspaceDoorFolders } from './doorFolders';
import { markStart } from '../core/platform/startTrace';

/** Session id under which calls from Copilot agent mode (outside @toolshed) are grouped. */
export const AGENT_MODE_SESSION = 'copilot-agent-mode';

/**
 * Everything the adapters share, built once in `activate()`. Each `registerX(context, services)`
 * takes only the members it uses (`Pick<ToolshedServices, …>` or a narrow interface; a lint rule
 * keeps the whole bag in extension.ts and here); nothing else constructs core services.
 */
export interface ToolshedServices {
  readonly context: vscode.ExtensionContext;
  readonly logger: Logger;
  /** Logs every core event as one structured line and fans it out to `onEvent` listeners. */
  readonly events: EventSink;
  onEvent(listener: (event: ToolshedEvent) => void): vscode.Disposable;
  readonly settings: SettingsAccessor;
  readonly engine: SqlEngine;
  readonly tools: ToolSearchService;
  /** Send-all or defer per request (toolshed.toolSearch.mode), and the latest decision. */
  readonly toolModes: ToolModes;
  readonly activity: ActivityRegistry;
  /** The last @toolshed turn of each chat session, as it recorded itself (Explain Last Turn, `/why`). */
  readonly turnExplanations: TurnExplanations;
  /** `*.tools.yaml` example files of the workspace (`ready` after the latest load). */
  readonly toolExamples: ToolExampleFiles;
  readonly pinned: PinnedSkills;
  readonly skills: SkillService;
  /** Loaded packs, file watching, reloads; `onDidChange` fires after every change. */
  readonly skillPacks: SkillPackManager;
  /**
   * The one change event for what the skill views show: packs, learned skills (learning's writes, another window's
   * shared store), proposals and counters. Fired by the services; the Skill Directory follows it.
   */
  readonly skillChanges: SkillChanges;
  /** The skill list by pack, read once per change of it when the Skill Directory's tree is shown. */
  readonly skillTree: SkillTreeCache;
  /** Skill `scripts/` offered as deferred tools (trusted workspaces only). */
  readonly skillScripts: SkillScriptTools;
  /** Confirms and runs skill scripts. */
  readonly scriptRuns: SkillScriptRunner;
  /** Skills that learn from use: proposals, feedback, negative lessons, decay. */
  readonly learning: LearningController;
  /** What each tool, skill and server cost and gave back in this workspace (`ledger.db`). */
  readonly ledger: WorkspaceLedger;
  /** The status-bar sign shown while the embedding endpoint is failing (search lexical). */
  readonly embeddingStatus: EmbeddingStatus;
  /** SKILL.md skills VS Code's own agent skills offer to agent mode (its skill tools leave them out). */
  readonly nativeSkills: NativeAgentSkills;
  /**
   * The skill request context for the current state: project scope, tenant (`toolshed.scope.tenantId`), workspace trust (no
   * workspace-pack skills when untrusted), and the tool gate of `run` (or of the policy alone).
   */
  skillContext(run?: ToolRun, extraPinned?: readonly string[]): SkillRequestContext;
  /**
   * Brings the tool catalog up to date with `vscode.lm.tools` (at most a second stale unless
   * `fresh`, which re-reads the list now); returns its size.
   */
  syncToolCatalog(options?: { fresh?: boolean }): number;
  /** Whether MCP servers are still publishing tools (the participant waits, with progress). */
  readonly toolCatalogSettling: ToolCatalogSettling;
  /** Parses large skill and tool-example files on a worker thread. */
  readonly parserThread: OffThreadRunner;
  /** The run-time ToolVisibilityPolicy (fail closed; hidden tools are not executable either). */
  toolVisibility(): (tool: ToolRecord) => boolean;
  /**
   * Writes pending (debounced) saves of the skill store and the tool index now and resolves when
   * they are on disk. `deactivate()` awaits it: VS Code does not wait for disposables.
   */
  flush(): Promise<void>;
}

/**
 * Builds the services and wires them to each other; what a piece does lives in its own module
 * (the embedder choice in `state/embedderChoice.ts`, a request's skill context and tool gate in
 * `skills/skillRequestContexts.ts`, the ledger's turns and feedback in `workspaceLedger.ts`).
 */
export async function createServices(context: vscode.ExtensionContext, logger: Logger): Promise<ToolshedServices> {
  const { events, onEvent } = createLoggedEvents(logger);
  const settings = new SettingsAccessor(logger);
  context.subscriptions.push(settings);

  // sql.js's wasm ships inside the extension and is read from disk, never fetched. Read directly, not
  // through workspace.fs: that is a round trip through the workbench, which queues behind the other
  // extensions starting with the window (0.1 s of a warm start's activation under load).
  const engine = await loadSqlEngine({ wasmPath: path.join(context.extensionPath, 'dist', 'sql-wasm.wasm') });
  logger.info('sql.js loaded');
  markStart('services:sql');

  const { store, folder } = createByteStore(context);
  logger.info(`Toolshed databases in ${folder}`);
  const tools = await createToolSearchService({
    engine,
    store,
    config: settings.current,
    logger,
    events,
  });
  markStart('services:tools');
  // A rebuilt index was already reported (one warning, by the persistence layer).
  if (tools.indexStatus.status === 'rebuilt') logger.info(`Tool index rebuilt: ${tools.indexStatus.rebuildReason}`);
  context.subscriptions.push({ dispose: () => void tools.dispose() });
  context.subscriptions.push(settings.onDidChange((next) => tools.updateConfig(next)));
  const embeddingStatus = new EmbeddingStatus();
  context.subscriptions.push(embeddingStatus);

  // Large skill and example files are parsed on a worker thread (a huge or hostile file never stalls
  // the host), and a load's search terms are counted there while the host stores the last batch.
  const parserThread = new OffThreadRunner(path.join(context.extensionPath, 'dist', 'parseWorker.js'), logger);
  context.subscriptions.push(parserThread);
  const skills = await createSkillService({
    parse: offThreadSkillParse(parserThread),
    countTerms: offThreadSkillTerms(parserThread),
    engine,
    store,
    config: settings.current.skills,
    logger,
    events,
    clock: systemClock,
    tokenCounter: lengthTokenCounter,
    fs: nodeFileSystem,
    env: process.env,
    // Tenant and global learned skills: one store in the global storage, shared by every window.
    shared: { ...createSharedSkillStorage(context), tenantId: () => settings.current.scope.tenantId },
  });
  markStart('services:skills');
  reportRebuiltStore(logger, 'The skill store (learned skills)', skills.openInfo);
  context.subscriptions.push({ dispose: () => void skills.dispose() });
  const skillPacks = new SkillPackManager(skills, settings, context.extensionPath, logger);
  const skillChanges = new SkillChanges(logger);
  // Before anything else listens to skillChanges: cleared first, then read by them.
  const skillTree = new SkillTreeCache(skills, skillChanges.onDidChange);
  context.subscriptions.push(
    skillPacks,
    skillChanges,
    skillTree,
    skillPacks.onDidChange(() => skillChanges.fire({ skills: true })),
  );
  keepSharedSkillsInSync(context, { skills, settings, logger, changes: skillChanges });
  context.subscriptions.push(
    followEmbedderSettings(settings, embeddingStatus, logger, (embedder) => {
      tools.embeddings.use(embedder);
      skills.useEmbedder(embedder);
    }),
  );
  // A failure report names a catalogued tool (skill scripts included) or one of vscode.lm's that the policy allows.
  const knownTool = (name: string) => tools.registryMap().has(name) || (vscode.lm.tools.some((tool) => tool.name === name) && tools.isPolicyAllowed(name));
  const learning = await LearningController.create({ engine, store, settings, skills, logger, events, knownTool, changes: skillChanges });
  markStart('services:learning');
  context.subscriptions.push(learning);
  const ledgerStore = await LedgerStore.open({ engine, store, logger, clock: systemClock });
  markStart('services:ledger');
  reportRebuiltStore(logger, 'The ledger', ledgerStore.openStatus);
  const ledger = new WorkspaceLedger(ledgerStore, { tools, skills, settings }, logger);
  ledger.importDoors(workspaceDoorFolders());
  context.subscriptions.push(ledger, onEvent(ledger.followFeedback, 'skill_feedback'));
  const nativeSkills = new NativeAgentSkills(skills, skillPacks.onDidChange, () => skillPacks.storedPacks());
  context.subscriptions.push(nativeSkills);

  const activity = new ActivityRegistry();
  const skillScripts = new SkillScriptTools(
    skills,
    logger,
    () => vscode.lm.tools.map((tool) => tool.name),
    () => ledger.retiredSkillNames(),
  );
  context.subscriptions.push(
    skillScripts,
    skillPacks.onDidChange(() => void skillScripts.refresh()),
    ledger.onDidChangeRetired(() => void skillScripts.refresh()),
  );
  const scriptRuns = new SkillScriptRunner(skillScripts, settings, events, logger);
  // Synced now and on every tool-list change, so the sidebar's deferred count and the index
  // are current before the first chat request. Skill scripts are catalogued beside vscode.lm's tools.
  const lmCatalog = new LmToolCatalog(tools, logger, {
    ownTools: skillScripts,
    deferredCounts: activity,
  });
  context.subscriptions.push(
    lmCatalog,
    skillScripts.onDidChange(() => lmCatalog.syncInBackground()),
  );
  context.subscriptions.push(tools.onDidChange(() => activity.setDeferredCatalogSize(lmCatalog.deferredCount())));
  // Right after activation returns (indexing a large catalog must not delay activation).
  const initialSync = setTimeout(() => {
    lmCatalog.syncInBackground();
    activity.setDeferredCatalogSize(lmCatalog.deferredCount());
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(initialSync) });
  const toolModes = new ToolModes(settings, logger);
  context.subscriptions.push(toolModes);
  const exampleFiles = new ToolExampleFiles(tools, logger, offThreadToolExamplesParse(parserThread));
  context.subscriptions.push(exampleFiles);
  void exampleFiles.load();
  context.subscriptions.push(toolModes.onDidDecide(activity.showDeferral));
  activity.setSessionLabel(AGENT_MODE_SESSION, 'Copilot agent mode (tools run with tool_invoke)');
  // Clearing the view clears the session registry too, or the next turn would still see them.
  context.subscriptions.push(
    activity,
    activity.onDidClear((sessionId) => tools.clearActivations(sessionId)),
  );
  const pinned = new PinnedSkills(context.workspaceState);
  context.subscriptions.push(pinned);
  const skillContext = skillRequestContexts({ hostTools: lmCatalog, tools, settings, pinned, ledger });

  return {
    context,
    logger,
    events,
    onEvent,
    settings,
    engine,
    tools,
    toolModes,
    activity,
    turnExplanations: new TurnExplanations(),
    toolExamples: exampleFiles,
    pinned,
    skills,
    skillPacks,
    skillChanges,
    skillTree,
    toolCatalogSettling: lmCatalog,
    parserThread,
    skillScripts,
    scriptRuns,
    learning,
    ledger,
    nativeSkills,
    embeddingStatus,
    skillContext,
    syncToolCatalog: lmCatalog.syncCounted,
    async flush() {
      await Promise.all([skills.save(), tools.flush(), ledger.flush()]);
    },
    toolVisibility: runToolVisibility,
  };
}

/**
 * A store whose file could not be used (damaged, or written by a newer Toolshed after a
 * downgrade) starts afresh with the old file kept aside: the user is told where, not only the log.
 */
function reportRebuiltStore(logger: Logger, what: string, opened: { status: string; reason?: string; backupKey?: string }): void {
  if (opened.status !== 'rebuilt') return;
  logger.info(`${what} rebuilt: ${opened.reason ?? 'unknown reason'}`);
  if (!opened.backupKey) return;
  void vscode.window.showWarningMessage(
    `Toolshed: ${what} could not be used (${opened.reason ?? 'unknown reason'}) and starts afresh; the old file is kept as "${opened.backupKey}" in Toolshed's storage folder.`,
  );
}
