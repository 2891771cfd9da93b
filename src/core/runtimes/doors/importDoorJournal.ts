import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import * as path from 'node:path';
import { parseDoorJournal } from '../../ledger/doorJournal';
import type { LedgerStore } from '../../ledger/ledgerStore';
import { journalSegments } from './doorJournalSegments';

/** At most this much of a journal is read in one import (the rest comes with the next one). */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/**
 * Counts the door decisions of `folder`'s journal that `ledger` has not counted yet: each segment,
 * oldest first, from the offset the ledger keeps for it, up to its last complete line. A segment
 * shorter than that offset was replaced, and is read from its start. Damaged lines are skipped and
 * named in the answer, never fatal; a missing journal imports nothing.
 */
export function importDoorJournal(ledger: LedgerStore, folder: string): { imported: number; skipped: string[] } {
  const total = { imported: 0, skipped: [] as string[] };
  let budget = MAX_READ_BYTES;
  for (const file of journalSegments(folder)) {
    if (budget <= 0) break;
    const read = importSegment(ledger, file, budget);
    total.imported += read.imported;
    total.skipped.push(...read.skipped);
    budget -= read.bytes;
  }
  return total;
}

function importSegment(ledger: LedgerStore, file: string, budget: number): { imported: number; skipped: string[]; bytes: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    // Deleted since the folder was listed (the journal keeps its newest segments only).
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { imported: 0, skipped: [], bytes: 0 };
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    let from = ledger.doorJournalOffset(file);
    if (from > size) from = 0;
    if (from === size) return { imported: 0, skipped: [], bytes: 0 };
    const bytes = Buffer.alloc(Math.min(size - from, budget));
    const read = readSync(fd, bytes, 0, bytes.length, from);
    const parsed = parseDoorJournal(bytes.subarray(0, read), 0);
    if (parsed.next === 0 && read === MAX_READ_BYTES) {
      // One line longer than a whole read is not a decision: step over it.
      ledger.importDoorEntries(file, [], from + read);
      return { imported: 0, skipped: [`${path.basename(file)} byte ${from}: a line over ${MAX_READ_BYTES} bytes`], bytes: read };
    }
    ledger.importDoorEntries(file, parsed.entries, from + parsed.next);
    return {
      imported: parsed.entries.length,
      skipped: parsed.skipped.map((line) => line.replace(/^byte (\d+)/, (_, n: string) => `${path.basename(file)} byte ${from + Number(n)}`)),
      bytes: read,
    };
  } finally {
    closeSync(fd);
  }
}
