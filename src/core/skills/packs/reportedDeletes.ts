import * as path from 'node:path';
import type { FileSystemPort } from '../../platform/ports';
import type { PackSkillSource } from '../store/skillStore';
import type { FileChangeResult } from './skillPackLoader';
import { isInside } from './skillPackSources';

/** What handling a reported delete needs of the pack loader and the store. */
export interface DeleteTarget {
  fs: FileSystemPort;
  reloadFile(file: string): Promise<FileChangeResult>;
  removeFile(file: string): FileChangeResult;
  packSources(): PackSkillSource[];
}

/**
 * A delete the file watcher reported. Its report can arrive after the path was written again (a
 * file removed and recreated at once, as editors and generators do): a file there now is read
 * again rather than dropped, and of a folder there now only the skills whose files are gone are
 * dropped. A path that is really gone drops every pack skill it defined.
 */
export async function removeReportedPath(target: DeleteTarget, file: string): Promise<FileChangeResult> {
  const absolute = path.resolve(file);
  const now = await target.fs.stat(absolute).catch(() => undefined);
  if (now?.kind === 'file') return target.reloadFile(absolute);
  if (now?.kind !== 'directory') return target.removeFile(absolute);
  const started = performance.now();
  const sources = new Set(target.packSources().map((record) => record.source_file));
  const removed: string[] = [];
  let pack: string | undefined;
  for (const source of sources) {
    if (!isInside(source, absolute) || (await target.fs.stat(source).catch(() => undefined))) continue;
    const result = target.removeFile(source);
    removed.push(...result.removed);
    pack ??= result.pack;
  }
  return { status: 'removed', file: absolute, pack, inserted: [], updated: [], removed, problems: [], durationMs: performance.now() - started };
}
