import * as vscode from 'vscode';
import type { RankedResult, SearchProvider } from './searchProviders';
import { searchRow } from './searchItemModel';

interface SearchPickItem extends vscode.QuickPickItem {
  readonly result: RankedResult;
}

export interface SearchPickActions {
  /** Enter, or the "open" button. */
  open(result: RankedResult): Promise<unknown>;
  copyName(result: RankedResult): Promise<unknown>;
  insertReference(result: RankedResult): Promise<unknown>;
  /** Tools: show details (an extra button). */
  details?(result: RankedResult): Promise<unknown>;
}

const LIMIT = 20;

function toPickItems(results: readonly RankedResult[], kind: 'skill' | 'tool', buttons: readonly vscode.QuickInputButton[]): SearchPickItem[] {
  // alwaysShow: the provider ranks and filters; the QuickPick must not filter again by label.
  return results.map((result) => ({ ...searchRow(result, kind), result, alwaysShow: true, buttons: [...buttons] }));
}

/**
 * While the user types, VS Code moves rows whose label matches the typed text to the top and
 * sorts them by that match, which scrambles the provider's score order ("file" put
 * `…editFile…` above a better-scored tool). `sortByLabel = false` turns that off; it is an API
 * proposal (`quickPickSortByLabel`) not in the stable typings, but the extension host forwards
 * the property to the workbench without requiring the proposal.
 */
function keepProviderOrder(pick: vscode.QuickPick<SearchPickItem>): void {
  (pick as vscode.QuickPick<SearchPickItem> & { sortByLabel?: boolean }).sortByLabel = false;
}

/**
 * A QuickPick that searches as you type (debounced, stale answers dropped) and shows the
 * provider's ranking with score, match type and loading mode. Resolves with the accepted result.
 */
export function showSearchQuickPick(
  kind: 'skill' | 'tool',
  provider: SearchProvider,
  actions: SearchPickActions,
  initialQuery = '',
): Promise<RankedResult | undefined> {
  const pick = vscode.window.createQuickPick<SearchPickItem>();
  pick.title = kind === 'skill' ? 'Toolshed: Search Skills' : 'Toolshed: Search Tools';
  pick.placeholder = kind === 'skill' ? 'Describe the task, e.g. "fix failing lint"' : 'What should the tool do? e.g. "create a github issue"';
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  keepProviderOrder(pick);
  const openButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon(kind === 'skill' ? 'go-to-file' : 'info'),
    tooltip: kind === 'skill' ? 'Open' : 'Show details',
  };
  const copyButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('copy'), tooltip: 'Copy name' };
  const chatButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('comment-discussion'), tooltip: 'Insert # reference in chat' };
  const buttons = [openButton, copyButton, chatButton];

  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = async (query: string) => {
    const mine = ++generation;
    pick.busy = true;
    try {
      const results = await provider.search(query, LIMIT);
      if (mine !== generation) return;
      pick.items = toPickItems(results, kind, buttons);
      if (results.length === 0) pick.items = [];
      pick.placeholder = results.length === 0 && query ? `Nothing found for "${query}"` : pick.placeholder;
    } catch (error) {
      if (mine === generation) {
        pick.items = [];
        void vscode.window.showErrorMessage(`Toolshed: search failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    } finally {
      if (mine === generation) pick.busy = false;
    }
  };

  return new Promise((resolve) => {
    let accepted: RankedResult | undefined;
    const disposables: vscode.Disposable[] = [
      pick.onDidChangeValue((value) => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => void run(value), 150);
      }),
      pick.onDidTriggerItemButton(async ({ button, item }) => {
        if (button === copyButton) await actions.copyName(item.result);
        else if (button === chatButton) {
          pick.hide();
          await actions.insertReference(item.result);
        } else {
          pick.hide();
          await (kind === 'tool' && actions.details ? actions.details(item.result) : actions.open(item.result));
        }
      }),
      pick.onDidAccept(async () => {
        const item = pick.selectedItems[0] ?? pick.activeItems[0];
        if (!item) return;
        accepted = item.result;
        pick.hide();
        await actions.open(item.result);
      }),
      pick.onDidHide(() => {
        if (timer) clearTimeout(timer);
        disposables.forEach((d) => d.dispose());
        pick.dispose();
        resolve(accepted);
      }),
    ];
    pick.value = initialQuery;
    pick.show();
    void run(initialQuery);
  });
}
