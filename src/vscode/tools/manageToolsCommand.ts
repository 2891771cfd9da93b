import * as vscode from 'vscode';
import type { ToolState } from '../../core/config/settingsSchema';
import { applyStateChoice, groupToolsBySource } from '../../core/tools/modes/manageToolsModel';
import type { StateChoice, StateTarget, ToolGroup } from '../../core/tools/modes/manageToolsModel';
import { toolSourceFrom } from '../../core/tools/modes/toolSources';
import { requestMatchReason } from '../../core/tools/requestMatchRecord';
import type { ToolshedServices } from '../services';
import { toolSourceFacts } from './toolSourceFacts';
import { toolNameOf } from '../views/activatedToolsView';

const MANAGE_TOOLS_COMMAND = 'toolshed.manageTools';
const SET_TOOL_STATE_COMMAND = 'toolshed.setToolState';
const SETTING = 'toolshed.tools.state';

/**
 * Optional arguments (from the Activated Tools context menu, or scripts): any of them skips
 * its step. `filter` pre-fills the search box of the first step.
 */
interface ManageToolsArgs {
  tool?: string;
  server?: string;
  state?: StateChoice;
  target?: 'workspace' | 'user';
  filter?: string;
}

/** What Manage Tools uses: the tool catalog and its policy, the tool-state setting, where tools come from, the log. */
type ManageToolsServices = Pick<ToolshedServices, 'context' | 'logger' | 'syncToolCatalog' | 'tools' | 'settings' | 'turnExplanations'>;

type TargetItem = vscode.QuickPickItem & { target?: StateTarget & { label?: string } };

const STATE_ITEMS: Array<vscode.QuickPickItem & { choice: StateChoice }> = [
  { label: '$(eye) Always', description: 'sent with every request', choice: 'always' },
  { label: '$(search) Deferred', description: 'found with tool_search when needed', choice: 'deferred' },
  { label: '$(circle-slash) Off', description: 'never listed, found or run for you', choice: 'off' },
  { label: '$(discard) Default', description: 'remove your setting (mode and patterns decide)', choice: 'default' },
];

/** **Toolshed: Manage Tools…** — tool or server → state → workspace or user settings. */
async function manageTools(services: ManageToolsServices, args: ManageToolsArgs = {}): Promise<Record<string, ToolState> | undefined> {
  const target: (StateTarget & { label?: string }) | undefined = args.tool
    ? { kind: 'tool', name: args.tool }
    : args.server
      ? { kind: 'server', server: args.server }
      : await pickTarget(services, args.filter);
  if (!target) return undefined;
  const what =
    target.kind === 'tool'
      ? `\`${target.name}\``
      : `all tools of MCP server ${(target.kind === 'server' && target.label) || (target.kind === 'server' ? target.server : '')}`;
  const choice = args.state ?? (await vscode.window.showQuickPick(STATE_ITEMS, { title: `Manage Tools (2/3): state of ${what}` }))?.choice;
  if (!choice) return undefined;
  const scope = args.target ?? (await pickScope());
  if (!scope) return undefined;
  const configTarget = scope === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const inspected = vscode.workspace.getConfiguration().inspect<Record<string, unknown>>(SETTING);
  const current = (scope === 'workspace' ? inspected?.workspaceValue : inspected?.globalValue) ?? {};
  const next = applyStateChoice(current, target, choice);
  await vscode.workspace.getConfiguration().update(SETTING, Object.keys(next).length > 0 ? next : undefined, configTarget);
  services.logger.info(`Manage Tools: ${what} → ${choice} (${scope} settings)`);
  return next;
}

async function pickScope(): Promise<'workspace' | 'user' | undefined> {
  if (!vscode.workspace.workspaceFolders?.length) return 'user';
  const picked = await vscode.window.showQuickPick(
    [
      { label: '$(folder) Workspace settings', description: 'this project only', scope: 'workspace' as const },
      { label: '$(account) User settings', description: 'every project', scope: 'user' as const },
    ],
    { title: 'Manage Tools (3/3): save where?' },
  );
  return picked?.scope;
}

/** Step 1: a searchable list grouped by source; an MCP server can be set as a whole. */
/** The tools Manage Tools lists, grouped by where VS Code says they come from. */
async function manageableToolGroups(services: ManageToolsServices): Promise<ToolGroup[]> {
  services.syncToolCatalog();
  const facts = await toolSourceFacts(services.context);
  // Listed: what the team's policy allows (including tools the user turned off, to turn back on).
  const tools = vscode.lm.tools
    .filter((tool) => services.tools.isPolicyAllowed(tool.name))
    .map((tool) => ({ name: tool.name, source: toolSourceFrom(tool, facts) }));
  return groupToolsBySource(tools, services.settings.current.tools.state);
}

async function pickTarget(services: ManageToolsServices, filter?: string): Promise<(StateTarget & { label?: string }) | undefined> {
  const groups = await manageableToolGroups(services);
  // Why a tool was (not) activated before round 1 in the latest @toolshed turns: its matched words and relevance, or the stuffing flag.
  const preflight = services.turnExplanations.toolCandidates();
  const items: TargetItem[] = [];
  for (const group of groups) {
    items.push({ label: group.label, kind: vscode.QuickPickItemKind.Separator });
    if (group.server) {
      const label = group.serverLabel ?? group.server;
      items.push({
        label: `All tools of MCP server ${label}`,
        description: `${group.tools.length} tools${label !== group.server ? ` (mcp_${group.server}_…)` : ''}`,
        iconPath: new vscode.ThemeIcon('server'),
        target: { kind: 'server', server: group.server, label },
      });
    }
    for (const tool of group.tools) {
      const seen = preflight.get(tool.name);
      const detail = seen?.flagged
        ? `$(warning) Looks stuffed (${seen.flagged}): never activated before the first round`
        : seen?.activated
          ? `Activated before the first round of the last @toolshed turn: ${requestMatchReason(seen)}`
          : undefined;
      items.push({ label: tool.name, description: tool.state ?? 'default', ...(detail ? { detail } : {}), target: { kind: 'tool', name: tool.name } });
    }
  }
  const quickPick = vscode.window.createQuickPick<TargetItem>();
  quickPick.title = 'Manage Tools (1/3): choose a tool or an MCP server';
  quickPick.placeholder = 'Type to search tools; the state shows on the right (default = decided by the mode)';
  quickPick.items = items;
  quickPick.matchOnDescription = true;
  if (filter) quickPick.value = filter;
  return new Promise<(StateTarget & { label?: string }) | undefined>((resolve) => {
    let settled = false;
    const finish = (value: (StateTarget & { label?: string }) | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
      quickPick.dispose();
    };
    quickPick.onDidAccept(() => finish(quickPick.selectedItems[0]?.target));
    quickPick.onDidHide(() => finish(undefined));
    quickPick.show();
  });
}

export function registerManageTools(context: vscode.ExtensionContext, services: ManageToolsServices): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(MANAGE_TOOLS_COMMAND, (args?: ManageToolsArgs) => manageTools(services, args && typeof args === 'object' ? args : {})),
    // From the Activated Tools view: the clicked tool skips step 1.
    // Internal (not contributed): the groups as listed, for tests and debugging.
    vscode.commands.registerCommand('toolshed._manageToolsGroups', () => manageableToolGroups(services)),
    vscode.commands.registerCommand(SET_TOOL_STATE_COMMAND, (node?: unknown) => {
      const name = toolNameOf(node);
      return manageTools(services, name ? { tool: name } : {});
    }),
  );
}
