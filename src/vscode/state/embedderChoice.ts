import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import type { Embedder } from '../../core/search/embedding/embedder';
import { embedderFromSettings } from '../../core/tools/index/embedderChoice';
import type { SettingsAccessor } from '../settingsAccessor';
import type { EmbeddingStatus } from './embeddingStatus';

/**
 * Hybrid ranking's embedder for this window: it follows `toolshed.embeddings` and workspace trust
 * (a remote endpoint is never used in Restricted Mode) and is rebuilt only when either changes;
 * `use` hands it to the searches (tools and skills). An endpoint's failures show in `status`.
 */
export function followEmbedderSettings(
  settings: SettingsAccessor,
  status: EmbeddingStatus,
  logger: Logger,
  use: (embedder: Embedder | undefined) => void,
): vscode.Disposable {
  let chosen = '';
  let generation = 0;
  const choose = () => {
    const choice = JSON.stringify([settings.current.embeddings, vscode.workspace.isTrusted]);
    if (choice === chosen) return;
    chosen = choice;
    status.update(undefined);
    // A replaced embedder's late failure says nothing about the one in use.
    const current = ++generation;
    use(
      embedderFromSettings(settings.current.embeddings, vscode.workspace.isTrusted, logger, (failure) => {
        if (current === generation) status.update(failure);
      }),
    );
  };
  choose();
  return vscode.Disposable.from(settings.onDidChange(choose), vscode.workspace.onDidGrantWorkspaceTrust(choose));
}
