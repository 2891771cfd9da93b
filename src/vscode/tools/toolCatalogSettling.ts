import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';

/**
 * Watches `vscode.lm.onDidChangeTools`: right after start-up MCP servers publish their tools one
 * after another, and a request sent then would see only part of the catalog. While tools keep
 * changing, @toolshed says "Starting MCP servers…" and waits (bounded) for a quiet moment
 * instead of answering silently late or with tools missing.
 */
export class ToolCatalogSettling extends Disposable {
  private lastChangeAt = 0;

  constructor(private readonly quietMs = 800, private readonly clock: () => number = Date.now) {
    super();
    const changed = () => {
      this.lastChangeAt = this.clock();
    };
    // Not in every version of the typings; where the host lacks it, compare the tool list instead.
    const onDidChangeTools = (vscode.lm as { onDidChangeTools?: vscode.Event<void> }).onDidChangeTools;
    if (onDidChangeTools) {
      this._register(onDidChangeTools(changed));
    } else {
      let fingerprint = toolFingerprint();
      const timer = setInterval(() => {
        const next = toolFingerprint();
        if (next !== fingerprint) changed();
        fingerprint = next;
      }, Math.max(50, Math.floor(quietMs / 4)));
      this._register({ dispose: () => clearInterval(timer) });
    }
  }

  /** True while tools changed within the last `quietMs`. */
  get isSettling(): boolean {
    return this.lastChangeAt > 0 && this.clock() - this.lastChangeAt < this.quietMs;
  }

  /** Resolves once no tool changed for `quietMs`, or after `maxMs`; true when it had to wait. */
  async settle(maxMs = 5000, token?: vscode.CancellationToken): Promise<boolean> {
    if (!this.isSettling) return false;
    const deadline = this.clock() + maxMs;
    while (this.isSettling && this.clock() < deadline && !token?.isCancellationRequested) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, this.quietMs)));
    }
    return true;
  }
}

function toolFingerprint(): string {
  return vscode.lm.tools.map((tool) => tool.name).join('\n');
}
