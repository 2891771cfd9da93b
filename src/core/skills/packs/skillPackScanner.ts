import * as path from 'node:path';
import type { SkillPackFormat } from '../../config/settingsSchema';
import type { DirectoryEntry, FileSystemPort } from '../../platform/ports';
import { HostSlices } from '../../platform/hostSlices';
import { detectSkillFormat } from './document/skillDocumentParser';
import type { DocumentFormat } from './document/parsedSkill';
import { FILE_START, makeProblem, PROBLEM_CODES } from './document/skillProblems';
import type { SkillProblem } from './document/skillProblems';
import { decodeEntries, encodeEntries } from '../store/skillFolderListings';
import type { FolderListingMemory } from '../store/skillFolderListings';

/**
 * Walks a pack folder and reads skill files defensively: symbolic links are never followed
 * (they could lead outside the pack), files above the size cap are not read, binary and
 * non-UTF-8 files are reported, and every problem names the file. Nothing here throws for a
 * bad file; the rest of the pack still loads.
 */

export const MAX_SKILL_FILE_BYTES = 1024 * 1024;
const MAX_PACK_FILES = 20000;
const MAX_DEPTH = 12;
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);
const RESOURCE_DIRS = ['scripts', 'references', 'assets'] as const;
const MAX_RESOURCES = 200;
/** Strict UTF-8 (invalid bytes throw); one decoder for every file, as decoding keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface SkillFileRef {
  /** Absolute path. */
  file: string;
  /** Relative to the pack root, `/`-separated. */
  relativePath: string;
  format: DocumentFormat;
  /** A SKILL.md's resource folders (scripts/, references/, assets/) that exist beside it, as the scan saw them. */
  resourceDirs?: string[];
}

export interface ScanResult {
  files: SkillFileRef[];
  problems: SkillProblem[];
  /** The pack folder does not exist. */
  missing: boolean;
}

/** Which files a pack format admits (`undefined` = auto: every skill file type). */
export function formatAdmits(packFormat: SkillPackFormat | undefined, format: DocumentFormat | undefined): format is DocumentFormat {
  if (!format) return false;
  return packFormat === undefined || packFormat === format;
}

/**
 * The skill files of a pack folder. Given `folders` (the last load's listings, skillFolderListings.ts),
 * a folder unchanged since it was listed is not listed again (`listFolder`), and every folder's
 * listing is recorded in `folders.current`.
 */
