import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import type { ActivationEntry, ActivityRegistry } from '../state/activityRegistry';
import { activatedSummary, activationNode, sessionNode } from './activatedToolsModel';
import { renderTree } from './skillDirectoryView';
import { toolDetailsMarkdown, type ToolDetailsProvider } from './toolDetails';
import type { TreeViewSlots } from '../servicesOpening';

export const ACTIVATED_TOOLS_VIEW_ID = 'toolshed.activatedTools';
const TOOL_DETAILS_SCHEME = 'toolshed-tool';

export type ActivatedToolsNode =
  | { readonly type: 'session'; readonly sessionId: string; readonly label: string; readonly entries: readonly ActivationEntry[] }
  | { readonly type: 'tool'; readonly entry: ActivationEntry };

/** Per chat session: the tools activated, how, when, how often used. Live from the registry. */
export class ActivatedToolsProvider extends Disposable implements vscode.TreeDataProvider<ActivatedToolsNode> {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly registry: ActivityRegistry) {
    super();
    this._register(registry.onDidChange(() => this.changed.fire()));
  }

  getChildren(node?: ActivatedToolsNode): ActivatedToolsNode[] {
    if (!node) return this.registry.sessions().map((s) => ({ type: 'session', ...s }));
    if (node.type === 'session') return node.entries.map((entry) => ({ type: 'tool', entry }));
    return [];
  }

  getTreeItem(node: ActivatedToolsNode): vscode.TreeItem {
    if (node.type === 'session') {
      const model = sessionNode(node);
      const item = new vscode.TreeItem(model.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `session:${node.sessionId}`;
      item.description = model.description;
      item.tooltip = new vscode.MarkdownString(model.tooltip);
      item.iconPath = new vscode.ThemeIcon(model.icon);
      item.contextValue = model.contextValue;
      return item;
    }
    const model = activationNode(node.entry);
    const item = new vscode.TreeItem(model.label, vscode.TreeItemCollapsibleState.None);
    item.id = `tool:${node.entry.sessionId}:${node.entry.toolName}`;
    item.description = model.description;
    item.tooltip = new vscode.MarkdownString(model.tooltip);
    item.iconPath = new vscode.ThemeIcon(model.icon);
    item.contextValue = model.contextValue;
    item.command = { command: 'toolshed.showToolDetails', title: 'Show Tool Details', arguments: [node] };
    return item;
  }
}

/** Read-only `toolshed-tool:/<name>.md` documents with a tool's description, schema and examples. */
class ToolDetailsDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly tools: ToolDetailsProvider) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const name = decodeURIComponent(uri.path.replace(/^\//, '').replace(/\.md$/, ''));
    const details = await this.tools.details(name);
    return details
      ? toolDetailsMarkdown(details)
      : `# ${name}\n\nThis tool is not in the catalog (any more). Run "Toolshed: Search Tools…" to find current tools.\n`;
  }
}

export function toolNameOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object') {
    const value = arg as { type?: string; entry?: ActivationEntry; name?: unknown };
    if (value.type === 'tool' && value.entry) return value.entry.toolName;
    if (typeof value.name === 'string') return value.name;
  }
  return undefined;
}

function toolDetailsUri(name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TOOL_DETAILS_SCHEME, path: `/${encodeURIComponent(name)}.md` });
}

/**
 * Opens a tool's details as a read-only Markdown document. (A plain `markdown.showPreview` would
 * follow whichever Markdown editor is active next, so it is not used.)
 */
export async function showToolDetails(name: string): Promise<vscode.Uri> {
  const uri = toolDetailsUri(name);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: true });
  return uri;
}

export function registerActivatedToolsView(
  context: vscode.ExtensionContext,
  views: TreeViewSlots,
  registry: ActivityRegistry,
  tools: ToolDetailsProvider,
): ActivatedToolsProvider {
  const provider = new ActivatedToolsProvider(registry);
  const view = views.attach(ACTIVATED_TOOLS_VIEW_ID, provider);
  const updateSummary = () => {
    const summary = activatedSummary(registry.all(), registry.deferredCatalogSize);
    view.description = summary.description;
    // No badge: activations are information, not something that needs the user.
    // The header line: how the latest request decided to send or defer tools (toolshed.toolSearch.mode).
    view.message = registry.deferralSummary ? `Tool search: ${registry.deferralSummary}` : undefined;
  };
  updateSummary();
  context.subscriptions.push(
    provider,
    view,
    registry.onDidChange(updateSummary),
    // Internal (not contributed): the rendered tree, for tests and debugging.
    vscode.commands.registerCommand('toolshed._activatedToolsItems', () => renderTree(provider, view)),
    vscode.workspace.registerTextDocumentContentProvider(TOOL_DETAILS_SCHEME, new ToolDetailsDocuments(tools)),
    vscode.commands.registerCommand('toolshed.clearActivatedTools', (arg?: unknown) => {
      const sessionId = arg && typeof arg === 'object' && (arg as ActivatedToolsNode).type === 'session' ? (arg as { sessionId: string }).sessionId : undefined;
      registry.clear(sessionId);
    }),
    vscode.commands.registerCommand('toolshed.showToolDetails', async (arg?: unknown) => {
      const name = toolNameOf(arg) ?? toolNameOf(view.selection[0]) ?? (await vscode.window.showInputBox({ title: 'Show Tool Details', prompt: 'Tool name' }));
      return name ? showToolDetails(name) : undefined;
    }),
  );
  return provider;
}
