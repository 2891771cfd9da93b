import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { TOOLSHED_VERSION } from '../../core/platform/version';
import type { SkillPackManager } from './skillPackManager';
import { mcpServerArgs } from './mcpServerArgs';
import type { OpeningServices } from '../servicesOpening';

/**
 * Toolshed's MCP server for VS Code's own chat sessions (the Copilot harness runs extension tools
 * as client tools that may be hidden or absent; an MCP server it always reaches): the bundled CLI,
 * `dist/cli.js mcp`, run by the extension host's own runtime (`process.execPath` as Node), over
 * the packs this window loaded — workspace packs only in a trusted workspace, the one trust rule.
 * The definition changes, and VS Code is told, when the packs or the trust change.
 */

/** The provider id, as package.json's `contributes.mcpServerDefinitionProviders` declares it. */
const MCP_SERVER_PROVIDER_ID = 'toolshed.skills';

export function registerMcpServerDefinitions(context: vscode.ExtensionContext, opening: OpeningServices<{ readonly skillPacks: SkillPackManager }>): void {
  const cli = path.join(context.extensionPath, 'dist', 'cli.js');
  const changed = new vscode.EventEmitter<void>();
  const current = (skillPacks: SkillPackManager) =>
    mcpServerArgs(cli, skillPacks.packs(), vscode.workspace.isTrusted, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  // Registered at activation; the definition is made once the services are open (VS Code may ask before).
  void opening.whenReady().then(
    ({ skillPacks }) => {
      let last = JSON.stringify(current(skillPacks));
      const refresh = () => {
        const next = JSON.stringify(current(skillPacks));
        if (next === last) return;
        last = next;
        changed.fire();
      };
      context.subscriptions.push(skillPacks.onDidChange(refresh), vscode.workspace.onDidGrantWorkspaceTrust(refresh));
    },
    () => undefined,
  );
  context.subscriptions.push(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_SERVER_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: async () => {
        // Toolshed could not start: no server to offer (the start's error is shown once, at activation).
        const services = await opening.whenReady().catch(() => undefined);
        const args = services && current(services.skillPacks);
        if (!args || !existsSync(cli)) return [];
        // ELECTRON_RUN_AS_NODE: the editor's own executable runs the script as plain Node, so no Node install is needed.
        return [new vscode.McpStdioServerDefinition('Toolshed skills', process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' }, TOOLSHED_VERSION)];
      },
    }),
  );
}
