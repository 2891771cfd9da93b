import { CappedOutput, DEFAULT_OUTPUT_CAP_BYTES } from './scriptOutput';
import type { ProcessPort, SpawnedProcess, SpawnRequest } from '../../platform/ports';

/**
 * Runs one process to completion with a timeout, an output cap and cancellation, through a
 * small port (node:child_process in the extension, fakes in tests). Whatever happens — exit,
 * timeout, cancel, spawn failure — the promise settles and the whole process group is killed,
 * so a script cannot leave a child behind or hang the extension host.
 */

export interface RunSignal {
  readonly isCancelled: boolean;
  /** Subscribes to cancellation; returns an unsubscribe function. */
  onCancelled?(listener: () => void): () => void;
}

export interface RunLimits {
  timeoutMs: number;
  outputCapBytes?: number;
}

export interface ProcessOutcome {
  pid: number | undefined;
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutCut: number;
  stderrCut: number;
  timedOut: boolean;
  cancelled: boolean;
  /** The process could not be started (e.g. ENOENT, EACCES). */
  spawnError?: string;
  durationMs: number;
}

/** Polls `isCancelled` when the signal has no event (the core CancellationSignal is a flag). */
const CANCEL_POLL_MS = 50;
const KILL_GRACE_MS = 2000;

export function runProcess(
  port: ProcessPort,
  request: SpawnRequest,
  limits: RunLimits,
  signal?: RunSignal,
  now: () => number = Date.now,
): Promise<ProcessOutcome> {
  const started = now();
  const stdout = new CappedOutput(limits.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES);
  const stderr = new CappedOutput(limits.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES);
  const outcome = (pid: number | undefined, fields: Partial<ProcessOutcome>): ProcessOutcome => ({
    pid,
    exitCode: null,
    signal: null,
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutCut: stdout.cut,
    stderrCut: stderr.cut,
    timedOut: false,
    cancelled: false,
    durationMs: now() - started,
    ...fields,
  });
  if (signal?.isCancelled) return Promise.resolve(outcome(undefined, { cancelled: true }));

  return new Promise<ProcessOutcome>((resolve) => {
    let child: SpawnedProcess;
    try {
      child = port.spawn(request);
    } catch (error) {
      resolve(outcome(undefined, { spawnError: error instanceof Error ? error.message : String(error) }));
      return;
    }
    let settled = false;
    let timedOut = false;
    let cancelled = false;
    const cleanups: Array<() => void> = [];
    const finish = (fields: Partial<ProcessOutcome>) => {
      if (settled) return;
      settled = true;
      for (const cleanup of cleanups) cleanup();
      // Anything the script started in its group dies with it, even after a normal exit.
      child.killTree();
      resolve(outcome(child.pid, { timedOut, cancelled, ...fields }));
    };
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const stop = (why: 'timeout' | 'cancel') => {
      if (settled) return;
      if (why === 'timeout') timedOut = true;
      else cancelled = true;
      child.killTree();
      // A killed process whose streams never close (held by a stray descendant that left the
      // group) must not hang the caller: settle after a grace period anyway.
      graceTimer ??= setTimeout(() => finish({}), KILL_GRACE_MS);
    };
    cleanups.push(() => graceTimer && clearTimeout(graceTimer));

    child.onStdout((chunk) => stdout.push(chunk));
    child.onStderr((chunk) => stderr.push(chunk));
    child.onError((error) => finish({ spawnError: error.message }));
    child.onClose((code, sig) => finish({ exitCode: code, signal: sig }));

    const timer = setTimeout(() => stop('timeout'), Math.max(1, limits.timeoutMs));
    cleanups.push(() => clearTimeout(timer));
    if (signal?.onCancelled) {
      cleanups.push(signal.onCancelled(() => stop('cancel')));
    } else if (signal) {
      const poll = setInterval(() => signal.isCancelled && stop('cancel'), CANCEL_POLL_MS);
      cleanups.push(() => clearInterval(poll));
    }
  });
}
