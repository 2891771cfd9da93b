import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../../platform/ports';
import { FILE_START, makeProblem, PROBLEM_CODES } from './skillProblems';
import { parseSkillDocument } from './skillDocumentParser';
import type { ParseOptions, ParseResult } from './skillDocumentParser';

/** How a loader parses a skill file: `parseSkillDocument`, here or on another thread. */
export type SkillDocumentParse = (text: string, fileName: string, options: ParseOptions) => Promise<ParseResult>;

/** Smaller files parse in a few milliseconds: a thread hop would cost more than it saves. */
export const OFF_THREAD_MIN_CHARS = 64 * 1024;
/** The parser stops itself after its 5 s budget; a worker still busy after this is ended. */
const WORKER_TIMEOUT_MS = 15_000;
/** An idle worker is ended after this long (a new one starts in ~50 ms when next needed). */
const IDLE_MS = 30_000;

/**
 * Parses large skill files on a worker thread, so a hostile or merely huge file (the YAML parser
 * takes ~0.8 s for 500 KB of keys) never stalls the extension host's event loop: while it parses,
 * chat, search and the editor go on. Small files parse inline. One worker, started on first need
 * and ended when idle; requests queue on it. Results are the parser's own (the same function runs
 * there). When the worker script is missing or the worker fails, the file is parsed inline (and
 * that is logged once); when it is still busy after 15 s it is ended and the file gets an error.
 */
export class OffThreadSkillParser {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: ParseResult) => void; fallback: () => void; timer: ReturnType<typeof setTimeout> }>();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private unavailable = false;
  private parsedOffThread = 0;

  constructor(
    private readonly workerScript: string,
    private readonly logger: Logger,
    private readonly timeoutMs = WORKER_TIMEOUT_MS,
  ) {}

  readonly parse: SkillDocumentParse = (text, fileName, options) => {
    if (text.length < OFF_THREAD_MIN_CHARS || this.unavailable) return Promise.resolve(parseSkillDocument(text, fileName, options));
    const worker = this.ensureWorker();
    if (!worker) return Promise.resolve(parseSkillDocument(text, fileName, options));
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise<ParseResult>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.logger.warn(`Parsing ${fileName} took longer than ${this.timeoutMs} ms; the parser thread was stopped.`);
        this.stopWorker();
        resolve({
          format: options.format,
          skills: [],
          problems: [makeProblem(fileName, FILE_START, 'error', PROBLEM_CODES.parseError, `Parsing this file took longer than ${Math.round(this.timeoutMs / 1000)} s and was stopped. Split it into smaller skill files.`)],
        });
      }, this.timeoutMs);
      this.pending.set(id, { resolve, timer, fallback: () => resolve(parseSkillDocument(text, fileName, options)) });
      worker.postMessage({ id, text, fileName, options });
    });
  };

  /** Files the worker thread parsed (the Output channel and tests read it). */
  get offThreadCount(): number {
    return this.parsedOffThread;
  }

  dispose(): void {
    this.stopWorker();
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    if (!existsSync(this.workerScript)) return this.giveUp(`the parser thread's script is missing (${this.workerScript})`);
    try {
      const worker = new Worker(this.workerScript);
      worker.unref();
      worker.on('message', (reply: { id: number; result?: ParseResult; error?: string }) => this.settle(reply));
      worker.on('error', (error) => {
        this.logger.warn(`Skill parser thread failed: ${error.message}; parsing on the main thread.`);
        this.failPending();
      });
      worker.on('exit', () => {
        if (this.worker === worker) this.worker = undefined;
        this.failPending();
      });
      this.worker = worker;
      return worker;
    } catch (error) {
      return this.giveUp(error instanceof Error ? error.message : String(error));
    }
  }

  private settle(reply: { id: number; result?: ParseResult; error?: string }): void {
    const request = this.pending.get(reply.id);
    if (!request) return;
    this.pending.delete(reply.id);
    clearTimeout(request.timer);
    if (reply.result) {
      this.parsedOffThread++;
      request.resolve(reply.result);
    } else request.fallback();
    if (this.pending.size === 0) {
      this.idleTimer = setTimeout(() => this.stopWorker(), IDLE_MS);
      this.idleTimer.unref?.();
    }
  }

  /** Requests the worker can no longer answer are parsed here (nothing is lost). */
  private failPending(): void {
    for (const [id, request] of this.pending) {
      clearTimeout(request.timer);
      this.pending.delete(id);
      request.fallback();
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
    this.logger.warn(`Large skill files are parsed on the main thread: ${reason}.`);
    return undefined;
  }
}
