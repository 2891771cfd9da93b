import type { DirectoryEntry, FileKind } from '../../platform/ports';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import { writeKeyedRowsInSlices } from '../../sql/keyedRows';
import type { HostSlices } from '../../platform/hostSlices';

/**
 * The listing of every folder the last load walked (`skill_folders` in the skill store): its
 * modification time, when it was listed, and its entries (name and kind). Adding, removing or
 * renaming an entry changes a folder's modification time, so a warm start may reuse the listing of
 * a folder whose time is unchanged instead of listing it again (skillPackScanner's `listFolder`);
 * a file edited in place changes its own time, not its folder's, and is caught by its own
 * fingerprint (skillFileFingerprints.ts).
 */

interface FolderListing {
  /** The folder's modification time when it was listed. */
  mtimeMs: number;
  /** When it was listed (wall clock, ms): a folder changed within the file system's time resolution of it is listed again. */
  listedAt: number;
  /** Its entries (`encodeEntries`). */
  entries: string;
}

/** One load's listings: the last load's, and this load's (reused or read), by folder. */
export interface FolderListingMemory {
  readonly previous: ReadonlyMap<string, FolderListing>;
  readonly current: Map<string, FolderListing>;
}

const KIND_CODES: Record<FileKind, string> = { file: 'f', directory: 'd', symlink: 'l', other: 'o' };
const KINDS: Readonly<Record<string, FileKind>> = { f: 'file', d: 'directory', l: 'symlink', o: 'other' };

/** Entries as stored: each kind's letter then its name, joined by `/` (which no entry name holds). */
export function encodeEntries(entries: readonly DirectoryEntry[]): string {
  return entries.map((entry) => KIND_CODES[entry.kind] + entry.name).join('/');
}

/** The entries of `encodeEntries`; undefined when the text is not such a listing (a damaged row: the folder is listed again). */
export function decodeEntries(text: string): DirectoryEntry[] | undefined {
  if (text === '') return [];
  const entries: DirectoryEntry[] = [];
  for (const part of text.split('/')) {
    const kind = KINDS[part.charAt(0)];
    if (kind === undefined || part.length < 2) return undefined;
    entries.push({ name: part.slice(1), kind });
  }
  return entries;
}

export class SkillFolderListings {
  constructor(private readonly db: () => SqlDatabase) {}

  /** The stored listings, as a load's memory to reuse and to record into. */
  memory(): FolderListingMemory {
    const previous = new Map<string, FolderListing>();
    for (const r of this.db().arrays('SELECT folder, mtime_ms, listed_at, entries FROM skill_folders')) {
      previous.set(String(r[0]), { mtimeMs: Number(r[1]), listedAt: Number(r[2]), entries: String(r[3] ?? '') });
    }
    return { previous, current: new Map() };
  }

  /** Whether the last complete load walked this folder (a pack whose root it did not walk is new to the store). */
  listed(folder: string): boolean {
    return this.db().arrays('SELECT 1 FROM skill_folders WHERE folder = ?', [folder]).length > 0;
  }

  /**
   * Keeps this load's listings (the folders it walked), writing only the rows that changed, a few
   * hundred at a time with the host's turns between them. Each listing holds on its own: a folder
   * whose listing a save between two of them missed is listed again by the next load.
   */
  async replaceAll(memory: FolderListingMemory, slices: Pick<HostSlices, 'pause'>): Promise<void> {
    const { previous, current } = memory;
    const changed = [...current].filter(([folder, listing]) => !sameListing(listing, previous.get(folder)));
    const gone = [...previous.keys()].filter((folder) => !current.has(folder));
    await writeKeyedRowsInSlices(
      this.db,
      { name: 'skill_folders', key: 'folder', columns: ['folder', 'mtime_ms', 'listed_at', 'entries'] },
      gone,
      changed.map(([folder, l]) => [folder, l.mtimeMs, l.listedAt, l.entries]),
      slices,
    );
  }
}

function sameListing(a: FolderListing, b: FolderListing | undefined): boolean {
  return b !== undefined && a.mtimeMs === b.mtimeMs && a.listedAt === b.listedAt && a.entries === b.entries;
}
