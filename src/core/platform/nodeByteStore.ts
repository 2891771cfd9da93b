import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ByteStore } from './ports';

/**
 * ByteStore over a folder on disk. Writes go to a temp file that is fsynced and renamed over
 * the target, so a crash leaves either the old or the new database, never a torn one.
 * Keys are plain file names; anything that could escape the folder is rejected.
 */
export class NodeByteStore implements ByteStore {
  constructor(private readonly folder: string) {}

  private pathFor(key: string): string {
    if (!/^[A-Za-z0-9._-]+$/.test(key) || key.startsWith('.')) {
      throw new Error(`Invalid storage key "${key}": use letters, digits, dot, dash and underscore only.`);
    }
    return path.join(this.folder, key);
  }

  async read(key: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await fs.readFile(this.pathFor(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async write(key: string, bytes: Uint8Array): Promise<void> {
    await fs.mkdir(this.folder, { recursive: true });
    const target = this.pathFor(key);
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
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
}
