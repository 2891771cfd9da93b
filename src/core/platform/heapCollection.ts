import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection of this thread's heap, now. For processes Toolshed owns (the door:
 * the CLI's hook and MCP server), never the extension host, which other extensions share.
 *
 * Why: a cold load of 10,000 real skills ends with ≈ 50 MB of its own garbage in V8's old
 * generation plus the save's dead buffers (the database's exported copy, the mirror snapshot:
 * ≈ 48 MB of external memory), which V8 frees only at its next full collection. Until then the
 * searches that follow add their garbage on top, and the process peaked 60–80 MB over the
 * load's own peak (docs/benchmarks.md, the real-pool rows). A collection once the load is saved
 * frees it before the searches begin.
 *
 * V8 gives scripts its collector only with `--expose-gc`; the flag set now applies to contexts
 * made after it, so a fresh context hands over its `gc` (the process's own heap, the same
 * collector). Where that fails (a runtime without it), nothing is collected: false.
 */
let collector: (() => void) | null | undefined;

export function collectGarbage(): boolean {
  if (collector === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('typeof gc === "function" ? gc : undefined') as unknown;
      collector = typeof gc === 'function' ? (gc as () => void) : null;
    } catch {
      collector = null;
    }
  }
  if (!collector) return false;
  collector();
  return true;
}
