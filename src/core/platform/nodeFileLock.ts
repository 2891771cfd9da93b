import { constants, promises as fs } from 'node:fs';
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

/** What is at the lock path: a holder's record, or a file that cannot be read as one. */
type Holder =
  | { readable: true; content: LockContent }
  /** Empty or damaged (a crash between create and write): judged by the file's age. */
  | { readable: false; mtimeMs: number; ino: number };

/**
 * An unreadable lock file older than this is a crash leftover: a holder writes its record in
 * the same call that creates the file, so the record is missing only for that instant.
 */
const UNREADABLE_STALE_MS = 5_000;

/**
 * A lock file created with O_EXCL (`wx`): creation is atomic on local file systems, so exactly
 * one process holds it. The file says who holds it (pid, host, a random token); a holder that
 * died (its pid is gone, on this host) or that held it longer than `staleMs` is broken. A file
 * that holds no readable record (empty or damaged: a crash between create and write) is judged by
 * its age instead, so it never blocks writes for good. Something that is not a regular file at
 * the lock path (a FIFO, a folder) is an error at once: reading a FIFO would block forever.
 * Release removes the file only if it still carries our token (never someone else's lock).
 *
 * Why not a lock library such as proper-lockfile: it locks with a `<file>.lock` folder, so during
 * an update a window on the old version and one on the new would not exclude each other; its
 * staleness depends on a timer refreshing the mtime, which a busy extension host can miss (the
 * lock is then lost mid-write); and it cannot break a crashed holder's lock at once by its pid.
 *
 * Callers of one instance queue in memory first, so a busy window does not spin on its own lock.
 */
export class NodeFileLock implements FileLock {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly file: string;

  constructor(
    folder: string,
    name: string,
    private readonly options: NodeFileLockOptions = {},
  ) {
    this.file = path.join(folder, name);
  }

  withLock<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue
      .catch(() => undefined)
      .then(async () => {
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
        const who = holder?.readable ? `process ${holder.content.pid}` : holder ? 'a lock file with no readable owner' : 'process unknown';
        throw new Error(
          `The shared skill store is locked by another window (${who}) for too long; try again. If no other window is busy, delete ${this.file}.`,
        );
      }
      await delay(5 + Math.min(attempt, 10) * 5 + Math.random() * 10);
    }
  }

  /**
   * Who holds the lock, or undefined when the file is gone (released meanwhile). Opened without
   * blocking and checked to be a regular file before anything is read.
   */
  private async readHolder(): Promise<Holder | undefined> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        throw new Error(
          `${this.file} is ${stats.isDirectory() ? 'a folder' : 'a FIFO, socket or device'}, not a lock file, so the shared skill store cannot be locked. Delete it; the next write recreates it.`,
        );
      }
      const content = contentOf(await handle.readFile('utf8'));
      return content ? { readable: true, content } : { readable: false, mtimeMs: stats.mtimeMs, ino: stats.ino };
    } finally {
      await handle.close();
    }
  }

  private isStale(holder: Holder): boolean {
    if (!holder.readable) return Date.now() - holder.mtimeMs > Math.min(UNREADABLE_STALE_MS, this.options.staleMs ?? 30_000);
    const { content } = holder;
    if (Date.now() - content.at > (this.options.staleMs ?? 30_000)) return true;
    return content.host === os.hostname() && content.pid !== process.pid && !processAlive(content.pid);
  }

  /** Moves the stale file aside under a unique name (only one breaker wins the rename), then deletes it. */
  private async breakLock(holder: Holder): Promise<void> {
    const aside = `${this.file}.stale-${randomBytes(4).toString('hex')}`;
    try {
      await fs.rename(this.file, aside);
    } catch {
      return;
    }
    // Someone re-took the lock between our read and our rename: give it back.
    // (`link` fails when the path is taken again, so a newer lock is never overwritten.)
    const movedOther = holder.readable
      ? !(await fs.readFile(aside, 'utf8').catch(() => '')).includes(holder.content.token)
      : (await fs.lstat(aside).catch(() => undefined))?.ino !== holder.ino;
    if (movedOther) await fs.link(aside, this.file).catch(() => undefined);
    await fs.rm(aside, { force: true });
  }

  private async release(token: string): Promise<void> {
    const holder = await this.readHolder().catch(() => undefined);
    if (holder?.readable && holder.content.token === token) await fs.rm(this.file, { force: true });
  }
}

function contentOf(text: string): LockContent | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<LockContent> | null;
    if (parsed && typeof parsed.pid === 'number' && typeof parsed.at === 'number' && typeof parsed.token === 'string') {
      return { pid: parsed.pid, at: parsed.at, token: parsed.token, host: String(parsed.host ?? '') };
    }
  } catch {
    // Empty or damaged: the caller judges the file by its age.
  }
  return undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
