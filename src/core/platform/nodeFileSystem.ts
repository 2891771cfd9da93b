import { lstat, lstatSync, readdir, readFile, readFileSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import type { FileSystemPort } from './ports';

type Kind = 'file' | 'directory' | 'symlink' | 'other';

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): Kind {
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
      const entries = await promised<Dirent[]>((done) => readdir(folder, { withFileTypes: true }, done));
      return entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
  },
  async stat(filePath) {
    try {
      const stats = await promised<Stats>((done) => lstat(filePath, done));
      return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  },
  readRegularFileSync(filePath, maxBytes) {
    try {
      const stats = lstatSync(filePath);
      if (!stats.isFile() || stats.size > maxBytes) return undefined;
      const bytes = readFileSync(filePath);
      return bytes.byteLength > maxBytes ? undefined : new Uint8Array(bytes);
    } catch {
      return undefined;
    }
  },
};
