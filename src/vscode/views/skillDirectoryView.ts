import * as vscode from 'vscode';
import type { SkillProblem } from '../../core/skills/packs/document/skillProblems';
import { Disposable } from '../lifecycle';
import { MANAGE_TRUST_COMMAND } from '../../core/trust/restrictedMode';
import type { PinnedSkills } from '../state/pinnedSkills';
import { findSkill, type PackView, type SkillDirectorySource, type SkillView } from './skillDirectorySource';
import { directorySummary, packNode, skillChatReference, skillNode } from './skillTreeModel';
import type { DirectoryGroup } from './directoryGroup';
import { packsByCluster } from './clusterGrouping';
import type { TreeViewSlots } from '../servicesOpening';

/** How the Skill Directory groups skills (`toolshed.skills.directoryGroupBy`), and when that changes. */
export interface DirectoryGrouping {
  current(): 'pack' | 'cluster';
  readonly onDidChange: (listener: () => void) => { dispose(): void };
}

export const SKILL_DIRECTORY_VIEW_ID = 'toolshed.skillDirectory';

export type SkillDirectoryNode =
  | { readonly type: 'pack'; readonly pack: PackView }
  | { readonly type: 'skill'; readonly skill: SkillView; readonly pack: PackView }
  | { readonly type: 'problem'; readonly problem: SkillProblem; readonly pack: PackView }
  | { readonly type: 'restrictedMode'; readonly line: string }
  | { readonly type: 'group'; readonly node: unknown; readonly group: DirectoryGroup };

function icon(id: string, color?: string): vscode.ThemeIcon {
  return color ? new vscode.ThemeIcon(id, new vscode.ThemeColor(color)) : new vscode.ThemeIcon(id);
}

/** Packs → skills. Empty packs are hidden so the welcome view shows when there are no skills. */
export class SkillDirectoryProvider extends Disposable implements vscode.TreeDataProvider<SkillDirectoryNode> {
  private readonly changed = this._register(new vscode.EventEmitter<SkillDirectoryNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly source: SkillDirectorySource,
    private readonly pinned: PinnedSkills,
    private readonly groups: readonly DirectoryGroup[] = [],
    private readonly grouping?: DirectoryGrouping,
  ) {
    super();
    if (grouping) this._register(grouping.onDidChange(() => this.changed.fire(undefined)));
    this._register(source.onDidChange(() => this.changed.fire(undefined)));
    for (const group of groups) if (group.onDidChange) this._register(group.onDidChange(() => this.changed.fire(undefined)));
    this._register(pinned.onDidChange(() => this.changed.fire(undefined)));
  }

  async getChildren(node?: SkillDirectoryNode): Promise<SkillDirectoryNode[]> {
    if (!node) {
      const restricted = await this.source.restrictedMode?.();
      const byPack = this.source.packs();
      const packs = (this.grouping?.current() === 'cluster' ? packsByCluster(byPack) : byPack)
        .filter((p) => p.skills.length > 0 || (p.problems?.length ?? 0) > 0)
        .map((pack) => ({ type: 'pack' as const, pack }));
      const groups = this.groups.flatMap((group) => group.roots().map((root) => ({ type: 'group' as const, node: root, group })));
      const header = restricted ? [{ type: 'restrictedMode' as const, line: restricted }] : [];
      return [...header, ...packs, ...groups];
    }
    if (node.type === 'group') return node.group.children(node.node).map((child) => ({ type: 'group' as const, node: child, group: node.group }));
    if (node.type !== 'pack') return [];
    const pinned = new Set(this.pinned.names());
    const skills = [...node.pack.skills].sort((a, b) => Number(pinned.has(b.name)) - Number(pinned.has(a.name)) || a.name.localeCompare(b.name));
    return [
      ...skills.map((skill) => ({ type: 'skill' as const, skill, pack: node.pack })),
      ...(node.pack.problems ?? []).map((problem) => ({ type: 'problem' as const, problem, pack: node.pack })),
    ];
  }

  getParent(node: SkillDirectoryNode): SkillDirectoryNode | undefined {
    if (node.type === 'group') return undefined;
    return node.type === 'pack' || node.type === 'restrictedMode' ? undefined : { type: 'pack', pack: node.pack };
  }

