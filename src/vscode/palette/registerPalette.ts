import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import { insertIntoChat, openSkill } from '../views/skillDirectoryView';
import { showToolDetails } from '../views/activatedToolsView';
import { findSkill, type ReloadSummary, type SkillDirectorySource } from '../views/skillDirectorySource';
import { toolChatReference } from './searchItemModel';
import type { SearchProvider, ToolSearchProvider } from './searchProviders';
import { showSearchQuickPick } from './searchQuickPick';
import { skillReferenceText } from '../views/skillDirectoryView';

export interface PaletteDeps {
  readonly skills: SkillDirectorySource;
  readonly skillSearch: SearchProvider;
  readonly toolSearch: ToolSearchProvider;
  readonly logger: Logger;
}

/** "Search Skills…", "Search Tools…" and "Reload Skill Packs" (with cancellable progress). */
export function registerPalette(context: vscode.ExtensionContext, deps: PaletteDeps): void {
  const copy = async (name: string) => {
    await vscode.env.clipboard.writeText(name);
    vscode.window.setStatusBarMessage(`Copied "${name}"`, 2000);
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('toolshed.searchSkills', (query?: unknown) =>
      showSearchQuickPick(
        'skill',
        deps.skillSearch,
        {
          open: async (result) => {
            const skill = findSkill(deps.skills.packs(), result.name);
            if (skill) return openSkill(skill);
            if (result.sourceFile)
              return openSkill({
                ...result,
                title: result.title ?? '',
                trigger: '',
                description: result.description ?? '',
                taskType: 'unknown',
                tags: [],
                status: 'active',
                packName: '',
              });
            return undefined;
          },
          copyName: (result) => copy(result.name),
          insertReference: (result) => {
            const skill = findSkill(deps.skills.packs(), result.name);
            return insertIntoChat(skill ? skillReferenceText(skill) : `@toolshed /skill ${result.name} `);
          },
        },
        typeof query === 'string' ? query : '',
      ),
    ),
    vscode.commands.registerCommand('toolshed.searchTools', (query?: unknown) =>
      showSearchQuickPick(
        'tool',
        deps.toolSearch,
        {
          open: (result) => showToolDetails(result.name),
          details: (result) => showToolDetails(result.name),
          copyName: (result) => copy(result.name),
          insertReference: (result) => insertIntoChat(toolChatReference(result)),
        },
        typeof query === 'string' ? query : '',
      ),
    ),
    vscode.commands.registerCommand('toolshed.reloadSkillPacks', () => reloadSkillPacks(deps)),
    // Internal (not contributed): the ranked results behind the QuickPicks, for tests and debugging.
    vscode.commands.registerCommand('toolshed._searchRanked', (kind: 'skill' | 'tool', query: string, limit = 20) =>
      (kind === 'tool' ? deps.toolSearch : deps.skillSearch).search(String(query ?? ''), limit),
    ),
  );
}

async function reloadSkillPacks(deps: PaletteDeps): Promise<ReloadSummary> {
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Toolshed: reloading skill packs', cancellable: true },
    (progress, token) => deps.skills.reload(progress, token),
  );
  const text = `${summary.skills} skills from ${summary.packs} packs${summary.problems ? `, ${summary.problems} problems` : ''}`;
  deps.logger.info(`Reload Skill Packs: ${text}${summary.cancelled ? ' (cancelled)' : ''}`);
  vscode.window.setStatusBarMessage(`Toolshed: ${summary.cancelled ? 'reload cancelled — ' : ''}${text}`, 4000);
  return summary;
}
