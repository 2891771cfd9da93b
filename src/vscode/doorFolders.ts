import * as vscode from 'vscode';
import type { Logger } from '../core/platform/ports';
import type { TurnExplanation } from '../core/planner/turn/turnExplanation';
import { recordDoorDecision } from '../core/runtimes/doors/doorDecision';
import { doorFolderFor } from '../core/runtimes/doors/doorFolder';

/**
 * The door folders (`~/.toolshed/workspaces/<slug>-<hash>`) of this window's workspace folders on
 * disk: where the hook and the MCP server started in those folders journal their decisions, and
 * where this window keeps its last `@toolshed` turn for `toolshed why`. The same function as theirs,
 * so all of them meet in one folder.
 */
export function workspaceDoorFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => doorFolderFor(folder.uri.fsPath));
}

/**
 * Keeps the turn as the `chat` door's last decision of the first workspace folder, for
 * `toolshed why` (the extension's `/why` reads its memory). A file that cannot be written is
 * logged, never fails the turn.
 */
export function recordChatTurn(explanation: TurnExplanation, injected: readonly string[], tokens: number, logger: Logger): void {
  const folder = (vscode.workspace.workspaceFolders ?? []).find((candidate) => candidate.uri.scheme === 'file');
  if (!folder) return;
  const problem = recordDoorDecision(folder.uri.fsPath, {
    door: 'chat',
    runtime: 'vscode',
    action: 'turn',
    request: explanation.request,
    injected,
    tokens,
    turn: explanation,
  });
  if (problem) logger.warn(problem);
}
