import type { SqlValue } from 'sql.js';
import type { HostSlices } from '../platform/hostSlices';
import type { SqlDatabase } from './sqlDatabase';

/** Rows per statement: SQLite binds at most 999 parameters in older builds, and 100 rows of up to 9 columns stay under it. */
const ROWS_PER_STATEMENT = 100;

/**
 * Writes the difference of a table keyed by one column in one transaction: deletes the rows whose
 * key is in `gone`, then inserts or replaces `rows` (values in `columns` order), 100 to a
 * statement. The stores' per-load tables (file fingerprints, folder listings) write only the rows
 * that changed this way.
 */
export function writeKeyedRows(
  db: SqlDatabase,
  table: { name: string; key: string; columns: readonly string[] },
  gone: readonly SqlValue[],
  rows: readonly SqlValue[][],
): void {
  if (gone.length === 0 && rows.length === 0) return;
  const row = `(${table.columns.map(() => '?').join(', ')})`;
  db.transaction(() => {
    for (let i = 0; i < gone.length; i += ROWS_PER_STATEMENT) {
      const chunk = gone.slice(i, i + ROWS_PER_STATEMENT);
      db.run(`DELETE FROM ${table.name} WHERE ${table.key} IN (${chunk.map(() => '?').join(', ')})`, chunk as SqlValue[]);
    }
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
      db.run(`INSERT OR REPLACE INTO ${table.name} (${table.columns.join(', ')}) VALUES ${chunk.map(() => row).join(', ')}`, chunk.flat());
    }
  });
}

/** Rows per transaction of a write in slices: a few milliseconds of inserts. */
const ROWS_PER_SLICE = 256;

/**
 * `writeKeyedRows` a few hundred rows at a time, each its own transaction, the host given its turns
 * between them (`slices`): a cold load's end writes 10,000 fingerprints and 10,000 folder
 * listings, which in one stretch held the extension host's thread for hundreds of milliseconds.
 * For tables whose rows each hold on their own: a save between two transactions keeps some rows
 * of this write and the earlier ones of the rest.
 */
export async function writeKeyedRowsInSlices(
  db: () => SqlDatabase,
  table: { name: string; key: string; columns: readonly string[] },
  gone: readonly SqlValue[],
  rows: readonly SqlValue[][],
  slices: Pick<HostSlices, 'pause'>,
): Promise<void> {
  // The rows gone first, as one write does (a pack removed from the settings drops every row of it).
  for (let i = 0; i < gone.length; i += ROWS_PER_SLICE) {
    await slices.pause();
    writeKeyedRows(db(), table, gone.slice(i, i + ROWS_PER_SLICE), []);
  }
  for (let i = 0; i < rows.length; i += ROWS_PER_SLICE) {
    await slices.pause();
    writeKeyedRows(db(), table, [], rows.slice(i, i + ROWS_PER_SLICE));
  }
}
