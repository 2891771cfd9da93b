import * as vscode from 'vscode';
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../../core/platform/ports';
import { detectSkillFormat } from '../../core/skills/packs/document/skillDocumentParser';
import type { LoadSummary } from '../../core/skills/packs/skillPackLoader';
import { BUILT_IN_PACKS_FOLDER, resolveSkillPacks, type ResolvedSkillPack } from '../../core/skills/packs/skillPackSources';
import type { SkillService } from '../../core/skills/skillService';
import { Disposable } from '../lifecycle';
import { AGENT_SKILLS_LOCATIONS, readAgentSkillLocations } from './nativeAgentSkills';
import type { SettingsAccessor } from '../settingsAccessor';
import { markStart } from '../../core/platform/startTrace';
import { loadProgressReporter } from './loadProgress';

/**
 * Owns which skill packs are loaded and keeps the store in step with the files:
 * resolves packs from settings, the workspace and the home folder; loads them with progress;
 * watches every pack folder and re-indexes just the file that changed (or was deleted).
 * Fires `onDidChange` after every load or file change so views and diagnostics agree.
 */
export class SkillPackManager extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private watchers: vscode.Disposable[] = [];
  private resolved: ResolvedSkillPack[] = [];
  /** The packs of the last load that finished. */
  private loaded: readonly ResolvedSkillPack[] = [];
  private loading: Promise<LoadSummary | undefined> = Promise.resolve(undefined);
  private handedOver: Promise<void> = Promise.resolve();
  private readonly pendingFiles = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly service: SkillService,
    private readonly settings: SettingsAccessor,
    private readonly extensionPath: string,
    private readonly logger: Logger,
  ) {
    super();
    this._register(
      settings.onDidChange((next) => {
        service.updateConfig(next.skills);
        void this.reload();
      }),
    );
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.reload()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(AGENT_SKILLS_LOCATIONS)) void this.reload();
      }),
    );
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()));
    this._register({ dispose: () => this.disposeWatchers() });
  }

  /** Resolves when the latest load has finished (the participant waits on it). */
  get ready(): Promise<unknown> {
    return this.loading;
  }

  /**
   * Resolves once the latest load is under way in the skill service, which decides whether an
   * answer waits for it (a warm start answers from the saved index: core/skills/earlyAnswers.ts).
   * The skill tools wait on this, not on `ready`.
   */
  get answerable(): Promise<unknown> {
    return this.handedOver;
  }

  packs(): readonly ResolvedSkillPack[] {
    return this.resolved;
  }

  /** Every pack whose skills the store may hold: the last finished load's and the one under way's. */
  storedPacks(): ResolvedSkillPack[] {
    const packs = [...this.loaded];
    for (const pack of this.resolved) if (!packs.some((p) => p.name === pack.name && p.root === pack.root)) packs.push(pack);
    return packs;
  }

  /**
   * (Re)loads every pack. With `progress`, reports files as they load and honours
   * cancellation (what was loaded stays; the next reload completes it).
   */
  reload(progress?: vscode.Progress<{ message?: string; increment?: number }>, token?: vscode.CancellationToken): Promise<LoadSummary | undefined> {
    let handOver: () => void = () => undefined;
    const handedOver = new Promise<void>((resolve) => (handOver = resolve));
    markStart('reload:call');
    const run = async (): Promise<LoadSummary | undefined> => {
      markStart('reload:run');
      const packs = this.resolvePacks();
      markStart('reload:resolved');
      this.resolved = packs;
      const loading = this.service.loadPacks(packs, {
        ...(progress ? { onProgress: loadProgressReporter(progress) } : {}),
        cancellation: token,
      });
      markStart('reload:handover');
      handOver();
      const summary = await loading;
      this.loaded = packs;
      this.watch(packs);
      if (summary.cancelled) this.logger.info('Loading skill packs was cancelled; the next reload completes it.');
      markStart('reload:loaded');
      this.changed.fire();
      return summary;
    };
    // Loads are serialised: a reload requested mid-load runs after it, on fresh settings.
    this.loading = this.loading
      .then(run, run)
      .catch((error: unknown) => {
        this.logger.error(`Loading skill packs failed: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      })
      .finally(handOver);
    this.handedOver = handedOver;
    return this.loading;
  }

  /** Re-indexes one file now (on save); the watcher path debounces the same work. */
  async reloadFile(file: string): Promise<void> {
    await this.reloadFiles([file]);
  }

  /** Re-indexes several files now (an export writes many), then tells the views once. */
  async reloadFiles(files: readonly string[]): Promise<void> {
    await this.loading;
    let changed = false;
    for (const file of files) {
      const result = await this.service.reloadFile(file);
      if (result.status === 'ignored') continue;
      this.logger.debug(
        `Skill file ${result.status}: ${file} (+${result.inserted.length} ~${result.updated.length} -${result.removed.length}, ${result.durationMs.toFixed(1)} ms)`,
      );
      changed = true;
    }
    if (changed) this.changed.fire();
  }

  async removeFile(file: string): Promise<void> {
    await this.loading;
    const result = await this.service.removeFile(file);
    if (result.removed.length + result.inserted.length + result.updated.length > 0) this.changed.fire();
  }

  private resolvePacks(): ResolvedSkillPack[] {
    const config = this.settings.current.skills;
    const inspected = vscode.workspace.getConfiguration('toolshed.skills').inspect('packs');
    const builtInRoot = path.join(this.extensionPath, BUILT_IN_PACKS_FOLDER);
    return resolveSkillPacks({
      config,
      extensionPath: this.extensionPath,
      builtInPackNames: listFolders(builtInRoot),
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
        name: folder.name,
        path: folder.uri.fsPath,
        projectId: workspaceProjectId(),
      })),
      homeDir: os.homedir(),
      packsFromWorkspaceSettings: inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined,
      agentSkillLocations: readAgentSkillLocations(),
    });
  }

  private watch(packs: readonly ResolvedSkillPack[]): void {
    this.disposeWatchers();
    for (const pack of packs) {
      if (!pack.enabled || pack.source === 'builtin') continue;
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(pack.root), '**/*'));
      watcher.onDidCreate((uri) => this.schedule(uri, 'change'));
      watcher.onDidChange((uri) => this.schedule(uri, 'change'));
      watcher.onDidDelete((uri) => this.schedule(uri, 'delete'));
      this.watchers.push(watcher);
    }
  }

  /** Coalesces bursts of events for one file (editors often write twice). */
  private schedule(uri: vscode.Uri, kind: 'change' | 'delete'): void {
    const file = uri.fsPath;
    // A deleted folder may hold skills: deletes are always passed on; changes only for skill files.
    if (kind === 'change' && !detectSkillFormat(path.basename(file))) return;
    clearTimeout(this.pendingFiles.get(file));
    this.pendingFiles.set(
      file,
      setTimeout(() => {
        this.pendingFiles.delete(file);
        void (kind === 'delete' ? this.removeFile(file) : this.reloadFile(file));
      }, 150),
    );
  }

  private disposeWatchers(): void {
    for (const watcher of this.watchers) watcher.dispose();
    this.watchers = [];
    for (const timer of this.pendingFiles.values()) clearTimeout(timer);
    this.pendingFiles.clear();
  }
}

/**
 * The `project` scope of this window: the workspace file of a multi-root workspace, else the
 * single folder. Every folder's skills share it, so a request sees all of the window's skills
 * and none of another window's.
 */
export function workspaceProjectId(): string | undefined {
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile && workspaceFile.scheme === 'file') return workspaceFile.fsPath;
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function listFolders(folder: string): string[] {
  try {
    return fs
      .readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
