import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import * as path from 'node:path';
import { parseDoorJournal } from '../../ledger/doorJournal';
import type { LedgerStore } from '../../ledger/ledgerStore';
import { DOOR_JOURNAL_FILE } from './doorFolder';

/** At most this much of a journal is read in one import (the rest comes with the next one). */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/**
 * Counts the door decisions of `folder`'s journal that `ledger` has not counted yet: reads from
 * the offset the ledger keeps, up to the last complete line. A journal shorter than that offset
 * was replaced, and is read from its start. Damaged lines are skipped and named in the answer,
 * never fatal; a missing journal imports nothing.
 */
export function importDoorJournal(ledger: LedgerStore, folder: string): { imported: number; skipped: string[] } {
  const file = path.join(folder, DOOR_JOURNAL_FILE);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { imported: 0, skipped: [] };
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    let from = ledger.doorJournalOffset(file);
    if (from > size) from = 0;
    if (from === size) return { imported: 0, skipped: [] };
    const bytes = Buffer.alloc(Math.min(size - from, MAX_READ_BYTES));
    const read = readSync(fd, bytes, 0, bytes.length, from);
    const parsed = parseDoorJournal(bytes.subarray(0, read), 0);
    if (parsed.next === 0 && read === MAX_READ_BYTES) {
      // One line longer than a whole read is not a decision: step over it.
      ledger.importDoorEntries(file, [], from + read);
      return { imported: 0, skipped: [`byte ${from}: a line over ${MAX_READ_BYTES} bytes`] };
    }
    ledger.importDoorEntries(file, parsed.entries, from + parsed.next);
    return {
      imported: parsed.entries.length,
      skipped: parsed.skipped.map((line) => line.replace(/^byte (\d+)/, (_, n: string) => `byte ${from + Number(n)}`)),
    };
  } finally {
    closeSync(fd);
  }
}
