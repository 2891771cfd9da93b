import { offeredSkills, offeredSkillsBlock } from './offeredSkills';
import { existsSync, watch as fsWatch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { skillsConfigSchema } from '../config/settingsSchema';
import type { SkillsConfig } from '../config/settingsSchema';
import { lengthTokenCounter, nullLogger } from '../platform/basicPorts';
import { collectGarbage } from '../platform/heapCollection';
import { OffThreadRunner } from '../platform/offThreadRunner';
import { NodeByteStore } from '../platform/nodeByteStore';
import type { Logger } from '../platform/ports';
import { skillPreflight } from '../planner/turn/skillPreflight';
import { explainSkills } from '../planner/turn/turnExplanation';
import type { SkillsExplanation } from '../planner/turn/turnExplanation';
import { createHeadlessSkillService } from '../skills/headlessSkillService';
import { offThreadSkillTerms } from '../skills/packs/offThreadSkillTerms';
import { folderPack } from '../skills/packs/skillPackSources';
import type { ResolvedSkillPack } from '../skills/packs/skillPackSources';
import type { LoadSummary } from '../skills/packs/skillPackLoader';
import type { SkillRequestContext, SkillService } from '../skills/skillService';
import { loadSqlEngine } from '../sql/sqlEngine';
import type { SqlEngine } from '../sql/sqlEngine';
import { doorFolderFor, toolshedHome as defaultToolshedHome } from './doors/doorFolder';
import { ExtensionSkillsView } from './doors/extensionSkillsView';
import { RUNTIMES } from './runtimeDescriptors';
import type { RuntimeDescriptor, RuntimeId } from './runtimeDescriptors';
import { workspaceTrust } from './runtimeTrust';
import type { TrustAnswer } from './runtimeTrust';

/**
 * The door session: a headless Toolshed for one workspace as one agent runtime sees it — what the
 * prompt-submit hook (`toolshed hook`) and the MCP server (`toolshed mcp`) run on.
 *
 *   const door = await openDoorSession({ runtime: 'claude', workspaceFolder: cwd });
 *   const answer = await door.preflight(prompt);   // what @toolshed's pre-flight would inject
 *   door.skills.search(…, door.requestContext());  // or any SkillService call, with the door's trust
 *   await door.dispose();
 *
 * Its skills: the folders the runtime itself reads (user level always; the workspace's own only
 * when the workspace is trusted, `runtimeTrust.ts`), Toolshed's library folder
 * `<toolshed home>/skills` that no runtime reads (where a large library belongs, so the runtime
 * does not list every name in every request), and the learned skills the extension approved for
 * this workspace, with the retirements of its Ledger view (`doors/publishedSkills.ts`: the
 * extension publishes them into the door folder; every request reads the retirements afresh).
 * The store is persisted in the workspace's door folder (`doorFolderFor`), one per runtime
 * (`skills.<runtime>.db`), so a later run opens it warm and reads only the files that changed; a
 * damaged store is rebuilt from the folders (the skill store's own check on open).
 */

/** Toolshed's own skill folder under its home: read by no runtime, searched by every door. */
const TOOLSHED_LIBRARY_FOLDER = 'skills';

export interface DoorSessionOptions {
  runtime: RuntimeId;
  /** Absolute workspace folder (the hook event's `cwd`, the MCP server's working folder). */
  workspaceFolder: string;
  /** The user's home folder (default `os.homedir()`). */
  home?: string;
  /** Environment for the runtimes' folder variables and `requires` checks (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Toolshed's home (default `TOOLSHED_HOME` or `~/.toolshed`). */
  toolshedHome?: string;
  /**
   * The parser thread's script (`dist/parseWorker.js`), on which a load counts its skills' search
   * terms while the previous batch is stored (offThreadSkillTerms.ts). Default: the one beside
   * this bundle (the CLI's `dist/`), when it is there; without one, all on this thread.
   */
  parserScript?: string;
  /** A loaded sql.js engine to share; one is loaded otherwise. */
  engine?: SqlEngine;
  /** Skills settings over the defaults (`toolshed.skills.*`; the hook uses the defaults). */
  config?: Partial<SkillsConfig>;
  logger?: Logger;
  /** Watch the skill folders, so `refresh()` reloads only after a change (otherwise every refresh checks every file). */
  watch?: boolean;
  /**
   * Collect the heap once after a load that read many files (default true: the resident hook and
   * the MCP server live on and search after it). False for a process that exits once its load is
   * saved (the one-shot hook), where a collection would only delay the exit the runtime waits for.
   */
  collectAfterLargeLoad?: boolean;
}

export interface DoorPreflight {
  /** The prompt block to hand the model ('' when nothing applies). */
  context: string;
  /** Injected skills, best first, with their absolute relevance. */
  injected: Array<{ name: string; relevance?: number; reason?: string }>;
  /** Skills named with their description for the runtime's model to load if one fits (offeredSkills.ts). */
  offered: string[];
  /** Every candidate the gate looked at with its verdict (the explanation `/why` shows). */
  explanation: SkillsExplanation;
  tokens: number;
  note?: string;
}

export interface DoorSession {
  readonly runtime: RuntimeDescriptor;
  readonly workspaceFolder: string;
  /** Whether the workspace's own skill folders are used, and which record said so. */
  readonly trust: TrustAnswer;
  /** The workspace's door folder (store, journal, last decisions). */
  readonly folder: string;
  readonly packs: readonly ResolvedSkillPack[];
  /**
   * What loading the folders found (files read, problems), once the latest load has ended: the
   * door opens while its first load still checks the library, and the skill service decides which
   * answers wait for it (a warm start answers from the saved index: `core/skills/earlyAnswers.ts`).
   */
  readonly loaded: Promise<LoadSummary>;
  readonly skills: SkillService;
  readonly config: SkillsConfig;
  /** The request context every door call uses: this workspace's project scope, its trust, the skills retired in it. */
  requestContext(): SkillRequestContext;
  /**
   * Brings in the learned skills the extension published for this workspace, when they changed
   * since the last call (one `stat` otherwise). Opening and `refresh()` call it; a long-lived
   * door that does not refresh (the MCP server) calls it before each answer.
   */
  syncExtensionSkills(): Promise<void>;
  /** Skill pre-flight as `@toolshed` runs it (no model: hybrid selection's question is skipped). */
  preflight(prompt: string): Promise<DoorPreflight>;
  /**
   * For a long-lived door (the resident hook process, the MCP server): reads the trust record
   * again and reloads the folders when trust changed, a folder appeared or went, or (with
   * `watch`) a file changed since the last load; only changed files are read.
   */
  refresh(): Promise<void>;
  /**
   * Ends a door in a process about to exit, leaving a load still under way to the next process
   * that opens this workspace's store (SkillService.handOver): only the use counts of its answers
   * are saved. The one-shot hook does this when it has just claimed the start of the resident
   * hook, which checks the library itself. The caller exits next; `dispose` is still needed to
   * free the door in a process that goes on.
   */
  handOver(): Promise<void>;
  dispose(): Promise<void>;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'folder';

/** The packs a door loads, in load order (the first definition of a name wins): workspace, runtime's user folders, Toolshed's library. */
function doorPacks(runtime: RuntimeDescriptor, workspaceFolder: string, trusted: boolean, home: string, env: DoorSessionOptions['env'], library: string) {
  const packs: ResolvedSkillPack[] = [];
  if (trusted)
    for (const folder of runtime.workspaceSkillFolders)
      packs.push(
        folderPack(`ws-${slug(folder)}`, path.join(workspaceFolder, folder), {
          scopeMode: 'project',
          projectId: workspaceFolder,
          source: 'workspace-agent-folder',
          workspace: true,
          optional: true,
        }),
      );
  for (const folder of runtime.userSkillFolders(home, env ?? {}))
    packs.push(folderPack(`home-${slug(path.relative(home, folder) || folder)}`, folder, { source: 'home-agent-folder', optional: true }));
  packs.push(folderPack('toolshed-library', library, { optional: true }));
  return packs;
}

export async function openDoorSession(options: DoorSessionOptions): Promise<DoorSession> {
  const runtime = RUNTIMES[options.runtime];
  const workspaceFolder = path.resolve(options.workspaceFolder);
  const home = options.home ?? os.homedir();
  const env = options.env ?? process.env;
  const ownHome = options.toolshedHome ?? defaultToolshedHome(env as NodeJS.ProcessEnv, home);
  const trustNow = () => workspaceTrust({ runtime: runtime.id, workspaceFolder, home, env, toolshedHome: ownHome });
  const packsFor = (answer: TrustAnswer) => doorPacks(runtime, workspaceFolder, answer.trusted, home, env, path.join(ownHome, TOOLSHED_LIBRARY_FOLDER));
  const config = skillsConfigSchema.parse({ includeAgentSkillFolders: false, ...options.config });
  const engine = options.engine ?? (await loadSqlEngine());
  const parserScript = options.parserScript ?? path.join(__dirname, 'parseWorker.js');
  // The thread starts with the first file a load reads (a warm start that reads none starts none).
  const parserThread = existsSync(parserScript) ? new OffThreadRunner(parserScript, options.logger ?? nullLogger) : undefined;
  const skills = await createHeadlessSkillService({
    engine,
    store: new NodeByteStore(doorFolderFor(workspaceFolder, ownHome)),
    dbKey: `skills.${runtime.id}.db`,
    env,
    config,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(parserThread ? { countTerms: offThreadSkillTerms(parserThread) } : {}),
  });
  const folder = doorFolderFor(workspaceFolder, ownHome);
  const extension = new ExtensionSkillsView(folder, workspaceFolder, options.logger);
  const watched = new FolderWatch(options.watch === true);
  let trust = trustNow();
  let packs = packsFor(trust);
  let present = presence(packs);
  const afterLoad = options.collectAfterLargeLoad === false ? (summary: LoadSummary) => summary : collectAfterLargeLoad;
  let loaded: Promise<LoadSummary>;
  try {
    watched.watch(packs);
    // Not awaited: the first answer need not wait for the check of the whole library (the skill
    // service's rule, earlyAnswers.ts); a failed load is the caller's through `loaded`.
    loaded = skills.loadPacks(packs).then(afterLoad);
    loaded.catch(() => undefined);
    await extension.apply(skills);
  } catch (error) {
    watched.close();
    await skills.dispose();
    parserThread?.dispose();
    throw error;
  }
  const requestContext = (): SkillRequestContext => {
    const tenantId = extension.tenantId();
    return {
      scope: { projectId: workspaceFolder, ...(tenantId ? { tenantId } : {}) },
      includeWorkspacePacks: trust.trusted,
      retiredNames: extension.retired(),
    };
  };
  return {
    runtime,
    workspaceFolder,
    get trust() {
      return trust;
    },
    folder,
    get packs() {
      return packs;
    },
    get loaded() {
      return loaded;
    },
    skills,
    config,
    requestContext,
    syncExtensionSkills: () => extension.apply(skills),
    async preflight(prompt) {
      const countTokens = (text: string) => lengthTokenCounter.count(text);
      const port = skillPreflight(skills, requestContext(), config, { pinnedNames: [], countTokens, signal: { isCancelled: false } });
      const result = await port.preflight(prompt);
      const offered = offeredSkills(result);
      const offer = offeredSkillsBlock(offered, (name) => skills.inspect(name)?.description);
      const context = [result.pinnedBlock, result.relevantBlock, offer].filter(Boolean).join('\n\n');
      return {
        context,
        injected: result.used.map((use) => ({ name: use.name, relevance: use.relevance, reason: use.reason })),
        offered,
        explanation: explainSkills(config, result, { pinnedNames: [], workspaceSkills: trust.trusted }),
        tokens: context ? await countTokens(context) : 0,
        ...(result.note ? { note: result.note } : {}),
      };
    },
    async refresh() {
      const nextTrust = trustNow();
      const nextPacks = packsFor(nextTrust);
      const nextPresent = presence(nextPacks);
      await extension.apply(skills);
      if (nextTrust.trusted === trust.trusted && nextPresent === present && !watched.takeChanged()) return;
      trust = nextTrust;
      packs = nextPacks;
      present = nextPresent;
      watched.watch(packs);
      loaded = skills.loadPacks(packs).then(afterLoad);
      await loaded;
    },
    async handOver() {
      watched.close();
      await skills.handOver();
    },
    async dispose() {
      watched.close();
      await skills.dispose();
      parserThread?.dispose();
    },
  };
}

/** Files a load must have read (not found unchanged) for its garbage to be worth a collection of its own. */
const COLLECT_AFTER_FILES_READ = 1000;

/**
 * After a load that read many files (a cold start: the whole library), once its store is saved:
 * one full collection of the door's heap (heapCollection.ts), so the searches that follow do not
 * pile their garbage on the load's. A warm start reads no file and collects nothing.
 */
function collectAfterLargeLoad(summary: LoadSummary): LoadSummary {
  if (summary.files - summary.unchangedFiles >= COLLECT_AFTER_FILES_READ) collectGarbage();
  return summary;
}

/** Which pack folders exist now (a folder that appears or goes is a change a watch cannot see). */
function presence(packs: readonly ResolvedSkillPack[]): string {
  return packs.map((pack) => (existsSync(pack.root) ? '1' : '0')).join('');
}

/** Watches pack folders for any change; without watching (or when a watch fails) every check says "changed". */
class FolderWatch {
  private watchers: FSWatcher[] = [];
  private changed = true;

  constructor(private readonly enabled: boolean) {}

  watch(packs: readonly ResolvedSkillPack[]): void {
    this.close();
    if (!this.enabled) return;
    for (const pack of packs) {
      if (!existsSync(pack.root)) continue;
      try {
        const watcher = fsWatch(pack.root, { recursive: true, persistent: false }, () => (this.changed = true));
        watcher.on('error', () => {
          this.changed = true;
          this.close();
        });
        this.watchers.push(watcher);
      } catch {
        // Too many folders to watch (the system's limit): check every file on each refresh instead.
        this.close();
        this.watchers = [];
        return;
      }
    }
    this.changed = false;
  }

  takeChanged(): boolean {
    const changed = this.changed || (this.enabled && this.watchers.length === 0);
    this.changed = false;
    return changed;
  }

  close(): void {
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
  }
}