export async function scanPack(fs: FileSystemPort, root: string, packFormat?: SkillPackFormat, folders?: FolderListingMemory): Promise<ScanResult> {
  const files: SkillFileRef[] = [];
  const problems: SkillProblem[] = [];
  const rootStat = await safeStat(fs, root);
  if (!rootStat || (rootStat.kind !== 'directory' && rootStat.kind !== 'symlink')) {
    return { files, problems, missing: true };
  }
  /** Folders below MAX_DEPTH: reported once, after the walk. */
  const tooDeep: string[] = [];
  const slices = new HostSlices();
  const walk = async (folder: string, rel: string, depth: number): Promise<void> => {
    if (files.length >= MAX_PACK_FILES) return;
    if (depth > MAX_DEPTH) {
      tooDeep.push(folder);
      return;
    }
    await slices.pause();
    let entries;
    try {
      entries = folders ? await listFolder(fs, folder, folders) : await readFolder(fs, folder);
    } catch (error) {
      problems.push(makeProblem(folder, FILE_START, 'error', PROBLEM_CODES.unreadableFile, `Folder could not be read: ${messageOf(error)}`));
      return;
    }
    if (!entries) return;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const isSkillFolder = entries.some((e) => e.name === 'SKILL.md' && e.kind === 'file');
    for (const entry of entries) {
      if (entry.name === '.' || entry.name === '..' || /[\\/\u0000]/.test(entry.name)) continue;
      // Below the root a folder's path is one path.join made (normalised) and the name holds no
      // separator: joined by hand (path.join normalises each of ~20,000 paths at 10,000 skills).
      const full = rel ? `${folder}${path.sep}${entry.name}` : path.join(folder, entry.name);
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.kind === 'symlink') {
        if (entry.name.endsWith('.md') || entry.name.includes('.skill.') || !entry.name.includes('.')) {
          problems.push(
            makeProblem(
              full,
              FILE_START,
              'warning',
              PROBLEM_CODES.symlinkSkipped,
              'Symbolic link skipped: links are not followed inside skill packs (they could point outside the pack). Copy the file into the pack instead.',
            ),
          );
        }
        continue;
      }
      if (entry.kind === 'directory') {
        if (SKIP_DIRS.has(entry.name)) continue;
        if (isSkillFolder && isResourceDir(entry.name)) continue;
        await walk(full, relPath, depth + 1);
        continue;
      }
      const format = detectSkillFormat(entry.name);
      if (!formatAdmits(packFormat, format)) continue;
      if (entry.kind !== 'file') {
        // A FIFO, socket or device named like a skill file: never opened (reading a FIFO blocks).
        problems.push(
          makeProblem(
            full,
            FILE_START,
            'info',
            PROBLEM_CODES.notARegularFile,
            'Skipped: this is not a regular file (a FIFO, socket or device), so it is never read. Replace it with a normal file.',
          ),
        );
        continue;
      }
      if (files.length >= MAX_PACK_FILES) {
        problems.push(
          makeProblem(root, FILE_START, 'error', PROBLEM_CODES.tooManyFiles, `Pack has more than ${MAX_PACK_FILES} skill files; the rest were not loaded.`),
        );
        return;
      }
      const resourceDirs =
        isSkillFolder && entry.name === 'SKILL.md' ? entries.filter((e) => e.kind === 'directory' && isResourceDir(e.name)).map((e) => e.name) : undefined;
      files.push({ file: full, relativePath: relPath, format, ...(resourceDirs ? { resourceDirs } : {}) });
    }
  };
  await walk(root, '', 0);
  if (tooDeep.length > 0) {
    // One diagnostic per pack (on the first such folder), not one per folder of a deep tree.
    const more = tooDeep.length > 1 ? ` (and ${tooDeep.length - 1} more folder${tooDeep.length > 2 ? 's' : ''} at that depth)` : '';
    problems.push(
      makeProblem(
        tooDeep[0] as string,
        FILE_START,
        'info',
        PROBLEM_CODES.tooDeep,
        `Folder not scanned${more}: it is more than ${MAX_DEPTH} levels below the pack root, so skill files in it are not loaded. Move them higher up.`,
      ),
    );
  }
  return { files, problems, missing: false };
}

/** A folder's entries; undefined when it does not exist. */
async function readFolder(fs: FileSystemPort, folder: string): Promise<DirectoryEntry[] | undefined> {
  return fs.readDirectorySync ? fs.readDirectorySync(folder) : await fs.readDirectory(folder);
}

/**
 * A folder's time resolution on the coarsest file systems (FAT: 2 s): a folder changed within it
 * of its listing may keep the time it was listed with, so that listing is not reused.
 */
const RACY_MS = 2000;

/**
 * A folder's entries from its last listing when its modification time is the one that listing
 * saw and the listing was taken well after that time (RACY_MS); otherwise listed (its time taken
 * first, so a change during the listing shows as a newer time next load). One `lstat` instead
 * of a listing: adding, removing or renaming an entry changes a folder's time. The stat of each
 * skill file a listing names still happens (unchangedFiles.ts): an edit in place changes only
 * the file's own time.
 */
async function listFolder(fs: FileSystemPort, folder: string, folders: FolderListingMemory): Promise<DirectoryEntry[] | undefined> {
  const listedAt = Date.now();
  let stat;
  try {
    stat = fs.statSync ? fs.statSync(folder) : await fs.stat(folder);
  } catch {
    stat = undefined;
  }
  const kept = folders.previous.get(folder);
  if (stat?.kind === 'directory' && kept && kept.mtimeMs === stat.mtimeMs && kept.listedAt - kept.mtimeMs > RACY_MS) {
    const entries = decodeEntries(kept.entries);
    if (entries) {
      folders.current.set(folder, kept);
      return entries;
    }
  }
  const entries = await readFolder(fs, folder);
  if (entries && stat?.kind === 'directory') {
    const listing = { mtimeMs: stat.mtimeMs, listedAt, entries: encodeEntries(entries) };
    // Listed again just as before and still too soon after its change to be reused: the stored
    // row stays (a start that changed nothing does not rewrite the store).
    const same = kept !== undefined && kept.mtimeMs === listing.mtimeMs && kept.entries === listing.entries && !(listedAt - listing.mtimeMs > RACY_MS);
    folders.current.set(folder, same ? kept : listing);
  }
  return entries;
}

