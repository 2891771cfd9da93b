import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import { Disposable } from '../lifecycle';
import type { SkillDirectorySource } from '../views/skillDirectorySource';
import { isSkillFile } from './skillFileKinds';
import { SKILL_FILE_GLOB } from '../../core/skills/packs/document/skillFileNames';

export type SkillFileChange = { readonly uri: vscode.Uri; readonly kind: 'created' | 'changed' | 'deleted' };

/**
 * Watches skill files in the workspace. In `own` mode it also keeps the skill index in step:
 * saving (or an outside change, creation or deletion) re-indexes just that file. In `observe`
 * mode something else (the pack manager's watchers) re-indexes, and this only reports changes
 * (the diagnostics' duplicate-name index listens). Events are coalesced per file, since a save
 * is seen both as a save and as a watcher change.
 */
export class SkillFileSync extends Disposable {
  private readonly pending = new Map<string, { timer: ReturnType<typeof setTimeout>; kind: SkillFileChange['kind']; uri: vscode.Uri }>();
  private readonly changed = this._register(new vscode.EventEmitter<SkillFileChange>());
  /** After the index was updated for a file. */
  readonly onDidSync = this.changed.event;

  constructor(
    private readonly source: SkillDirectorySource,
    private readonly logger: Logger,
    private readonly mode: 'own' | 'observe' = 'own',
    private readonly delayMs = 150,
  ) {
    super();
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(SKILL_FILE_GLOB));
    this._register(watcher.onDidCreate((uri) => this.schedule(uri, 'created')));
    this._register(watcher.onDidChange((uri) => this.schedule(uri, 'changed')));
    this._register(watcher.onDidDelete((uri) => this.schedule(uri, 'deleted')));
    this._register(
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (isSkillFile(doc.fileName)) this.schedule(doc.uri, 'changed');
      }),
    );
    this._register({ dispose: () => this.pending.forEach((p) => clearTimeout(p.timer)) });
  }

  private schedule(uri: vscode.Uri, kind: SkillFileChange['kind']): void {
    if (uri.scheme !== 'file' || !isSkillFile(uri.path)) return;
    const key = uri.toString();
    const previous = this.pending.get(key);
    if (previous) clearTimeout(previous.timer);
    // A delete followed by a create (atomic save) is a change.
    const effective = previous && previous.kind !== kind ? 'changed' : kind;
    const finalKind = kind === 'deleted' ? 'deleted' : effective;
    const timer = setTimeout(() => void this.flush(key), this.delayMs);
    this.pending.set(key, { timer, kind: finalKind, uri });
  }

  private async flush(key: string): Promise<void> {
    const entry = this.pending.get(key);
    if (!entry) return;
    this.pending.delete(key);
    try {
      if (this.mode === 'observe') {
        // The pack manager re-indexes; nothing to do but report.
      } else if (entry.kind === 'deleted') {
        if (this.source.forgetFile) await this.source.forgetFile(entry.uri.fsPath);
        else await this.source.reindexFile(entry.uri.fsPath);
      } else {
        await this.source.reindexFile(entry.uri.fsPath);
      }
      this.logger.debug(`Re-indexed ${entry.uri.fsPath} (${entry.kind})`);
    } catch (error) {
      this.logger.warn(`Could not re-index ${entry.uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.changed.fire({ uri: entry.uri, kind: entry.kind });
  }
}
