/**
 * Whether the tool list is still changing: right after start-up MCP servers publish their tools
 * one after another. Told about each change of the list (by the host catalog, which already
 * compares every read with the previous one), it reports "settling" until no change was seen
 * for `quietMs`.
 */
export class ToolListSettling {
  private lastChangeAt: number | undefined;

  constructor(
    private readonly quietMs: number,
    private readonly clock: () => number,
  ) {}

  /** The tool list changed (a tool was added, removed or redefined) just now. */
  recordChange(): void {
    this.lastChangeAt = this.clock();
  }

  get isSettling(): boolean {
    return this.lastChangeAt !== undefined && this.clock() - this.lastChangeAt < this.quietMs;
  }
}
