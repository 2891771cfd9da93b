import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { PackFolderWriter } from './ports';

/**
 * PackFolderWriter over node:fs (the CLI; tests). A file is created only when nothing is there
 * (`wx`), so even a folder made between the check and the write is never overwritten.
 */
export const nodePackFolderWriter: PackFolderWriter = {
  async exists(file) {
    try {
      await fs.lstat(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  },
  async writeFile(file, text) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text, { encoding: 'utf8', flag: 'wx' });
  },
};