  getTreeItem(node: SkillDirectoryNode): vscode.TreeItem {
    if (node.type === 'group') return node.group.treeItem(node.node);
    if (node.type === 'restrictedMode') {
      // A header row with the trust button: the hidden workspace packs are not listed at all.
      const item = new vscode.TreeItem(node.line, vscode.TreeItemCollapsibleState.None);
      item.id = 'restrictedMode';
      item.iconPath = icon('shield', 'problemsWarningIcon.foreground');
      item.tooltip = 'This workspace is not trusted, so Toolshed hides its skill packs from every model and runs no tools. Click to manage Workspace Trust.';
      item.contextValue = 'restrictedMode';
      item.command = { command: MANAGE_TRUST_COMMAND, title: 'Manage Workspace Trust' };
      return item;
    }
    if (node.type === 'pack') {
      const model = packNode(node.pack);
      const item = new vscode.TreeItem(model.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = node.pack.kind === 'cluster' ? `cluster:${node.pack.name}` : `pack:${node.pack.name}`;
      item.description = model.description;
      item.tooltip = new vscode.MarkdownString(model.tooltip);
      item.iconPath = icon(model.icon);
      item.contextValue = model.contextValue;
      if (node.pack.root) item.resourceUri = vscode.Uri.file(node.pack.root);
      return item;
    }
    if (node.type === 'problem') {
      const item = new vscode.TreeItem(node.problem.message, vscode.TreeItemCollapsibleState.None);
      item.id = `problem:${node.pack.name}:${node.problem.file}:${node.problem.line}:${node.problem.code}`;
      item.description = `${vscode.workspace.asRelativePath(node.problem.file)}:${node.problem.line}`;
      item.iconPath = icon(
        node.problem.severity === 'error' ? 'error' : 'warning',
        node.problem.severity === 'error' ? 'problemsErrorIcon.foreground' : 'problemsWarningIcon.foreground',
      );
      item.contextValue = 'packProblem';
      if (node.problem.file) {
        item.command = {
          command: 'vscode.open',
          title: 'Open',
          arguments: [
            vscode.Uri.file(node.problem.file),
            { selection: new vscode.Range(node.problem.line - 1, node.problem.column - 1, node.problem.line - 1, node.problem.column - 1) },
          ],
        };
      }
      return item;
    }
    const model = skillNode(node.skill, this.pinned.has(node.skill.name));
    const item = new vscode.TreeItem(model.label, vscode.TreeItemCollapsibleState.None);
    // A cluster group can hold skills of one name from two packs: the pack keeps their ids apart.
    item.id =
      node.pack.kind === 'cluster' ? `skill:cluster:${node.pack.name}:${node.skill.packName}:${node.skill.name}` : `skill:${node.pack.name}:${node.skill.name}`;
    const suffix = this.groups
      .map((group) => group.skillSuffix?.(node.skill.name))
      .filter(Boolean)
      .join(' · ');
    item.description = suffix ? `${suffix} · ${model.description}` : model.description;
    item.tooltip = new vscode.MarkdownString(model.tooltip);
    item.iconPath = icon(model.icon, model.iconColor);
    item.contextValue = model.contextValue;
    if (node.skill.sourceFile) {
      item.command = { command: 'toolshed.openSkill', title: 'Open Skill', arguments: [node] };
    }
    return item;
  }
}

/** A skill from whatever a command was given: a tree node, a skill, a palette result, or a name. */
export function resolveSkill(source: SkillDirectorySource, arg: unknown): SkillView | undefined {
  if (!arg) return undefined;
  if (typeof arg === 'string') return findSkill(source.packs(), arg);
  if (typeof arg === 'object') {
    const value = arg as { type?: string; skill?: SkillView; name?: unknown };
    if (value.type === 'skill' && value.skill) return value.skill;
    if (typeof value.name === 'string') return findSkill(source.packs(), value.name) ?? (value as SkillView);
  }
  return undefined;
}

export async function openSkill(skill: SkillView): Promise<vscode.TextEditor | undefined> {
  if (!skill.sourceFile) {
    void vscode.window.showInformationMessage(`Toolshed: "${skill.name}" has no source file (it was learned, not loaded from a pack).`);
    return undefined;
  }
  const line = Math.max((skill.sourceLine ?? 1) - 1, 0);
  const position = new vscode.Position(line, 0);
  return vscode.window.showTextDocument(vscode.Uri.file(skill.sourceFile), { selection: new vscode.Range(position, position), preview: true });
}

/** Puts text into the chat input without sending it. */
export async function insertIntoChat(text: string): Promise<void> {
  try {
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: text, isPartialQuery: true });
  } catch {
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage(`Toolshed: the chat is not available; "${text.trim()}" was copied to the clipboard.`);
  }
}

export function skillReferenceText(skill: SkillView): string {
  let relative: string | undefined;
  if (skill.sourceFile) {
    const uri = vscode.Uri.file(skill.sourceFile);
    relative = vscode.workspace.getWorkspaceFolder(uri) ? vscode.workspace.asRelativePath(uri, false) : undefined;
  }
  return skillChatReference(skill, relative);
}

