/**
 * Long loops on the extension host's thread (loading thousands of skill files) run in slices:
 * synchronous work (a sync file-system call costs a fraction of an async one) between turns of
 * the event loop, so the host stays responsive however large the load.
 */

/** One turn of the event loop, so the host handles other work between slices of a long load. */
export function yieldToHost(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * How long one slice of synchronous work may run before the host gets a turn. Short, because a
 * message crossing the extension host takes several turns of its event loop (the socket's read,
 * its inflate, the call; the reply's deflate and write), each one slice apart while a load runs:
 * at 20 ms slices the workbench's first `vscode.lm.invokeTool` of a warm start reached Toolshed
 * only after the load's check had ended (its three crossings took 250–500 ms each), at 4 ms during
 * it (≈ 90 ms each; docs/benchmarks.md, "In the extension host"). A turn costs microseconds.
 */
export const SLICE_MS = 4;

/**
 * One slice clock for a loop, or for several interleaved workers of one load: once the slice has
 * run SLICE_MS, every worker that pauses waits for the same turn of the event loop, and they go
 * on together in a new slice (so no worker runs a slice of its own while the host waits).
 */
export class HostSlices {
  private sliceStart: number;
  private turn: Promise<void> | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.sliceStart = now();
  }

  /** Gives the host a turn when this slice has run SLICE_MS; otherwise returns at once. */
  async pause(): Promise<void> {
    if (this.turn === undefined && this.now() - this.sliceStart < SLICE_MS) return;
    this.turn ??= yieldToHost().then(() => {
      this.sliceStart = this.now();
      this.turn = undefined;
    });
    await this.turn;
  }
}
