import * as vscode from 'vscode';
import { ToolListSettling } from '../../core/tools/toolListSettling';
import { Disposable } from '../lifecycle';

/**
 * Samples `vscode.lm.tools` (VS Code 1.139 offers no change event for it to extensions): while
 * MCP servers are still publishing tools, @toolshed says "Starting MCP servers…" and waits
 * (bounded) for a quiet moment instead of answering late in silence or with tools missing.
 */
export class ToolCatalogSettling extends Disposable {
  private readonly settling: ToolListSettling;

  constructor(quietMs = 800, sampleMs = 200) {
    super();
    this.settling = new ToolListSettling(quietMs, Date.now);
    this.observe(vscode.lm.tools.map((tool) => tool.name));
    const timer = setInterval(() => this.observe(vscode.lm.tools.map((tool) => tool.name)), sampleMs);
    this._register({ dispose: () => clearInterval(timer) });
  }

  /** A snapshot of the tool names (the sampler's; also how tests stand in for a starting server). */
  observe(names: readonly string[]): void {
    this.settling.observe(names);
  }

  get isSettling(): boolean {
    return this.settling.isSettling;
  }

  /** Resolves once no tool changed for `quietMs`, or after `maxMs`; true when it had to wait. */
  async settle(maxMs = 5000, token?: vscode.CancellationToken): Promise<boolean> {
    if (!this.isSettling) return false;
    const deadline = Date.now() + maxMs;
    while (this.isSettling && Date.now() < deadline && !token?.isCancellationRequested) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return true;
  }
}
