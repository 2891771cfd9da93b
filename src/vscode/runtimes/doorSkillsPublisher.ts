import * as vscode from 'vscode';
import { publishedSkillsOf, writePublishedSkills } from '../../core/runtimes/doors/publishedSkills';
import { workspaceDoorFolders } from '../doorFolders';
import type { ToolshedServices } from '../services';

/** Changes in one burst (an import of many learned skills, a reload) are published once. */
const PUBLISH_DELAY_MS = 250;

/**
 * Keeps the door folders of this window's workspace folders told what `@toolshed` sees that the
 * doors cannot read themselves: the approved learned skills of this project, tenant and global
 * scope, and the skills retired in the Ledger view (`core/runtimes/doors/publishedSkills.ts`).
 * Written at activation and after each change of either; the file is only rewritten when its
 * text changes. A folder that cannot be written is logged; the extension goes on.
 */
export function publishSkillsToDoors(
  context: vscode.ExtensionContext,
  services: Pick<ToolshedServices, 'skills' | 'ledger' | 'skillChanges' | 'settings' | 'logger'>,
  /** The window's project id, the scope of its project's learned skills (`workspaceProjectId`). */
  workspaceProjectId: () => string | undefined,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const publish = () => {
    timer = undefined;
    const tenantId = services.settings.current.scope.tenantId;
    const projectId = workspaceProjectId();
    const published = publishedSkillsOf(services.skills.learnedSkills(), services.ledger.retiredSkillNames(), {
      ...(projectId ? { projectId } : {}),
      ...(tenantId ? { tenantId } : {}),
    });
    for (const folder of workspaceDoorFolders()) {
      try {
        if (writePublishedSkills(folder, published)) services.logger.info(`Learned and retired skills published for the hook and MCP server in ${folder}`);
      } catch (error) {
        services.logger.warn(
          `The hook and MCP server were not told of the learned and retired skills (${folder}: ${error instanceof Error ? error.message : String(error)})`,
        );
      }
    }
  };
  const later = () => {
    timer ??= setTimeout(publish, PUBLISH_DELAY_MS);
  };
  context.subscriptions.push(
    services.skillChanges.onDidChange((change) => {
      if (change.skills) later();
    }),
    services.ledger.onDidChangeRetired(later),
    services.settings.onDidChange(later),
    vscode.workspace.onDidChangeWorkspaceFolders(later),
    { dispose: () => clearTimeout(timer) },
  );
  later();
}
