import { closeSync, constants, fstatSync, lstat, lstatSync, openSync, readdir, readdirSync, readFile, readSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import type { DirectoryEntry, FileKind, FileStat, FileSystemPort } from './ports';

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileKind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  return 'other';
}

/**
 * node:fs's callback API as promises: a load of 10,000 skills makes tens of thousands of these
 * calls, and the callback API costs about half the CPU time of `fs.promises` per call.
 */
function promised<T>(start: (done: (error: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => start((error, value) => (error ? reject(error) : resolve(value))));
}

/** FileSystemPort over node:fs. Symlinks are reported as such (callers decide whether to follow). */
export const nodeFileSystem: FileSystemPort = {
  async readFile(filePath) {
    const bytes = await promised<Buffer>((done) => readFile(filePath, done));
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
  async readDirectory(folder) {
    try {
      return entriesOf(await promised<Dirent[]>((done) => readdir(folder, { withFileTypes: true }, done)));
    } catch (error) {
      return absentFolder(error);
    }
  },
  readDirectorySync(folder) {
    try {
      return entriesOf(readdirSync(folder, { withFileTypes: true }));
    } catch (error) {
      return absentFolder(error);
    }
  },
  async stat(filePath) {
    try {
      return statOf(await promised<Stats>((done) => lstat(filePath, done)));
    } catch (error) {
      return absentFile(error);
    }
  },
  statSync(filePath) {
    try {
      return statOf(lstatSync(filePath));
    } catch (error) {
      return absentFile(error);
    }
  },
  readRegularFileSync(filePath, maxBytes) {
    let fd: number | undefined;
    try {
      // Non-blocking and not through a link: a FIFO or a link is never waited on or followed, and
      // the open file itself is checked below. Where the platform cannot refuse a link on open
      // (no O_NOFOLLOW), the path is checked first (a load reads 10,000 files: one call less each).
      if (constants.O_NOFOLLOW === undefined && !lstatSync(filePath).isFile()) return undefined;
      fd = openSync(filePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
      const stats = fstatSync(fd);
      if (!stats.isFile() || stats.size > maxBytes) return undefined;
      const bytes = new Uint8Array(stats.size);
      let filled = 0;
      while (filled < bytes.length) {
        const read = readSync(fd, bytes, filled, bytes.length - filled, filled);
        if (read === 0) break;
        filled += read;
      }
      return filled === bytes.length ? bytes : bytes.subarray(0, filled);
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  },
};

function entriesOf(entries: readonly Dirent[]): DirectoryEntry[] {
  return entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
}

function statOf(stats: Stats): FileStat {
  return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
}

function absentFolder(error: unknown): undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  throw error;
}

function absentFile(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw error;
}
