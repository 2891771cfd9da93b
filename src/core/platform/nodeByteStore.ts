import { constants, promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { ByteStore } from './ports';

/** A temp file of a write: `<key>.<pid>.<unique>.tmp`. */
const TEMP_NAME = /^[A-Za-z0-9._-]+\.(\d+)\.[0-9a-f]+\.tmp$/;
/** A temp file this old is a leftover even if its pid is alive again (pids are reused). */
const STALE_TEMP_MS = 10 * 60 * 1000;

/**
 * ByteStore over a folder on disk. Writes go to a temp file with a name of its own (pid + random
 * bytes, so parallel writes never share one) that is fsynced and renamed over the target: a
 * crash leaves either the old or the new bytes, never a torn file. Temp files left by a process
 * killed mid-write are removed the first time the store is used. Keys are plain file names;
 * anything that could escape the folder is rejected. Reading a key that is not a regular file
 * (a folder, a FIFO, a device) fails at once with a clear error and never blocks.
 */
export class NodeByteStore implements ByteStore {
  private swept: Promise<void> | undefined;

  constructor(private readonly folder: string) {}

  private pathFor(key: string): string {
    if (!/^[A-Za-z0-9._-]+$/.test(key) || key.startsWith('.')) {
      throw new Error(`Invalid storage key "${key}": use letters, digits, dot, dash and underscore only.`);
    }
    return path.join(this.folder, key);
  }

  async read(key: string): Promise<Uint8Array | undefined> {
    await this.sweepOnce();
    const file = this.pathFor(key);
    let handle: fs.FileHandle;
    try {
      // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
      handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new Error(`"${key}" is not a regular file (${stats.isDirectory() ? 'a folder' : 'a FIFO, socket or device'}).`);
      return await readWhole(handle, stats.size);
    } finally {
      await handle.close();
    }
  }

  async write(key: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<void> {
    await fs.mkdir(this.folder, { recursive: true });
    const target = this.pathFor(key);
    const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await fs.open(temp, 'wx');
      try {
        // Each part goes on where the last ended (a handle's writeFile writes from its position, all of it).
        for (const part of bytes instanceof Uint8Array ? [bytes] : bytes) await handle.writeFile(part);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.replace(temp, target);
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Renames the temp file over the target. If something that is not a regular file (a folder, a
   * FIFO) sits where the target goes, it is moved aside to `<target>.corrupt-<time>` first —
   * never deleted — so the store can be written again.
   */
  private async replace(temp: string, target: string): Promise<void> {
    try {
      await fs.rename(temp, target);
      return;
    } catch (error) {
      const stats = await fs.lstat(target).catch(() => undefined);
      if (!stats || stats.isFile()) throw error;
    }
    await fs.rename(target, `${target}.corrupt-${Date.now()}`);
    await fs.rename(temp, target);
  }

  async rename(fromKey: string, toKey: string): Promise<void> {
    try {
      await fs.rename(this.pathFor(fromKey), this.pathFor(toKey));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathFor(key), { force: true });
  }

  /** Removes leftover temp files (see class comment); once per instance, never throws. */
  private sweepOnce(): Promise<void> {
    this.swept ??= this.removeLeftoverTempFiles().catch(() => undefined);
    return this.swept;
  }

  private async removeLeftoverTempFiles(): Promise<void> {
    const names = await fs.readdir(this.folder).catch(() => [] as string[]);
    const now = Date.now();
    for (const name of names) {
      const match = TEMP_NAME.exec(name);
      if (!match) continue;
      const full = path.join(this.folder, name);
      const stats = await fs.lstat(full).catch(() => undefined);
      if (!stats?.isFile()) continue;
      const pid = Number(match[1]);
      const writerGone = pid !== process.pid && !processAlive(pid);
      if (writerGone || now - stats.mtimeMs > STALE_TEMP_MS) await fs.rm(full, { force: true }).catch(() => undefined);
    }
  }
}

/**
 * A file's bytes in reads of the whole size `stat` gave (one read, usually), straight into the
 * buffer that is returned: a store file of tens of megabytes costs no chunking and no copy.
 * Writes replace the file by rename, so the open file does not change under the read.
 */
async function readWhole(handle: fs.FileHandle, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}

/** Whether a process of this host with that pid exists (EPERM: it does, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
