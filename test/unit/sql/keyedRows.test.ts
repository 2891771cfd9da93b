import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { SqlValue } from 'sql.js';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { writeKeyedRows, writeKeyedRowsInSlices } from '../../../src/core/sql/keyedRows';
import { openPersistentDatabase } from '../../../src/core/sql/persistentDatabase';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { SqlDatabase } from '../../../src/core/sql/sqlDatabase';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';

/**
 * A load's per-file tables (fingerprints, folder listings) are written as the difference from
 * what they held; at a load's end, in slices, the host given its turns between them. Written in
 * slices or at once, the table ends the same.
 */
describe('keyed rows written at once or in slices (keyedRows)', () => {
  let engine: SqlEngine;
  before(async () => {
    engine = await loadSqlEngine();
  });

  const TABLE = { name: 'items', key: 'k', columns: ['k', 'v'] } as const;

  async function table(initial: ReadonlyArray<[string, number]>): Promise<SqlDatabase> {
    const opened = await openPersistentDatabase({
      engine,
      store: new MemoryByteStore(),
      key: 'x.db',
      schemaVersion: 'test/1',
      logger: new MemoryLogger(),
      createSchema: (db) => db.exec('CREATE TABLE items (k TEXT PRIMARY KEY, v INTEGER NOT NULL)'),
    });
    writeKeyedRows(
      opened.db,
      TABLE,
      [],
      initial.map(([k, v]) => [k, v]),
    );
    return opened.db;
  }

  const contents = (db: SqlDatabase) => db.arrays('SELECT k, v FROM items ORDER BY k');

  it('ends with the same rows as one write, and gives the host a turn between every few hundred rows', async () => {
    const keys = fc.stringMatching(/^[a-z]{1,3}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(keys, fc.integer()), { selector: ([k]) => k, maxLength: 800 }),
        fc.uniqueArray(keys, { maxLength: 300 }),
        fc.uniqueArray(fc.tuple(keys, fc.integer()), { selector: ([k]) => k, maxLength: 1200 }),
        async (initial, others, rows) => {
          // Gone: every other key the table holds, and keys it does not.
          const gone = [...new Set([...initial.filter((_, i) => i % 2 === 0).map(([k]) => k), ...others])];
          const atOnce = await table(initial);
          const sliced = await table(initial);
          writeKeyedRows(atOnce, TABLE, gone, rows as SqlValue[][]);
          let turns = 0;
          await writeKeyedRowsInSlices(() => sliced, TABLE, gone, rows as SqlValue[][], { pause: async () => void turns++ });
          assert.deepEqual(contents(sliced), contents(atOnce));
          assert.ok(turns >= Math.floor(gone.length / 256) + Math.floor(rows.length / 256), `${turns} turns for ${gone.length} gone and ${rows.length} rows`);
          atOnce.close();
          sliced.close();
        },
      ),
      { numRuns: 30 },
    );
  });
});
