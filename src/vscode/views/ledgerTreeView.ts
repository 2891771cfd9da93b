import * as vscode from 'vscode';
import type { LedgerReport } from '../../core/ledger/ledgerReport';
import { LEDGER_SORT_KEYS, ledgerViewModel, type LedgerServerGroup, type LedgerSortKey } from '../../core/ledger/ledgerView';
import type { WorkspaceLedger } from '../workspaceLedger';
import { retireRefusal, type CoreSetEntry } from '../../core/ledger/ledgerStore';
import { renderTree } from './skillDirectoryView';
import type { TreeViewSlots } from '../servicesOpening';

/**
 * **Toolshed: Ledger** — what each MCP server, tool and skill cost and gave back over the last 7
 * or 30 days, as a sortable, filterable table (servers, their tools under them, then skills).
 * Row actions fix what the numbers show: Always / Deferred / Off for a tool or a whole MCP server
 * (through Manage Tools, so the one tool-state setting changes), open a tool's definition, pin or
 * unpin a skill, retire a skill or restore a retired one.
 */

export const LEDGER_VIEW_ID = 'toolshed.ledger';

type Tool = LedgerReport['tools'][number];
type Skill = LedgerReport['skills'][number];
type Door = LedgerReport['doors'][number];

type LedgerNode =
  | { type: 'summary'; text: string }
  | { type: 'server'; group: LedgerServerGroup }
  | { type: 'tool'; row: Tool }
  | { type: 'skills'; rows: Skill[] }
  | { type: 'skill'; row: Skill }
  | { type: 'core'; entries: CoreSetEntry[] }
  | { type: 'coreTool'; entry: CoreSetEntry }
  | { type: 'retired'; rows: Array<{ skill: string; at: number }> }
  | { type: 'retiredSkill'; skill: string; at: number }
  | { type: 'doors'; rows: Door[] }
  | { type: 'door'; row: Door };

const DOOR_NAMES: Record<string, string> = { hook: 'Prompt-submit hook', mcp: 'MCP server', chat: '@toolshed' };

const number = (value: number) => value.toLocaleString('en-US');
const plural = (count: number, one: string, many = `${one}s`) => `${number(count)} ${count === 1 ? one : many}`;

/** MCP tools are named `mcp_<server>_…`; only those servers can be set as a whole. */
const isMcpServer = (group: LedgerServerGroup) => group.tools.every((tool) => tool.tool.startsWith(`mcp_${group.server.server}_`));

function toolDescription(row: Tool): string {
  const parts = [`${number(row.sentTokens)} tok`, plural(row.sent, 'sent', 'sent'), plural(row.calls, 'call')];
  if (row.vain) parts.push(`${number(row.vain)} vain`);
  if (row.failures) parts.push(`${number(row.failures)} failed`);
  return parts.join(' · ');
}

function toolTooltip(row: Tool): string {
  const a = row.activations;
  return [
    `${row.tool} (${row.server})`,
    `Definitions sent: ${number(row.sent)} (${number(row.sentTokens)} tokens)`,
    `Activations: ${number(a.request)} by request match, ${number(a.search)} by search, ${number(a.firstUse)} on first use, ${number(a.skill)} by a skill`,
    `Vain activations (activated, never called): ${number(row.vain)}`,
    `Calls: ${number(row.calls)} in ${plural(row.turnsCalled, 'turn')}; failures: ${number(row.failures)}`,
  ].join('\n');
}

