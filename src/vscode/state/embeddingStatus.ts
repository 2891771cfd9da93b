import * as vscode from 'vscode';

/**
 * The visible sign that the embedding endpoint failed: a status-bar item, shown from the first
 * failure until the endpoint answers again (or the embedder changes), that opens the Toolshed
 * log. The log and the footer of an affected turn say the same; this one stays in view.
 */
export class EmbeddingStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('toolshed.embeddingStatus', vscode.StatusBarAlignment.Right, 100);
  private current: string | undefined;

  constructor() {
    this.item.name = 'Toolshed embedding endpoint';
    this.item.text = '$(warning) Toolshed: lexical search';
    this.item.command = 'toolshed.showLog';
  }

  /** What went wrong while it is shown; undefined while the endpoint answers (or none is used). */
  get failure(): string | undefined {
    return this.current;
  }

  /** What the item says when hovered (undefined while hidden). */
  get tooltip(): string | undefined {
    return this.current === undefined ? undefined : String(this.item.tooltip);
  }

  update(failure: string | undefined): void {
    this.current = failure;
    if (failure === undefined) {
      this.item.hide();
      return;
    }
    this.item.tooltip = `The embedding endpoint failed (${failure}): tool and skill search are lexical until it answers. Click to open the Toolshed log.`;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
