import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Logger } from './ports';

/** Smaller inputs parse in a few milliseconds: a thread hop would cost more than it saves. */
export const OFF_THREAD_MIN_CHARS = 64 * 1024;
/** The parsers stop themselves within seconds; a worker still busy after this is ended. */
const WORKER_TIMEOUT_MS = 15_000;
/** An idle worker is ended after this long (a new one starts in ~50 ms when next needed). */
const IDLE_MS = 30_000;

/** A job of the worker script (`src/workers/parseWorker.ts`): which function, on which arguments. */
export interface OffThreadJob<T> {
  kind: string;
  args: unknown[];
  /** The same function, run here when the worker is unavailable (same result, on this thread). */
  inline: () => T;
  /** The result when the worker took longer than the timeout (it is ended). */
  timedOut: (timeoutMs: number) => T;
  /** This job's own timeout (default: the runner's). */
  timeoutMs?: number;
}

/**
 * Runs parse jobs on one worker thread, so a huge or hostile file (the YAML parser needs ~0.8 s
 * for 500 KB of keys) never stalls the extension host's event loop: chat, search and the editor
 * go on while it parses. The worker starts on first need and ends when idle; jobs queue on it.
 * Its results are plain data (they cross the thread boundary as they are). When the worker
 * script is missing or the worker fails, jobs run inline (logged once); a job still running after
 * the timeout ends the worker and gets its `timedOut` result.
 */
export class OffThreadRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  /** Jobs posted and not answered, each with the worker it was posted to. */
  private readonly pending = new Map<
    number,
    { worker: Worker; resolve: (result: unknown) => void; inline: () => void; timer: ReturnType<typeof setTimeout> }
  >();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private unavailable = false;
  private completed = 0;

  constructor(
    private readonly workerScript: string,
    private readonly logger: Logger,
    private readonly timeoutMs = WORKER_TIMEOUT_MS,
  ) {}

  /** Runs the job on the worker when its input has `size` ≥ OFF_THREAD_MIN_CHARS characters, else here. */
  runIfLarge<T>(size: number, job: OffThreadJob<T>): Promise<T> {
    return size < OFF_THREAD_MIN_CHARS ? Promise.resolve(job.inline()) : this.run(job);
  }

  run<T>(job: OffThreadJob<T>): Promise<T> {
    const worker = this.unavailable ? undefined : this.ensureWorker();
    if (!worker) return Promise.resolve(job.inline());
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const id = this.nextId++;
    const timeoutMs = job.timeoutMs ?? this.timeoutMs;
    return new Promise<T>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.logger.warn(`A ${job.kind} parse took longer than ${timeoutMs} ms; the parser thread was stopped.`);
        this.stopWorker();
        resolve(job.timedOut(timeoutMs));
      }, timeoutMs);
      this.pending.set(id, { worker, resolve: resolve as (result: unknown) => void, timer, inline: () => resolve(job.inline()) });
      worker.postMessage({ id, kind: job.kind, args: job.args });
    });
  }

  /** Jobs the worker thread completed (tests and the Output channel read it). */
  get offThreadCount(): number {
    return this.completed;
  }

  dispose(): void {
    this.stopWorker();
  }

  /** Ends the worker now unless it has jobs (its memory goes with it; the next job starts another): whether it ended. */
  release(): boolean {
    if (this.pending.size > 0) return false;
    this.stopWorker();
    return true;
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    if (!existsSync(this.workerScript)) return this.giveUp(`the parser thread's script is missing (${this.workerScript})`);
    try {
      const worker = new Worker(this.workerScript);
      worker.unref();
      worker.on('message', (reply: { id: number; result?: unknown; error?: string }) => this.settle(reply));
      worker.on('error', (error) => {
        this.logger.warn(`Parser thread failed: ${error.message}; parsing on the main thread.`);
        this.runPendingInline(worker);
      });
      worker.on('exit', () => {
        if (this.worker === worker) this.worker = undefined;
        this.runPendingInline(worker);
      });
      this.worker = worker;
      return worker;
    } catch (error) {
      return this.giveUp(error instanceof Error ? error.message : String(error));
    }
  }

  private settle(reply: { id: number; result?: unknown; error?: string }): void {
    const request = this.pending.get(reply.id);
    if (!request) return;
    this.pending.delete(reply.id);
    clearTimeout(request.timer);
    if (reply.error === undefined) {
      this.completed++;
      request.resolve(reply.result);
    } else request.inline();
    if (this.pending.size === 0) {
      this.idleTimer = setTimeout(() => this.stopWorker(), IDLE_MS);
      this.idleTimer.unref?.();
    }
  }

  /**
   * Jobs this worker can no longer answer run here (nothing is lost). Only its own: a worker
   * ended after a timeout exits while its successor already has jobs, which must not run twice.
   */
  private runPendingInline(worker: Worker): void {
    for (const [id, request] of this.pending) {
      if (request.worker !== worker) continue;
      clearTimeout(request.timer);
      this.pending.delete(id);
      request.inline();
    }
  }

  private stopWorker(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
  }

  private giveUp(reason: string): undefined {
    this.unavailable = true;
    this.logger.warn(`Large skill and example files are parsed on the main thread: ${reason}.`);
    return undefined;
  }
}
