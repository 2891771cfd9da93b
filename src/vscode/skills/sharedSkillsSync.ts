import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import type { SkillService } from '../../core/skills/skillService';
import { SHARED_SKILLS_KEY } from '../../core/skills/store/learned/sharedSkillStore';
import type { SettingsAccessor } from '../settingsAccessor';
import type { SkillChanges } from '../skillChanges';

/**
 * Keeps this window's copy of the shared (tenant/global) learned skills current: another window
 * wrote the shared store (file watcher on the global storage; and, because watchers outside the
 * workspace are not delivered everywhere — code-server, some remotes — a stat of the file every
 * few seconds, which reads nothing unless its size or time changed), this window got focus back,
 * or the tenant id changed (a different tenant's skills become visible). When skills changed
 * here it fires the skill change event, which the views follow.
 */
export function keepSharedSkillsInSync(
  context: vscode.ExtensionContext,
  deps: { skills: Pick<SkillService, 'syncSharedSkills'>; settings: SettingsAccessor; logger: Logger; changes: Pick<SkillChanges, 'fire'> },
): void {
  let running: Promise<void> | undefined;
  let again = false;
  const sync = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = deps.skills
      .syncSharedSkills()
      .then((changed) => {
        if (changed === 0) return;
        deps.logger.info(`Shared skills: ${changed} learned skill(s) changed by another window or a tenant change.`);
        deps.changes.fire({ skills: true });
      })
      .catch((error: unknown) => deps.logger.warn(`Shared skills not refreshed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          sync();
        }
      });
  };
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(context.globalStorageUri, SHARED_SKILLS_KEY));
  let tenant = deps.settings.current.scope.tenantId;
  const file = path.join(context.globalStorageUri.fsPath, SHARED_SKILLS_KEY);
  let lastSeen = '';
  const poll = setInterval(() => {
    void fs
      .stat(file)
      .then(
        (s) => `${s.size}:${s.mtimeMs}`,
        () => 'absent',
      )
      .then((seen) => {
        if (seen === lastSeen) return;
        // The first look syncs too: a write between activation and it would otherwise be missed.
        lastSeen = seen;
        sync();
      });
  }, SHARED_POLL_MS);
  context.subscriptions.push({ dispose: () => clearInterval(poll) });
  context.subscriptions.push(
    watcher,
    watcher.onDidChange(sync),
    watcher.onDidCreate(sync),
    watcher.onDidDelete(sync),
    vscode.window.onDidChangeWindowState((state) => {
      if (state.focused) sync();
    }),
    deps.settings.onDidChange((next) => {
      if (next.scope.tenantId === tenant) return;
      tenant = next.scope.tenantId;
      sync();
    }),
  );
}

/** How often the shared store's file is checked for changes another window made. */
const SHARED_POLL_MS = 3000;
