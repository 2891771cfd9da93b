import { strict as assert } from 'node:assert';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { seededWithRoom } from '../../../src/core/sql/fileBytes';
import { openPersistentDatabase } from '../../../src/core/sql/persistentDatabase';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';

describe('A fresh database whose file starts with room (freshFileRoom)', () => {
  let engine: SqlEngine;
  before(async () => {
    engine = await loadSqlEngine();
  });

  const open = (store: MemoryByteStore, freshFileRoom?: number) =>
    openPersistentDatabase({
      engine,
      store,
      key: 'x.db',
      schemaVersion: 'test/1',
      logger: new MemoryLogger(),
      createSchema: (db) => db.exec('CREATE TABLE items (n INTEGER PRIMARY KEY, v TEXT)'),
      freshFileRoom,
    });

  /** Rows of about 1 KB each: 300 of them are ≈ 300 KB, past a 64 KB room. */
  const rows = (count: number) => Array.from({ length: count }, (_, n) => ({ n, v: `${n}:${'x'.repeat(1000)}` }));

  it('stores, saves and loads the same rows as a database without room, within its room and past it', async () => {
    for (const count of [3, 300]) {
      const loaded: unknown[] = [];
      for (const room of [undefined, 64 * 1024, 32 << 20]) {
        const store = new MemoryByteStore();
        const created = await open(store, room);
        assert.equal(created.status, 'created');
        created.db.transaction(() => {
          for (const row of rows(count)) created.db.run('INSERT INTO items (n, v) VALUES (?, ?)', [row.n, row.v]);
        });
        await created.save();
        created.close();
        const reopened = await open(store, room);
        assert.equal(reopened.status, 'loaded');
        assert.equal(reopened.db.get<{ integrity_check: string }>('PRAGMA integrity_check')?.integrity_check, 'ok');
        loaded.push(reopened.db.all('SELECT n, v FROM items ORDER BY n'));
        reopened.close();
      }
      assert.deepEqual(loaded[0], rows(count));
      assert.deepEqual(loaded[1], loaded[0]);
      assert.deepEqual(loaded[2], loaded[0]);
    }
  });

  it("keeps the file in the room it was given: SQLite's writes land there, not in a grown copy", () => {
    const empty = new engine.sql.Database();
    empty.run('PRAGMA user_version = 0');
    const seed = empty.export();
    empty.close();
    const file = seededWithRoom(seed, 4 << 20);
    const db = new engine.sql.Database(file);
    db.run('CREATE TABLE items (n INTEGER PRIMARY KEY, v TEXT)');
    db.run('BEGIN');
    for (const row of rows(1500)) db.run('INSERT INTO items (n, v) VALUES (?, ?)', [row.n, row.v]);
    db.run('COMMIT');
    // sql.js exports a copy made with SQLite's backup: the same pages, page 1's header counters apart.
    const bytes = db.export();
    db.close();
    assert.ok(bytes.length > 1 << 20, `a file of ${bytes.length} bytes`);
    const header = 100;
    assert.ok(Buffer.from(file.buffer, header, bytes.length - header).equals(Buffer.from(bytes.buffer, bytes.byteOffset + header, bytes.length - header)));
  });
});
