/**
 * Long loops on the extension host's thread (loading thousands of skill files) run in slices:
 * synchronous work (a sync file-system call costs a fraction of an async one) between turns of
 * the event loop, so the host stays responsive however large the load.
 */

/** One turn of the event loop, so the host handles other work between slices of a long load. */
export function yieldToHost(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** How long one slice of synchronous work may run before the host gets a turn. */
export const SLICE_MS = 20;

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
