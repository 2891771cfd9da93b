import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import { TOOLSHED_VERSION } from '../../core/platform/version';
import { toolshedHome } from '../../core/runtimes/doors/doorFolder';
import { nodeRuntime, refreshLauncher, type LauncherSource } from '../../core/runtimes/setup/launcher';
import { prepareSetup } from '../../core/runtimes/setup/runtimeSetup';
import { describePlan, SetupError } from '../../core/runtimes/setup/setupPlan';
import type { SetupRuntime, SetupScope } from '../../core/runtimes/setup/runtimeTargets';

const SET_UP_COMMAND = 'toolshed.setUpAgentRuntimes';

/** The bundled CLI of this extension, which the launcher copies. */
function bundledCli(extensionPath: string): LauncherSource {
  return { distDir: path.join(extensionPath, 'dist'), packsRoot: extensionPath, version: TOOLSHED_VERSION };
}

/**
 * On activation: keeps the launcher that setup installed (`~/.toolshed/bin`) at this version of
 * the extension, so hook and MCP entries run the same code as the editor after an update. Does
 * nothing where setup never ran.
 */
export function refreshAgentLauncher(extensionPath: string, logger: Logger): void {
  try {
    if (refreshLauncher(toolshedHome(), bundledCli(extensionPath)))
      logger.info(`Agent runtimes: the launcher in ${toolshedHome()} now runs ${TOOLSHED_VERSION}.`);
  } catch (error) {
    logger.warn(`Agent runtimes: the launcher could not be refreshed (${error instanceof Error ? error.message : String(error)}).`);
  }
}

interface Pick<T> extends vscode.QuickPickItem {
  value: T;
}

async function choose<T>(items: Array<Pick<T>>, placeHolder: string): Promise<T | undefined> {
  return (await vscode.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true }))?.value;
}

/**
 * **Toolshed: Set Up Agent Runtimes…**: the same setup as `toolshed setup` — a runtime, user or
 * workspace, install or remove — showing every change and asking before anything is written.
 */
export function registerSetUpAgentRuntimes(context: vscode.ExtensionContext, logger: Logger): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(SET_UP_COMMAND, async () => {
      const runtime = await choose<SetupRuntime>(
        [
          { label: 'Copilot CLI', description: "also VS Code's Copilot harness", value: 'copilot' },
          { label: 'Claude Code', value: 'claude' },
          { label: 'Codex', value: 'codex' },
        ],
        'Which agent runtime should run Toolshed?',
      );
      if (!runtime) return;
      const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
      const where = await choose<{ scope: SetupScope; workspace: string }>(
        [
          { label: 'For me (user settings)', description: 'every workspace', value: { scope: 'user', workspace: os.homedir() } },
          ...folders.map((folder) => ({
            label: `For this workspace: ${folder.name}`,
            description: folder.uri.fsPath,
            value: { scope: 'workspace' as const, workspace: folder.uri.fsPath },
          })),
        ],
        'Where should the entries go?',
      );
      if (!where) return;
      const action = await choose<{ remove: boolean; gateway: boolean }>(
        [
          { label: 'Install', description: 'the prompt-submit hook and the MCP server', value: { remove: false, gateway: false } },
          {
            label: 'Install with the MCP gateway',
            description: 'also toolshed-gateway over ~/.toolshed/gateway.mcp.json',
            value: { remove: false, gateway: true },
          },
          { label: 'Remove', description: 'only the entries Toolshed wrote', value: { remove: true, gateway: true } },
        ],
        'Install or remove?',
      );
      if (!action) return;
      try {
        const setup = prepareSetup({
          runtime,
          ...where,
          ...action,
          userHome: os.homedir(),
          toolshedHome: toolshedHome(),
          // Where no `node` is on PATH, VS Code's own runtime runs the launcher as Node.
          launcher: nodeRuntime({ executable: process.execPath, electron: true }),
          source: bundledCli(context.extensionPath),
          ...(process.env.CODEX_HOME ? { codexHome: process.env.CODEX_HOME } : {}),
        });
        const changes = describePlan(setup.plan, true);
        if (setup.plan.changes.length === 0) {
          void vscode.window.showInformationMessage(changes.trim());
          setup.apply();
          return;
        }
        const detail = [changes.trim(), ...setup.notes.map((note) => `Also: ${note}`)].join('\n');
        const write = await vscode.window.showWarningMessage('Toolshed will change these files.', { modal: true, detail }, 'Write');
        if (write !== 'Write') return;
        const done = setup.apply();
        logger.info(`Agent runtimes: ${describePlan(setup.plan, false).trim()}${done.length ? `\n${done.join('\n')}` : ''}`);
        void vscode.window.showInformationMessage(
          `Toolshed ${action.remove ? 'removed its entries from' : 'is set up in'} ${runtime === 'copilot' ? 'Copilot CLI' : runtime === 'claude' ? 'Claude Code' : 'Codex'}; the changes are in the Toolshed log.`,
        );
      } catch (error) {
        if (!(error instanceof SetupError)) throw error;
        void vscode.window.showErrorMessage(error.message);
      }
    }),
  );
}