/** The Skill Directory view with its badge, description and context commands. */
export function registerSkillDirectoryView(
  context: vscode.ExtensionContext,
  views: TreeViewSlots,
  source: SkillDirectorySource,
  pinned: PinnedSkills,
  groups: readonly DirectoryGroup[] = [],
  grouping?: DirectoryGrouping,
): SkillDirectoryProvider {
  const provider = new SkillDirectoryProvider(source, pinned, groups, grouping);
  const view = views.attach(SKILL_DIRECTORY_VIEW_ID, provider);
  const updateSummary = () => {
    const summary = directorySummary(source.statuses?.() ?? source.packs());
    view.description = summary.description;
    view.badge = summary.badge ? { value: summary.badge.count, tooltip: summary.badge.tooltip } : undefined;
  };
  // Counted when the load under way has finished (its change event counts again, from the cache):
  // counting the list it replaces first cost a whole read of it at every start (≈ 0.3 s at 10,000 skills).
  const loading = source.firstLoad?.();
  if (loading) void loading.then(updateSummary, updateSummary);
  else updateSummary();
  context.subscriptions.push(provider, view, source.onDidChange(updateSummary));
  if (grouping) {
    // The view-title toggle writes the setting where it is set now (workspace wins over user).
    const setGrouping = (value: 'pack' | 'cluster') => async () => {
      const config = vscode.workspace.getConfiguration('toolshed');
      const inWorkspace = config.inspect('skills.directoryGroupBy')?.workspaceValue !== undefined;
      await config.update('skills.directoryGroupBy', value, inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
    };
    context.subscriptions.push(
      vscode.commands.registerCommand('toolshed.groupSkillsByCluster', setGrouping('cluster')),
      vscode.commands.registerCommand('toolshed.groupSkillsByPack', setGrouping('pack')),
    );
  }
  // Internal (not contributed): the rendered tree, for tests and debugging.
  context.subscriptions.push(vscode.commands.registerCommand('toolshed._skillDirectoryItems', () => renderTree(provider, view)));

  const withSkill = (run: (skill: SkillView) => unknown) => (arg?: unknown) => {
    const skill = resolveSkill(source, arg) ?? resolveSkill(source, view.selection[0]);
    if (!skill) {
      void vscode.window.showWarningMessage('Toolshed: select a skill in the Skill Directory first.');
      return undefined;
    }
    return run(skill);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('toolshed.openSkill', withSkill(openSkill)),
    vscode.commands.registerCommand(
      'toolshed.copySkillName',
      withSkill(async (skill) => {
        await vscode.env.clipboard.writeText(skill.name);
        vscode.window.setStatusBarMessage(`Copied "${skill.name}"`, 2000);
        return skill.name;
      }),
    ),
    vscode.commands.registerCommand(
      'toolshed.pinSkill',
      withSkill((skill) => pinned.pin(skill.name)),
    ),
    vscode.commands.registerCommand(
      'toolshed.unpinSkill',
      withSkill((skill) => pinned.unpin(skill.name)),
    ),
    // Retirement lives in the workspace's ledger: the Ledger view's commands keep it.
    vscode.commands.registerCommand(
      'toolshed.retireSkill',
      withSkill((skill) => vscode.commands.executeCommand('toolshed.ledger.retireSkill', skill.name)),
    ),
    vscode.commands.registerCommand(
      'toolshed.restoreSkill',
      withSkill((skill) => vscode.commands.executeCommand('toolshed.ledger.restoreSkill', skill.name)),
    ),
    vscode.commands.registerCommand(
      'toolshed.insertSkillReference',
      withSkill(async (skill) => {
        const text = skillReferenceText(skill);
        await insertIntoChat(text);
        return text;
      }),
    ),
    vscode.commands.registerCommand(
      'toolshed.revealSkillInExplorer',
      withSkill(async (skill) => {
        if (!skill.sourceFile) return;
        const uri = vscode.Uri.file(skill.sourceFile);
        if (vscode.workspace.getWorkspaceFolder(uri)) await vscode.commands.executeCommand('revealInExplorer', uri);
        else await openSkill(skill); // outside the workspace the Explorer cannot show it
      }),
    ),
  );
  return provider;
}

/** The tree as rendered (labels, descriptions, context values), with the view's badge and description. */
export async function renderTree<T>(
  provider: vscode.TreeDataProvider<T>,
  view: vscode.TreeView<T>,
): Promise<{
  description?: string;
  badge?: number;
  items: Array<{ label: string; description?: string; contextValue?: string; depth: number; id?: string; tooltip?: string }>;
}> {
  const items: Array<{ label: string; description?: string; contextValue?: string; depth: number; id?: string; tooltip?: string }> = [];
  const walk = async (node: T | undefined, depth: number) => {
    for (const child of (await provider.getChildren(node)) ?? []) {
      const item = await provider.getTreeItem(child);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      const tooltip = typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value;
      items.push({
        label,
        depth,
        ...(typeof item.description === 'string' ? { description: item.description } : {}),
        ...(item.contextValue ? { contextValue: item.contextValue } : {}),
        ...(item.id ? { id: item.id } : {}),
        ...(tooltip ? { tooltip } : {}),
      });
      if (item.collapsibleState !== vscode.TreeItemCollapsibleState.None) await walk(child, depth + 1);
    }
  };
  await walk(undefined, 0);
  return { ...(view.description ? { description: view.description } : {}), ...(view.badge ? { badge: view.badge.value } : {}), items };
}
