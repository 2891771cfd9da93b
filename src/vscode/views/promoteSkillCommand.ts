import * as vscode from 'vscode';
import type { SkillRecord } from '../../core/skills/skillSchema';
import type { SkillService } from '../../core/skills/skillService';
import { describeScope, scopeRank } from '../../core/skills/store/skillScope';
import type { SkillScope } from '../../core/skills/store/skillScope';
import type { SkillDirectorySource } from './skillDirectorySource';
import { resolveSkill } from './skillDirectoryView';

type Target = 'tenant' | 'global';

/** What the command uses: the learned skills, the view's items, the tenant id, and the promotion itself. */
export interface PromoteSkillDeps {
  readonly skills: Pick<SkillService, 'listPacks'>;
  readonly directory: SkillDirectorySource;
  tenantId(): string;
  /** Moves the skill and fires the skill change event (learning's writes), so the views follow. */
  promote(name: string, to: Target, options: { from: SkillScope }): Promise<SkillRecord>;
}

/**
 * `toolshed.promoteSkill`: moves a learned skill to a wider scope (project → tenant → global),
 * from the Skill Directory's context menu or the palette. Arguments (tree item or name, then an
 * optional target) let tests and keybindings skip the pickers.
 */
export function registerPromoteSkillCommand(context: vscode.ExtensionContext, deps: PromoteSkillDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('toolshed.promoteSkill', async (arg?: unknown, target?: Target) => {
      // A name is looked up in the service (always current); a tree item carries its own scope.
      const picked =
        typeof arg === 'string'
          ? learnedByName(deps.skills, arg)
          : (resolveSkill(deps.directory, arg) ?? (arg === undefined ? await pickLearnedSkill(deps.directory) : undefined));
      const scope = picked?.learnedScope;
      if (!picked || !scope) {
        if (arg !== undefined)
          void vscode.window.showWarningMessage('Toolshed: only learned skills can be promoted (pack skills are shared by committing their files).');
        return undefined;
      }
      const to = target ?? (await pickTarget(picked.name, scope, deps.tenantId()));
      if (!to) return undefined;
      try {
        const promoted = await deps.promote(picked.name, to, { from: scope });
        void vscode.window.showInformationMessage(`Toolshed: "${picked.name}" is now in ${describeScope(promoted)}.`);
        return describeScope(promoted);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        void vscode.window
          .showErrorMessage(`Toolshed: ${message}`, ...(message.includes('toolshed.scope.tenantId') ? ['Open Settings'] : []))
          .then((choice) => {
            if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'toolshed.scope.tenantId');
          });
        return undefined;
      }
    }),
  );
}

/** The narrowest-scoped learned skill of that name (the one requests see first). */
function learnedByName(skills: Pick<SkillService, 'listPacks'>, name: string): { name: string; learnedScope?: SkillScope } | undefined {
  const scopes = skills
    .listPacks()
    .filter((p) => p.source === 'learned')
    .flatMap((p) => p.skills)
    .filter((s) => s.name === name && s.scope)
    .map((s) => s.scope as SkillScope);
  return scopes.length ? { name, learnedScope: scopes.sort((a, b) => scopeRank(b) - scopeRank(a))[0] } : undefined;
}

async function pickLearnedSkill(directory: SkillDirectorySource): Promise<ReturnType<typeof resolveSkill>> {
  const learned = directory
    .packs()
    .flatMap((p) => p.skills)
    .filter((s) => s.learnedScope && s.learnedScope.scope_mode !== 'global');
  if (learned.length === 0) {
    void vscode.window.showInformationMessage('Toolshed: no learned skill to promote (global ones are as wide as it gets).');
    return undefined;
  }
  const choice = await vscode.window.showQuickPick(
    learned.map((skill) => ({ label: skill.name, description: describeScope(skill.learnedScope as SkillScope), skill })),
    { title: 'Promote a learned skill', placeHolder: 'Which learned skill?' },
  );
  return choice?.skill;
}

async function pickTarget(name: string, scope: SkillScope, tenantId: string): Promise<Target | undefined> {
  const items: Array<vscode.QuickPickItem & { target: Target }> = [];
  if (scope.scope_mode === 'project') {
    items.push({
      target: 'tenant',
      label: 'Tenant',
      description: tenantId ? `every window with tenant id "${tenantId}"` : 'set toolshed.scope.tenantId first',
    });
  }
  if (scope.scope_mode !== 'global') items.push({ target: 'global', label: 'Global', description: 'every window of yours, any workspace or tenant' });
  if (items.length === 0) {
    void vscode.window.showInformationMessage(`Toolshed: "${name}" is already global.`);
    return undefined;
  }
  const choice = await vscode.window.showQuickPick(items, { title: `Promote "${name}" (now ${describeScope(scope)}) to…` });
  return choice?.target;
}