export type ReadResult = { ok: true; text: string } | { ok: false; problem: SkillProblem };

/** Reads one skill file as UTF-8 text with the size/binary/encoding checks. */
export async function readSkillFile(fs: FileSystemPort, file: string, maxBytes = MAX_SKILL_FILE_BYTES): Promise<ReadResult> {
  const fail = (code: SkillProblem['code'], message: string): ReadResult => ({ ok: false, problem: makeProblem(file, FILE_START, 'error', code, message) });
  // A regular file within the cap is read synchronously (callers pause between files: HostSlices);
  // anything else is looked at asynchronously below, which says what is wrong with it.
  const quick = fs.readRegularFileSync?.(file, maxBytes);
  if (quick) return decodeSkillText(quick, fail);
  const stat = await safeStat(fs, file);
  if (!stat) return fail(PROBLEM_CODES.unreadableFile, 'File not found.');
  if (stat.kind === 'symlink') return fail(PROBLEM_CODES.symlinkSkipped, 'Symbolic link skipped: links are not followed inside skill packs.');
  if (stat.kind !== 'file') return fail(PROBLEM_CODES.notARegularFile, 'Not a regular file (a folder, FIFO, socket or device); it is never read.');
  if (stat.size > maxBytes) {
    return fail(PROBLEM_CODES.fileTooLarge, `File is too large (${stat.size} bytes; the limit is ${maxBytes}). Split it into smaller skill files.`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    return fail(PROBLEM_CODES.unreadableFile, `File could not be read: ${messageOf(error)}`);
  }
  if (bytes.byteLength > maxBytes) return fail(PROBLEM_CODES.fileTooLarge, `File is too large (${bytes.byteLength} bytes; the limit is ${maxBytes}).`);
  return decodeSkillText(bytes, fail);
}

/** A skill file's bytes as text, or the problem: NUL bytes (binary) or invalid UTF-8. A leading byte-order mark is dropped. */
function decodeSkillText(bytes: Uint8Array, fail: (code: SkillProblem['code'], message: string) => ReadResult): ReadResult {
  const probe = bytes.subarray(0, Math.min(bytes.byteLength, 8192));
  if (probe.includes(0)) return fail(PROBLEM_CODES.binaryFile, 'File contains NUL bytes; it looks binary, not a skill file.');
  try {
    const text = UTF8.decode(bytes);
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch {
    return fail(PROBLEM_CODES.invalidEncoding, 'File is not valid UTF-8. Save it as UTF-8.');
  }
}

/**
 * Relative paths of a SKILL.md folder's `scripts/`, `references/`, `assets/` (listed, not read).
 * `now`: listed with the port's synchronous twin where it has one (a few folders, for an answer
 * given while a load runs: an asynchronous listing waits a turn of the event loop per folder,
 * each one a slice of the load apart).
 */
export async function listSkillResources(fs: FileSystemPort, skillFolder: string, now = false): Promise<string[]> {
  const out: string[] = [];
  const { readDirectorySync } = fs;
  const list = (folder: string): Promise<DirectoryEntry[] | undefined> | DirectoryEntry[] | undefined => {
    if (!now || !readDirectorySync) return fs.readDirectory(folder).catch(() => undefined);
    try {
      return readDirectorySync(folder);
    } catch {
      return undefined;
    }
  };
  const walk = async (folder: string, rel: string, depth: number): Promise<void> => {
    if (depth > 4 || out.length >= MAX_RESOURCES) return;
    const entries = await list(folder);
    if (!entries) return;
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (out.length >= MAX_RESOURCES) return;
      if (entry.name === '.' || entry.name === '..' || /[\\/\u0000]/.test(entry.name)) continue;
      const relPath = `${rel}/${entry.name}`;
      if (entry.kind === 'file') out.push(relPath);
      else if (entry.kind === 'directory') await walk(path.join(folder, entry.name), relPath, depth + 1);
    }
  };
  for (const dir of RESOURCE_DIRS) await walk(path.join(skillFolder, dir), dir, 0);
  return out;
}

function isResourceDir(name: string): boolean {
  return (RESOURCE_DIRS as readonly string[]).includes(name);
}

async function safeStat(fs: FileSystemPort, file: string) {
  try {
    return await fs.stat(file);
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
