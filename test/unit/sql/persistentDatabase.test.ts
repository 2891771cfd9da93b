import { strict as assert } from 'node:assert';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { openPersistentDatabase } from '../../../src/core/sql/persistentDatabase';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';
import type { SqlDatabase } from '../../../src/core/sql/sqlDatabase';

describe('openPersistentDatabase', () => {
  let engine: SqlEngine;
  before(async () => {
    engine = await loadSqlEngine();
  });

  const open = (store: MemoryByteStore, logger: MemoryLogger, schemaVersion = 'test/1', forceRebuild = false) =>
    openPersistentDatabase({
      engine,
      store,
      key: 'x.db',
      schemaVersion,
      logger,
      clock: { now: () => 42 },
      forceRebuild,
      createSchema: (db) => db.exec('CREATE TABLE items (v TEXT)'),
    });

  async function storedWithRow(): Promise<MemoryByteStore> {
    const store = new MemoryByteStore();
    const pdb = await open(store, new MemoryLogger());
    pdb.db.run('INSERT INTO items (v) VALUES (?)', ['kept']);
    await pdb.save();
    pdb.close();
    return store;
  }

  it('creates, saves and loads', async () => {
    const store = await storedWithRow();
    const logger = new MemoryLogger();
    const pdb = await open(store, logger);
    assert.equal(pdb.status, 'loaded');
    assert.equal(pdb.db.get<{ v: string }>('SELECT v FROM items')?.v, 'kept');
    pdb.close();
  });

  const corruptions: Array<[string, (bytes: Uint8Array) => Uint8Array]> = [
    ['garbage', () => new TextEncoder().encode('this is not a database at all, just text '.repeat(200))],
    ['truncated', (bytes) => bytes.slice(0, Math.floor(bytes.length / 2) + 7)],
    [
      'flipped page bytes',
      (bytes) => {
        const copy = bytes.slice();
        for (let i = 100; i < copy.length; i += 97) copy[i] ^= 0xff;
        return copy;
      },
    ],
    [
      // Reads fine and passes the integrity check, but refuses every write.
      'read-only header (write version 3)',
      (bytes) => {
        const copy = bytes.slice();
        copy[18] = 3;
        return copy;
      },
    ],
    [
      'random header',
      (bytes) => {
        const copy = bytes.slice();
        copy.set(new Uint8Array(16).fill(7), 0);
        return copy;
      },
    ],
  ];
  for (const [label, corrupt] of corruptions) {
    it(`rebuilds a ${label} file, keeps the old bytes aside and logs why`, async () => {
      const store = await storedWithRow();
      const original = corrupt((await store.read('x.db'))!);
      await store.write('x.db', original);
      const logger = new MemoryLogger();
      const pdb = await open(store, logger);
      assert.equal(pdb.status, 'rebuilt');
      assert.ok(pdb.rebuildReason && pdb.rebuildReason.length > 0);
      assert.equal(pdb.backupKey, 'x.db.corrupt-42');
      assert.deepEqual(await store.read('x.db.corrupt-42'), original);
      assert.ok(logger.lines.some((l) => l.level === 'warn' && l.message.includes('rebuilt') && l.message.includes('x.db.corrupt-42')));
      assert.equal(pdb.db.get<{ n: number }>('SELECT count(*) AS n FROM items')?.n, 0);
      await pdb.save();
      pdb.close();
      assert.equal((await open(store, new MemoryLogger())).status, 'loaded');
    });
  }

  it('a file of a newer schema (a downgrade) is moved aside with every row, never overwritten, and the warning says where it is', async () => {
    const store = new MemoryByteStore();
    const newer = await open(store, new MemoryLogger(), 'test/3');
    newer.db.run('INSERT INTO items (v) VALUES (?)', ['written by the newer build']);
    await newer.save();
    newer.close();
    const written = (await store.read('x.db'))!;

    const logger = new MemoryLogger();
    const pdb = await open(store, logger, 'test/2');
    assert.equal(pdb.status, 'rebuilt');
    assert.match(pdb.rebuildReason!, /written by a newer version of Toolshed \(schema "test\/3"; this one reads "test\/2"\)/);
    assert.equal(pdb.backupKey, 'x.db.newer-42');
    assert.deepEqual(await store.read('x.db.newer-42'), written, 'the newer file is kept byte for byte');
    const warning = logger.lines.find((l) => l.level === 'warn');
    assert.ok(warning?.message.includes('x.db.newer-42'), JSON.stringify(logger.lines));
    await pdb.save();
    pdb.close();
    assert.deepEqual(await store.read('x.db.newer-42'), written, 'saving the fresh database leaves the kept copy alone');
  });

  it('a file of an unknown other schema (no migration) is moved aside too', async () => {
    const store = await storedWithRow();
    const original = (await store.read('x.db'))!;
    const logger = new MemoryLogger();
    const pdb = await open(store, logger, 'other/1');
    assert.equal(pdb.status, 'rebuilt');
    assert.match(pdb.rebuildReason!, /schema version "test\/1" differs from "other\/1"/);
    assert.equal(pdb.backupKey, 'x.db.corrupt-42');
    assert.deepEqual(await store.read('x.db.corrupt-42'), original);
    assert.ok(logger.lines.some((l) => l.level === 'warn' && l.message.includes('x.db.corrupt-42')));
    pdb.close();
  });

  it('readOnly: a file it cannot use is reported and left exactly where it was; nothing is ever written', async () => {
    for (const version of ['test/3', 'garbage']) {
      const store = version === 'garbage' ? new MemoryByteStore() : await storedWithRow();
      if (version === 'garbage') await store.write('x.db', new TextEncoder().encode('not a database '.repeat(100)));
      else {
        const newer = await open(store, new MemoryLogger(), version);
        await newer.save();
        newer.close();
      }
      const before = new Map(store.entries);
      const pdb = await openPersistentDatabase({
        engine,
        store,
        key: 'x.db',
        schemaVersion: 'test/2',
        logger: new MemoryLogger(),
        clock: { now: () => 42 },
        readOnly: true,
        createSchema: (db) => db.exec('CREATE TABLE items (v TEXT)'),
      });
      assert.equal(pdb.status, 'rebuilt', version);
      assert.equal(pdb.backupKey, undefined);
      await assert.rejects(pdb.save(), /read-only/);
      pdb.close();
      assert.deepEqual(store.entries, before, `${version}: the store is untouched`);
    }
  });

  it('treats a foreign SQLite database as corrupt for our purposes', async () => {
    const store = new MemoryByteStore();
    const foreign = new engine.sql.Database();
    foreign.run('CREATE TABLE other (x)');
    await store.write('x.db', foreign.export());
    foreign.close();
    const pdb = await open(store, new MemoryLogger());
    assert.equal(pdb.status, 'rebuilt');
    assert.match(pdb.rebuildReason!, /not a Toolshed database/);
    assert.ok(pdb.backupKey);
    pdb.close();
  });

  it('migrates a known older version in place, keeping its rows; a failing migration rebuilds with a backup', async () => {
    const store = await storedWithRow();
    const migrate = (sql: string) =>
      openPersistentDatabase({
        engine,
        store,
        key: 'x.db',
        schemaVersion: 'test/2',
        logger: new MemoryLogger(),
        clock: { now: () => 42 },
        createSchema: (db) => db.exec('CREATE TABLE items (v TEXT, w TEXT)'),
        migrations: [{ from: 'test/1', migrate: (db) => db.exec(sql) }],
      });
    const failing = await migrate('ALTER TABLE nowhere ADD COLUMN w TEXT');
    assert.equal(failing.status, 'rebuilt');
    assert.match(failing.rebuildReason!, /migration from schema "test\/1" failed/);
    assert.equal(failing.backupKey, 'x.db.corrupt-42');
    failing.close();
    await store.rename('x.db.corrupt-42', 'x.db');
    const logger = new MemoryLogger();
    const pdb = await openPersistentDatabase({
      engine,
      store,
      key: 'x.db',
      schemaVersion: 'test/2',
      logger,
      clock: { now: () => 42 },
      createSchema: (db) => db.exec('CREATE TABLE items (v TEXT, w TEXT)'),
      migrations: [{ from: 'test/1', migrate: (db) => db.exec("ALTER TABLE items ADD COLUMN w TEXT DEFAULT 'new'") }],
    });
    assert.equal(pdb.status, 'migrated');
    assert.deepEqual(pdb.db.all('SELECT v, w FROM items'), [{ v: 'kept', w: 'new' }]);
    assert.equal(logger.lines.filter((l) => l.level === 'warn').length, 0);
    pdb.close();
  });

  it('a page size: a fresh file starts with it, and a migrated one is rewritten whole at it with no page left free', async () => {
    const pageSize = (pdb: { db: SqlDatabase }) => pdb.db.get<{ page_size: number }>('PRAGMA page_size')?.page_size;
    const fresh = await openPersistentDatabase({
      engine,
      store: new MemoryByteStore(),
      key: 'x.db',
      schemaVersion: 'test/1',
      logger: new MemoryLogger(),
      createSchema: (db) => db.exec('CREATE TABLE items (v TEXT)'),
      pageSize: 8192,
    });
    assert.equal(pageSize(fresh), 8192);
    fresh.close();
    const store = await storedWithRow();
    const before = await open(store, new MemoryLogger());
    assert.equal(pageSize(before), 4096);
    before.close();
    const pdb = await openPersistentDatabase({
      engine,
      store,
      key: 'x.db',
      schemaVersion: 'test/2',
      logger: new MemoryLogger(),
      createSchema: (db) => db.exec('CREATE TABLE items (v TEXT, w TEXT)'),
      // Rebuilt under a new table, as a migration that changes a column's definition does: the old pages are left free.
      migrations: [
        {
          from: 'test/1',
          migrate: (db) => {
            db.exec("CREATE TABLE bulk (x TEXT); INSERT INTO bulk SELECT printf('%.2000c', 'x') FROM items, (SELECT 1 UNION SELECT 2 UNION SELECT 3);");
            db.exec("ALTER TABLE items RENAME TO old_items; CREATE TABLE items (v TEXT, w TEXT); INSERT INTO items SELECT v, 'new' FROM old_items;");
            db.exec('DROP TABLE old_items; DROP TABLE bulk;');
          },
        },
      ],
      pageSize: 8192,
    });
    assert.equal(pdb.status, 'migrated');
    assert.deepEqual(pdb.db.all('SELECT v, w FROM items'), [{ v: 'kept', w: 'new' }]);
    assert.equal(pageSize(pdb), 8192);
    assert.equal(pdb.db.get<{ freelist_count: number }>('PRAGMA freelist_count')?.freelist_count, 0);
    await pdb.save();
    pdb.close();
    assert.equal((await store.read('x.db'))!.byteLength % 8192, 0, 'the stored file is in 8 KB pages');
  });

  it('a right version stamp with a missing column, or a failing verify hook, is rebuilt with a backup', async () => {
    const store = await storedWithRow();
    const shaped = await openPersistentDatabase({
      engine,
      store,
      key: 'x.db',
      schemaVersion: 'test/1',
      logger: new MemoryLogger(),
      clock: { now: () => 42 },
      createSchema: (db) => db.exec('CREATE TABLE items (v TEXT, extra TEXT)'),
    });
    assert.equal(shaped.status, 'rebuilt');
    assert.match(shaped.rebuildReason!, /column "items\.extra" is missing/);
    shaped.close();
    const again = await storedWithRow();
    const verified = await openPersistentDatabase({
      engine,
      store: again,
      key: 'x.db',
      schemaVersion: 'test/1',
      logger: new MemoryLogger(),
      clock: { now: () => 42 },
      createSchema: (db) => db.exec('CREATE TABLE items (v TEXT)'),
      verify: () => {
        throw new Error('row 1 is damaged');
      },
    });
    assert.equal(verified.status, 'rebuilt');
    assert.match(verified.rebuildReason!, /row 1 is damaged/);
    verified.close();
  });

  it('a stored table whose declared column type changed (still valid SQL) is rebuilt: an id column would no longer be the row id', async () => {
    const schema = (db: SqlDatabase) => db.exec('CREATE TABLE terms (doc_id INTEGER PRIMARY KEY, v TEXT)');
    const options = { engine, key: 'x.db', schemaVersion: 'test/1', clock: { now: () => 42 }, createSchema: schema };
    const store = new MemoryByteStore();
    const first = await openPersistentDatabase({ ...options, store, logger: new MemoryLogger() });
    first.db.run('INSERT INTO terms (doc_id, v) VALUES (7, ?)', ['seven']);
    // What a flipped byte in sqlite_master can do: the text still parses ("INTEGER PRIMARZ KEY" is
    // a type name), the pages pass the integrity check, and doc_id is a plain column reading NULL.
    first.db.run('PRAGMA writable_schema = ON');
    first.db.run("UPDATE sqlite_master SET sql = replace(sql, 'INTEGER PRIMARY KEY', 'INTEGER PRIMARZ KEY') WHERE name = 'terms'");
    first.db.run('PRAGMA writable_schema = OFF');
    await first.save();
    first.close();
    const damaged = await openPersistentDatabase({ ...options, store, logger: new MemoryLogger() });
    assert.equal(damaged.status, 'rebuilt');
    assert.match(damaged.rebuildReason!, /column "terms\.doc_id" is declared "INTEGER PRIMARZ KEY", not "INTEGER PRIMARY KEY 1"/);
    damaged.close();
  });

  it("bytes it wrote itself skip SQLite's whole check (their digest is kept beside them); any other bytes are checked whole", async () => {
    // The engine as the store runs it, recording every statement prepared on a database.
    const prepared: string[] = [];
    const Base = engine.sql.Database;
    class Recording extends Base {
      override prepare(sql: string, params?: Parameters<InstanceType<typeof Base>['prepare']>[1]) {
        prepared.push(sql);
        return super.prepare(sql, params);
      }
    }
    const recording = { ...engine, sql: { ...engine.sql, Database: Recording } } as SqlEngine;
    const openRecorded = (store: MemoryByteStore) =>
      openPersistentDatabase({
        engine: recording,
        store,
        key: 'x.db',
        schemaVersion: 'test/1',
        logger: new MemoryLogger(),
        createSchema: (db) => db.exec('CREATE TABLE items (v TEXT)'),
      });
    const whole = () => prepared.filter((sql) => /integrity_check/.test(sql)).length;

    const store = await storedWithRow();
    assert.ok(await store.read('x.db.checked'), 'the save kept a digest beside the file');
    const mine = await openRecorded(store);
    assert.equal(mine.status, 'loaded');
    assert.equal(whole(), 0, 'bytes the store wrote are not checked whole again');
    assert.equal(mine.db.get<{ v: string }>('SELECT v FROM items')?.v, 'kept');
    mine.close();

    // The same rows written by something else (another byte layout): checked whole, then trusted.
    const other = new engine.sql.Database((await store.read('x.db'))!);
    other.run("INSERT INTO items (v) VALUES ('theirs')");
    await store.write('x.db', other.export());
    other.close();
    const theirs = await openRecorded(store);
    assert.equal(theirs.status, 'loaded');
    assert.equal(whole(), 1);
    theirs.close();
    const again = await openRecorded(store);
    assert.equal(whole(), 1, 'bytes checked whole once are trusted on the next open');
    again.close();

    // A damaged digest file only costs a whole check.
    await store.write('x.db.checked', new TextEncoder().encode('not a digest'));
    const damagedDigest = await openRecorded(store);
    assert.equal(damagedDigest.status, 'loaded');
    assert.equal(whole(), 2);
    assert.equal(damagedDigest.db.get<{ n: number }>('SELECT count(*) AS n FROM items')?.n, 2);
    damagedDigest.close();
  });

  it("the stored bytes read on open become sql.js's file as they are (no second copy of the store is made), and the stored file is untouched until a save", async () => {
    const inner = await storedWithRow();
    const stored = (await inner.read('x.db'))!;
    const handed: Uint8Array[] = [];
    const store = Object.assign(Object.create(inner) as MemoryByteStore, {
      read: async (key: string) => {
        const bytes = await inner.read(key);
        if (bytes && key === 'x.db') handed.push(bytes);
        return bytes;
      },
    });
    const pdb = await openPersistentDatabase({
      engine,
      store,
      key: 'x.db',
      schemaVersion: 'test/1',
      logger: new MemoryLogger(),
      createSchema: (db) => db.exec('CREATE TABLE items (v TEXT)'),
    });
    assert.equal(pdb.status, 'loaded');
    const read = handed[0]!;
    const before = read.slice();
    // Same length: the row's page is rewritten in place, in the file sql.js keeps.
    pdb.db.run("UPDATE items SET v = 'KEPT'");
    assert.notDeepEqual(read, before, 'the write went into the bytes that were read: they are the file, not a copy of it');
    assert.deepEqual(await inner.read('x.db'), stored, 'the stored file changes only on save');
    await pdb.save();
    pdb.close();
    const again = await open(inner, new MemoryLogger());
    assert.deepEqual(again.db.all('SELECT v FROM items'), [{ v: 'KEPT' }]);
    again.close();
  });

  it('forceRebuild ignores stored bytes', async () => {
    const store = await storedWithRow();
    const pdb = await open(store, new MemoryLogger(), 'test/1', true);
    assert.equal(pdb.status, 'rebuilt');
    assert.equal(pdb.rebuildReason, 'rebuild requested');
    pdb.close();
  });
});