class LedgerTreeProvider implements vscode.TreeDataProvider<LedgerNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  days: 7 | 30 = 7;
  sort: LedgerSortKey = 'tokens';
  filter = '';

  constructor(private readonly ledger: WorkspaceLedger) {}

  refresh(): void {
    this.changed.fire();
  }

  getChildren(node?: LedgerNode): LedgerNode[] {
    if (node?.type === 'server') return node.group.tools.map((row) => ({ type: 'tool', row }));
    if (node?.type === 'skills') return node.rows.map((row) => ({ type: 'skill', row }));
    if (node?.type === 'core') return node.entries.map((entry) => ({ type: 'coreTool', entry }));
    if (node?.type === 'retired') return node.rows.map((row) => ({ type: 'retiredSkill', ...row }));
    if (node?.type === 'doors') return node.rows.map((row) => ({ type: 'door', row }));
    if (node) return [];
    const report = this.ledger.report(this.days);
    const t = report.totals;
    const summary: LedgerNode = {
      type: 'summary',
      text: `${plural(t.turns, 'turn')} · ${plural(t.rounds, 'round')} · ${plural(t.modelRequests, 'model request')} · ${number(t.toolDefinitionTokens)} tokens of tool definitions`,
    };
    const model = ledgerViewModel(report, this.sort, this.filter);
    // The filter narrows every group by name, the learned core set too.
    const needle = this.filter.trim().toLowerCase();
    const core = this.ledger.coreSet().filter((entry) => entry.tool.toLowerCase().includes(needle));
    // Every retired skill, whatever the period, so each can be restored from here.
    const retired = report.retiredSkills.filter((row) => row.skill.toLowerCase().includes(needle));
    const doors = report.doors.filter((row) => `${row.door} ${row.runtime}`.toLowerCase().includes(needle));
    return [
      summary,
      ...(doors.length ? [{ type: 'doors', rows: doors } as LedgerNode] : []),
      ...(core.length ? [{ type: 'core', entries: core } as LedgerNode] : []),
      ...model.servers.map((group): LedgerNode => ({ type: 'server', group })),
      ...(model.skills.length ? [{ type: 'skills', rows: model.skills } as LedgerNode] : []),
      ...(retired.length ? [{ type: 'retired', rows: retired } as LedgerNode] : []),
    ];
  }

  getTreeItem(node: LedgerNode): vscode.TreeItem {
    switch (node.type) {
      case 'summary': {
        const item = new vscode.TreeItem(`Last ${this.days} days`, vscode.TreeItemCollapsibleState.None);
        item.description = node.text;
        item.tooltip = `Since ${this.ledger.report(this.days).since} (UTC). The same numbers as the footers of these turns.`;
        item.contextValue = 'ledgerSummary';
        return item;
      }
      case 'server': {
        const s = node.group.server;
        const item = new vscode.TreeItem(s.server, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `server:${s.server}`;
        item.description = `${plural(s.tools, 'tool')} · ${number(s.sentTokens)} tok · ${plural(s.calls, 'call')}${s.vain ? ` · ${number(s.vain)} vain` : ''}${s.failures ? ` · ${number(s.failures)} failed` : ''}`;
        item.iconPath = new vscode.ThemeIcon('server');
        item.contextValue = isMcpServer(node.group) ? 'ledgerMcpServer' : 'ledgerServer';
        return item;
      }
      case 'tool': {
        const item = new vscode.TreeItem(node.row.tool, vscode.TreeItemCollapsibleState.None);
        item.id = `tool:${node.row.tool}`;
        item.description = toolDescription(node.row);
        item.tooltip = toolTooltip(node.row);
        item.iconPath = new vscode.ThemeIcon('tools');
        item.contextValue = 'ledgerTool';
        item.command = { command: 'toolshed.ledger.openDefinition', title: 'Open Definition', arguments: [node] };
        return item;
      }
      case 'skills': {
        const item = new vscode.TreeItem('Skills', vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'skills';
        item.description = plural(node.rows.length, 'skill');
        return item;
      }
      case 'core': {
        const item = new vscode.TreeItem('Learned core set', vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'core';
        item.description = `${plural(node.entries.length, 'tool')} sent without a search · ${number(node.entries.reduce((sum, entry) => sum + entry.tokens, 0))} tok`;
        item.tooltip =
          'Tools you used in enough recent turns are sent without a search (setting toolshed.toolSearch.learnCoreSet). Undo a promotion from its row; Toolshed: Reset Learned Core Set forgets them all.';
        item.iconPath = new vscode.ThemeIcon('star-full');
        return item;
      }
      case 'coreTool': {
        const e = node.entry;
        const item = new vscode.TreeItem(e.tool, vscode.TreeItemCollapsibleState.None);
        item.id = `core:${e.tool}`;
        item.description = `used in ${e.usedIn} of the last ${e.windowTurns} turns · ${number(e.tokens)} tok`;
        item.tooltip = `Visible without a search because you used it in ${e.usedIn} of the last ${e.windowTurns} turns (promoted ${new Date(e.promotedAt).toISOString().slice(0, 10)}).`;
        item.iconPath = new vscode.ThemeIcon('star-empty');
        item.contextValue = 'ledgerCoreTool';
        return item;
      }
      case 'doors': {
        const item = new vscode.TreeItem('Other doors', vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'doors';
        item.description = `${plural(
          node.rows.reduce((sum, row) => sum + row.decisions, 0),
          'decision',
        )} of the hook and the MCP server`;
        item.tooltip =
          "Decisions Toolshed made in Copilot CLI, Claude Code or Codex for this workspace (toolshed setup). `toolshed why` explains each door's last one.";
        item.iconPath = new vscode.ThemeIcon('plug');
        return item;
      }
      case 'door': {
        const r = node.row;
        const item = new vscode.TreeItem(`${DOOR_NAMES[r.door] ?? r.door} · ${r.runtime}`, vscode.TreeItemCollapsibleState.None);
        item.id = `door:${r.door}:${r.runtime}`;
        item.description = `${plural(r.decisions, 'decision')} · ${number(r.withSkills)} with skills · ${plural(r.injections, 'skill')} · ${number(r.offers)} offered · ${plural(r.searches, 'search', 'searches')} · ${number(r.tokens)} tok`;
        item.tooltip = `${plural(r.decisions, 'decision')}; ${number(r.withSkills)} handed the model at least one skill (${plural(r.injections, 'skill')} in all, ${number(r.tokens)} tokens); ${number(r.withOffers)} offered skills by name and description for the model to load if one fits (${plural(r.offers, 'skill')} in all); ${plural(r.searches, 'search', 'searches')}.`;
        item.iconPath = new vscode.ThemeIcon(r.door === 'mcp' ? 'server-process' : 'zap');
        return item;
      }
      case 'retired': {
        const item = new vscode.TreeItem('Retired skills', vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'retired';
        item.description = `${plural(node.rows.length, 'skill')} kept out of use in this workspace`;
        item.tooltip = 'Retired skills are never injected, chosen or found by skill search in this workspace. Restore one from its row.';
        item.iconPath = new vscode.ThemeIcon('archive');
        return item;
      }
      case 'retiredSkill': {
        const item = new vscode.TreeItem(node.skill, vscode.TreeItemCollapsibleState.None);
        item.id = `retired:${node.skill}`;
        item.description = `retired ${new Date(node.at).toISOString().slice(0, 10)}`;
        item.tooltip = `${node.skill} is retired in this workspace: never injected, chosen or found by skill search. Restore brings it back.`;
        item.iconPath = new vscode.ThemeIcon('circle-slash');
        item.contextValue = 'ledgerRetiredSkill';
        return item;
      }
      case 'skill': {
        const r = node.row;
        const retired = r.retired;
        const item = new vscode.TreeItem(r.skill, vscode.TreeItemCollapsibleState.None);
        item.id = `skill:${r.skill}`;
        item.description = `${retired ? 'retired · ' : ''}${number(r.injections)} injected · ${number(r.follows)} followed · 👍 ${number(r.helpful)} 👎 ${number(r.harmful)}${r.selectionTokens ? ` · ${number(r.selectionTokens)} selection tok` : ''}`;
        item.tooltip = `${r.skill}\nInjected in ${plural(r.injections, 'turn')}; a tool it names was called in ${plural(r.follows, 'turn')}.\nHelpful ${number(r.helpful)}, not helpful ${number(r.harmful)}; the selection model's tokens for it: ${number(r.selectionTokens)}.`;
        item.iconPath = new vscode.ThemeIcon(retired ? 'circle-slash' : 'book');
        // A redacted name names no skill: no Retire, Pin or Unpin to offer on it (retireRefusal).
        item.contextValue = retired ? 'ledgerSkillRetired' : retireRefusal(r.skill) ? 'ledgerSkillRedacted' : 'ledgerSkill';
        return item;
      }
    }
  }

  describe(): string {
    const sortLabel = LEDGER_SORT_KEYS.find((entry) => entry.key === this.sort)?.label ?? this.sort;
    return `last ${this.days} days · by ${sortLabel.replace(/ \(.*\)$/, '').toLowerCase()}${this.filter ? ` · "${this.filter}"` : ''}`;
  }
}

const STATE_OF: Record<string, 'always' | 'deferred' | 'off'> = {
  'toolshed.ledger.always': 'always',
  'toolshed.ledger.deferred': 'deferred',
  'toolshed.ledger.off': 'off',
};

/** Tool or MCP server of a row (a string argument names a tool). */
function targetOf(arg: unknown): { tool: string } | { server: string } | undefined {
  if (typeof arg === 'string') return { tool: arg };
  const node = arg as LedgerNode | undefined;
  if (node?.type === 'tool') return { tool: node.row.tool };
  if (node?.type === 'server' && isMcpServer(node.group)) return { server: node.group.server.server };
  return undefined;
}

export function registerLedgerView(context: vscode.ExtensionContext, views: TreeViewSlots, ledger: WorkspaceLedger): void {
  const provider = new LedgerTreeProvider(ledger);
  const view = views.attach(LEDGER_VIEW_ID, provider);
  const update = () => {
    view.description = provider.describe();
    provider.refresh();
  };
  update();
  const setState = (command: string) =>
    vscode.commands.registerCommand(command, async (arg?: unknown) => {
      const target = targetOf(arg) ?? targetOf(view.selection[0]);
      if (!target) return undefined;
      // One click: the workspace's setting (the user's when no folder is open), through Manage Tools.
      const where = vscode.workspace.workspaceFolders?.length ? 'workspace' : 'user';
      return vscode.commands.executeCommand('toolshed.manageTools', { ...target, state: STATE_OF[command], target: where });
    });
  const skillOf = (arg: unknown) => {
    const node = (arg ?? view.selection[0]) as LedgerNode | undefined;
    if (typeof arg === 'string') return arg;
    return node?.type === 'skill' ? node.row.skill : node?.type === 'retiredSkill' ? node.skill : undefined;
  };
  context.subscriptions.push(
    view,
    ledger.onDidChange(update),
    vscode.commands.registerCommand('toolshed.ledger.show', () => vscode.commands.executeCommand(`${LEDGER_VIEW_ID}.focus`)),
    vscode.commands.registerCommand('toolshed.ledger.period', async (days?: unknown) => {
      const picked =
        days === 7 || days === 30
          ? days
          : (
              await vscode.window.showQuickPick(
                [
                  { label: 'Last 7 days', days: 7 as const },
                  { label: 'Last 30 days', days: 30 as const },
                ],
                { title: 'Ledger: period' },
              )
            )?.days;
      if (!picked) return;
      provider.days = picked;
      update();
    }),
    vscode.commands.registerCommand('toolshed.ledger.sort', async (key?: unknown) => {
      const known = LEDGER_SORT_KEYS.find((entry) => entry.key === key);
      const picked =
        known ??
        (await vscode.window.showQuickPick(
          LEDGER_SORT_KEYS.map((entry) => ({ ...entry })),
          { title: 'Ledger: sort by' },
        ));
      if (!picked) return;
      provider.sort = picked.key;
      update();
    }),
    vscode.commands.registerCommand('toolshed.ledger.filter', async (text?: unknown) => {
      const value =
        typeof text === 'string'
          ? text
          : await vscode.window.showInputBox({
              title: 'Ledger: filter',
              prompt: 'Part of a tool, server or skill name (empty: everything)',
              value: provider.filter,
            });
      if (value === undefined) return;
      provider.filter = value;
      update();
    }),
    setState('toolshed.ledger.always'),
    setState('toolshed.ledger.deferred'),
    setState('toolshed.ledger.off'),
    vscode.commands.registerCommand('toolshed.ledger.openDefinition', (arg?: unknown) => {
      const target = targetOf(arg) ?? targetOf(view.selection[0]);
      return target && 'tool' in target ? vscode.commands.executeCommand('toolshed.showToolDetails', target.tool) : undefined;
    }),
    vscode.commands.registerCommand('toolshed.ledger.pinSkill', (arg?: unknown) => {
      const name = skillOf(arg);
      return name ? vscode.commands.executeCommand('toolshed.pinSkill', name) : undefined;
    }),
    vscode.commands.registerCommand('toolshed.ledger.unpinSkill', (arg?: unknown) => {
      const name = skillOf(arg);
      return name ? vscode.commands.executeCommand('toolshed.unpinSkill', name) : undefined;
    }),
    vscode.commands.registerCommand('toolshed.ledger.retireSkill', (arg?: unknown) => {
      const name = skillOf(arg);
      if (!name) return false;
      const refusal = retireRefusal(name);
      const done = refusal === undefined && ledger.retireSkill(name);
      if (!done) void vscode.window.showWarningMessage(`Toolshed: ${refusal ?? `"${name}" could not be retired.`}`);
      return done;
    }),
    vscode.commands.registerCommand('toolshed.ledger.restoreSkill', (arg?: unknown) => {
      const name = skillOf(arg);
      return name ? ledger.restoreSkill(name) : false;
    }),
    vscode.commands.registerCommand('toolshed.ledger.undoPromotion', (arg?: unknown) => {
      const node = (arg ?? view.selection[0]) as LedgerNode | undefined;
      const tool = typeof arg === 'string' ? arg : node?.type === 'coreTool' ? node.entry.tool : undefined;
      if (tool) ledger.undoPromotion(tool);
    }),
    vscode.commands.registerCommand('toolshed.ledger.resetCoreSet', async () => {
      ledger.resetCoreSet();
      void vscode.window.showInformationMessage('Toolshed: the learned core set is empty again; it learns anew from the next turns.');
    }),
    // Internal (not contributed): the rendered tree, for tests and debugging.
    vscode.commands.registerCommand('toolshed._ledgerItems', () => renderTree(provider, view)),
  );
}
