/**
 * Whether the tool list is still changing: right after start-up MCP servers publish their tools
 * one after another. Fed with snapshots of the tool names (pure; the VS Code adapter samples
 * `vscode.lm.tools`), it reports "settling" until no change was seen for `quietMs`.
 */
export class ToolListSettling {
  private fingerprint: string | undefined;
  private lastChangeAt = 0;

  constructor(private readonly quietMs: number, private readonly clock: () => number) {}

  /** Records the current tool names; a difference from the previous snapshot is a change. */
  observe(names: readonly string[]): void {
    const next = [...names].sort().join('\n');
    if (this.fingerprint !== undefined && next !== this.fingerprint) this.lastChangeAt = this.clock();
    this.fingerprint = next;
  }

  get isSettling(): boolean {
    return this.lastChangeAt > 0 && this.clock() - this.lastChangeAt < this.quietMs;
  }
}
