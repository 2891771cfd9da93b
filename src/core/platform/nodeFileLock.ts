import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { processAlive } from './nodeByteStore';
import type { FileLock } from './ports';

export interface NodeFileLockOptions {
  /** A lock older than this is a leftover of a crashed holder and is broken (holders keep it for milliseconds). */
  staleMs?: number;
  /** Give up (with an error saying who holds it) after waiting this long. */
  timeoutMs?: number;
}

interface LockContent {
  pid: number;
  host: string;
  token: string;
  at: number;
}

/**
 * A lock file created with O_EXCL (`wx`): creation is atomic on local file systems, so exactly
 * one process holds it. The file says who holds it (pid, host, a random token); a holder that
 * died (its pid is gone, on this host) or that held it longer than `staleMs` is broken. Release
 * removes the file only if it still carries our token (never someone else's lock).
 *
 * Callers of one instance queue in memory first, so a busy window does not spin on its own lock.
 */
export class NodeFileLock implements FileLock {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly file: string;

  constructor(folder: string, name: string, private readonly options: NodeFileLockOptions = {}) {
    this.file = path.join(folder, name);
  }

  withLock<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.catch(() => undefined).then(async () => {
      const token = await this.acquire();
      try {
        return await fn();
      } finally {
        await this.release(token);
      }
    });
    this.queue = run;
    return run;
  }

  private async acquire(): Promise<string> {
    const token = randomBytes(8).toString('hex');
    const content: LockContent = { pid: process.pid, host: os.hostname(), token, at: Date.now() };
    const deadline = Date.now() + (this.options.timeoutMs ?? 10_000);
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    for (let attempt = 0; ; attempt++) {
      try {
        await fs.writeFile(this.file, JSON.stringify({ ...content, at: Date.now() }), { flag: 'wx' });
        return token;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await this.readHolder();
      if (holder && this.isStale(holder)) {
        await this.breakLock(holder);
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`The shared skill store is locked by another window (process ${holder?.pid ?? 'unknown'}) for too long; try again. If no other window is busy, delete ${this.file}.`);
      }
      await delay(5 + Math.min(attempt, 10) * 5 + Math.random() * 10);
    }
  }

  private async readHolder(): Promise<LockContent | undefined> {
    try {
      const parsed = JSON.parse(await fs.readFile(this.file, 'utf8')) as Partial<LockContent>;
      if (typeof parsed.pid === 'number' && typeof parsed.at === 'number' && typeof parsed.token === 'string') {
        return { pid: parsed.pid, at: parsed.at, token: parsed.token, host: String(parsed.host ?? '') };
      }
    } catch {
      // Gone (released meanwhile), or being written this instant: treat as fresh and retry.
    }
    return undefined;
  }

  private isStale(holder: LockContent): boolean {
    if (Date.now() - holder.at > (this.options.staleMs ?? 30_000)) return true;
    return holder.host === os.hostname() && holder.pid !== process.pid && !processAlive(holder.pid);
  }

  /** Moves the stale file aside under a unique name (only one breaker wins the rename), then deletes it. */
  private async breakLock(holder: LockContent): Promise<void> {
    const aside = `${this.file}.stale-${randomBytes(4).toString('hex')}`;
    try {
      await fs.rename(this.file, aside);
    } catch {
      return;
    }
    const moved = await fs.readFile(aside, 'utf8').catch(() => '');
    // Someone re-took the lock between our read and our rename: give it back.
    // (`link` fails when the path is taken again, so a newer lock is never overwritten.)
    if (!moved.includes(holder.token)) await fs.link(aside, this.file).catch(() => undefined);
    await fs.rm(aside, { force: true });
  }

  private async release(token: string): Promise<void> {
    const holder = await this.readHolder();
    if (holder?.token === token) await fs.rm(this.file, { force: true });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
