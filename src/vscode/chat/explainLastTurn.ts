import * as vscode from 'vscode';
import { explainTurnMarkdown } from '../../core/planner/turn/explainMarkdown';
import type { ToolshedServices } from '../services';
import type { TurnSession } from './turnSession';

const EXPLAIN_LAST_TURN_COMMAND = 'toolshed.explainLastTurn';

const NOTHING_YET =
  'There is no @toolshed turn to explain yet: Toolshed keeps the last turn of each chat in memory only, so ask `@toolshed` something first (again after a window reload).';

/** `/why`: the last @toolshed turn of this conversation, explained from what it recorded. */
export function whyCommand(stream: vscode.ChatResponseStream, services: Pick<ToolshedServices, 'turnExplanations'>, session: TurnSession): vscode.ChatResult {
  const explanation = services.turnExplanations.forSession(session.sessionId);
  stream.markdown(explanation ? explainTurnMarkdown(explanation) : NOTHING_YET);
  return { metadata: { toolshed: session.metadataBase() } };
}

/** A read-only document: nothing to save, nothing asked when it is closed, nothing written to disk. */
const EXPLAIN_SCHEME = 'toolshed-explain';

/**
 * **Toolshed: Explain Last Turn**: the latest @toolshed turn of this window in a read-only
 * Markdown editor; returns the text it shows.
 */
export function registerExplainLastTurnCommand(context: vscode.ExtensionContext, services: Pick<ToolshedServices, 'turnExplanations'>): void {
  const shown = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(EXPLAIN_SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => shown.get(uri.path) ?? '',
    }),
    vscode.commands.registerCommand(EXPLAIN_LAST_TURN_COMMAND, async () => {
      const explanation = services.turnExplanations.latest();
      if (!explanation) {
        void vscode.window.showInformationMessage(NOTHING_YET.replace(/`/g, ''));
        return undefined;
      }
      const content = explainTurnMarkdown(explanation);
      const uri = vscode.Uri.from({ scheme: EXPLAIN_SCHEME, path: 'Last @toolshed turn.md' });
      shown.set(uri.path, content);
      changed.fire(uri);
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.languages.setTextDocumentLanguage(document, 'markdown');
      await vscode.window.showTextDocument(document, { preview: true });
      return content;
    }),
  );
}
