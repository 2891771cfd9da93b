import * as vscode from 'vscode';
import { OpeningTreeDataProvider, type OpeningServices, type ToolshedStartError, type TreeViewSlots } from '../servicesOpening';
import { ACTIVATED_TOOLS_VIEW_ID } from './activatedToolsView';
import { LEDGER_VIEW_ID } from './ledgerTreeView';
import { SKILL_DIRECTORY_VIEW_ID } from './skillDirectoryView';

/** Each contributed view and the options it is created with (fixed when the view is created). */
const VIEWS: ReadonlyArray<[string, { showCollapseAll: boolean }]> = [
  [SKILL_DIRECTORY_VIEW_ID, { showCollapseAll: true }],
  [ACTIVATED_TOOLS_VIEW_ID, { showCollapseAll: false }],
  [LEDGER_VIEW_ID, { showCollapseAll: true }],
];

/**
 * Creates the sidebar's views at activation, before the services are open: each shows one
 * "opening" row (or the start's error) until its registration attaches its own provider.
 */
export function createOpeningTreeViews(context: vscode.ExtensionContext, opening: OpeningServices<unknown>): TreeViewSlots {
  const slots = new Map<string, { view: vscode.TreeView<unknown>; provider: OpeningTreeDataProvider<unknown> }>();
  for (const [id, options] of VIEWS) {
    const provider = new OpeningTreeDataProvider<unknown>(opening, openingRow);
    const view = vscode.window.createTreeView<unknown>(id, { treeDataProvider: provider, ...options });
    context.subscriptions.push(view, provider);
    slots.set(id, { view, provider });
  }
  return {
    attach<T>(viewId: string, provider: vscode.TreeDataProvider<T>): vscode.TreeView<T> {
      const slot = slots.get(viewId);
      if (!slot) throw new Error(`The view ${viewId} was not created at activation (add it to VIEWS in openingTreeViews.ts)`);
      slot.provider.attach(provider as vscode.TreeDataProvider<unknown>);
      // The view shows this provider's elements from now on: its selection and reveal are of T.
      return slot.view as vscode.TreeView<T>;
    },
  };
}

function openingRow(failure: ToolshedStartError | undefined): vscode.TreeItem {
  if (!failure) {
    const item = new vscode.TreeItem('Opening the skill store…');
    item.iconPath = new vscode.ThemeIcon('loading~spin');
    return item;
  }
  const item = new vscode.TreeItem('Toolshed could not start');
  item.iconPath = new vscode.ThemeIcon('error');
  item.description = 'Show Log';
  item.tooltip = failure.message;
  item.command = { command: 'toolshed.showLog', title: 'Show Log' };
  return item;
}
