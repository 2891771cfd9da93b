import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { DOOR_JOURNAL_FILE } from './doorFolder';

/**
 * The door journal's files. The journal is a series of segments in the door folder, oldest first:
 * `doors.jsonl`, then `doors-<ms, 15 digits>-<4 hex>.jsonl` in name order. Writers append to the
 * newest. The writer whose append takes it past `segmentBytes` starts the next one (created
 * exclusively: two writers crossing the size at once start two segments, and both are read) and
 * deletes the oldest segments while the segments before the two newest bring the whole journal
 * over `keepBytes`.
 *
 * Why segments and not one file rotated by renaming: no file is ever renamed or rewritten, so a
 * segment's name is its identity for every reader — the ledger keeps the byte offset it counted up
 * to per segment, the gateway folds each segment from its own offset — and an append stays one
 * `O_APPEND` write with no lock. A writer that listed the folder just before a new segment started
 * still lands its line in the older one, where the readers find it.
 */

export interface JournalLimits {
  /** A segment this long is followed by a new one. */
  segmentBytes: number;
  /** The journal's whole size kept: older segments are deleted beyond it (the two newest never). */
  keepBytes: number;
}

/** About 28,000 decisions a segment; 32 MiB kept, about 220,000 decisions: what a gateway folds at its start is bounded. */
const JOURNAL_LIMITS: Readonly<JournalLimits> = { segmentBytes: 4 * 1024 * 1024, keepBytes: 32 * 1024 * 1024 };

const SEGMENT_NAME = /^doors-(\d{15})-[0-9a-f]{4}\.jsonl$/;

/** The journal's segments in `folder`, oldest first (absolute paths); none when the folder does not exist. */
export function journalSegments(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const later = names.filter((name) => SEGMENT_NAME.test(name)).sort();
  const first = names.includes(DOOR_JOURNAL_FILE) ? [DOOR_JOURNAL_FILE] : [];
  return [...first, ...later].map((name) => path.join(folder, name));
}

/** Appends `line` to the newest segment with one `O_APPEND` write; starts the next segment when this one is full. */
export function appendToJournal(folder: string, line: string, limits: Readonly<JournalLimits> = JOURNAL_LIMITS): void {
  mkdirSync(folder, { recursive: true });
  const segments = journalSegments(folder);
  const newest = segments.at(-1) ?? path.join(folder, DOOR_JOURNAL_FILE);
  const fd = openSync(newest, 'a', 0o600);
  let size: number;
  try {
    writeSync(fd, line);
    size = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  if (size >= limits.segmentBytes) {
    startSegment(folder, segments);
    pruneSegments(folder, limits);
  }
}

/** Creates the next segment, named after every existing one even if the clock went back. */
function startSegment(folder: string, segments: readonly string[]): void {
  const last = SEGMENT_NAME.exec(path.basename(segments.at(-1) ?? ''));
  const stamp = Math.max(Date.now(), last ? Number(last[1]) + 1 : 0);
  const name = `doors-${String(stamp).padStart(15, '0')}-${randomBytes(2).toString('hex')}.jsonl`;
  try {
    closeSync(openSync(path.join(folder, name), 'wx', 0o600));
  } catch (error) {
    // Another writer started the same name at the same millisecond: its segment is the next one.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Deletes the oldest segments while the journal is over `keepBytes`, never the two newest (writers may still be appending there). */
function pruneSegments(folder: string, limits: Readonly<JournalLimits>): void {
  const segments = journalSegments(folder);
  const sizes = segments.map((file) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  });
  let total = sizes.reduce((sum, size) => sum + size, 0);
  for (let i = 0; i < segments.length - 2 && total > limits.keepBytes; i++) {
    try {
      unlinkSync(segments[i]!);
    } catch (error) {
      // Pruned by another writer already.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    total -= sizes[i]!;
  }
}
