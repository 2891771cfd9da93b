import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import type { SkillService } from '../../core/skills/skillService';
import { SHARED_SKILLS_KEY } from '../../core/skills/store/sharedSkillStore';
import type { SettingsAccessor } from '../settingsAccessor';

/**
 * Keeps this window's copy of the shared (tenant/global) learned skills current: another window
 * wrote the shared store (file watcher on the global storage), this window got focus back (a
 * missed event costs at most a focus change), or the tenant id changed (a different tenant's
 * skills become visible). `onChanged` runs when skills changed here (to refresh the sidebar).
 */
export function keepSharedSkillsInSync(
  context: vscode.ExtensionContext,
  deps: { skills: SkillService; settings: SettingsAccessor; logger: Logger },
  onChanged: () => void,
): void {
  let running: Promise<void> | undefined;
  let again = false;
  const sync = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = deps.skills.syncSharedSkills()
      .then((changed) => {
        if (changed > 0) onChanged();
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
