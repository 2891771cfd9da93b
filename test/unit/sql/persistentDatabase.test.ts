import { strict as assert } from 'node:assert';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { openPersistentDatabase } from '../../../src/core/sql/persistentDatabase';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';

describe('sql engine FTS detection', () => {
  it('detects fts4 on the published sql.js, and honours allowedFts', async () => {
    const full = await loadSqlEngine();
    assert.ok(full.fts === 'fts5' || full.fts === 'fts4');
    assert.equal((await loadSqlEngine({ allowedFts: ['fts4', 'none'] })).fts, 'fts4');
    assert.equal((await loadSqlEngine({ allowedFts: ['none'] })).fts, 'none');
    assert.equal((await loadSqlEngine({ allowedFts: ['fts5', 'none'] })).fts, full.fts === 'fts5' ? 'fts5' : 'none');
  });
});

describe('openPersistentDatabase', () => {
  let engine: SqlEngine;
  before(async () => { engine = await loadSqlEngine(); });

  const open = (store: MemoryByteStore, logger: MemoryLogger, schemaVersion = 'test/1', forceRebuild = false) =>
    openPersistentDatabase({
      engine, store, key: 'x.db', schemaVersion, logger, clock: { now: () => 42 }, forceRebuild,
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
    ['flipped page bytes', (bytes) => { const copy = bytes.slice(); for (let i = 100; i < copy.length; i += 97) copy[i] ^= 0xff; return copy; }],
    ['random header', (bytes) => { const copy = bytes.slice(); copy.set(new Uint8Array(16).fill(7), 0); return copy; }],
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

  it('rebuilds on a schema version mismatch (no backup: the file was healthy) and logs the reason', async () => {
    const store = await storedWithRow();
    const logger = new MemoryLogger();
    const pdb = await open(store, logger, 'test/2');
    assert.equal(pdb.status, 'rebuilt');
    assert.match(pdb.rebuildReason!, /schema version "test\/1" differs from "test\/2"/);
    assert.equal(pdb.backupKey, undefined);
    assert.ok(logger.lines.some((l) => l.level === 'warn' && l.message.includes('schema version')));
    pdb.close();
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

  it('forceRebuild ignores stored bytes', async () => {
    const store = await storedWithRow();
    const pdb = await open(store, new MemoryLogger(), 'test/1', true);
    assert.equal(pdb.status, 'rebuilt');
    assert.equal(pdb.rebuildReason, 'rebuild requested');
    pdb.close();
  });
});
