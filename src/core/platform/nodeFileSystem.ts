import { lstatSync, promises as fs, readFileSync } from 'node:fs';
import type { FileSystemPort } from './ports';

type Kind = 'file' | 'directory' | 'symlink' | 'other';

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): Kind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  return 'other';
}

/** FileSystemPort over node:fs. Symlinks are reported as such (callers decide whether to follow). */
export const nodeFileSystem: FileSystemPort = {
  async readFile(filePath) {
    return new Uint8Array(await fs.readFile(filePath));
  },
  async readDirectory(folder) {
    try {
      const entries = await fs.readdir(folder, { withFileTypes: true });
      return entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
  },
  async stat(filePath) {
    try {
      const stats = await fs.lstat(filePath);
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
