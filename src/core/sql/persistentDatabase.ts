import { hash } from 'node:crypto';
import type { ByteStore, Clock, Logger } from '../platform/ports';
import type { SqlEngine } from './sqlEngine';
import { SqlDatabase } from './sqlDatabase';
import { schemaDifference } from './schemaShape';
import { handOver, seededWithRoom } from './fileBytes';

/** Upgrades a stored database of version `from` to the current schema in place (rows kept). */
export interface Migration {
  from: string;
  migrate(db: SqlDatabase): void;
}

export interface OpenDatabaseOptions {
  engine: SqlEngine;
  store: ByteStore;
  /** Storage key, e.g. `tools.db`. */
  key: string;
  /**
   * Schema identity stored in the database (e.g. `skills/4`): a database of another version is
   * migrated (`migrations`) or rebuilt rather than misread.
   */
  schemaVersion: string;
  /** Creates tables, indexes and triggers on a fresh database. */
  createSchema(db: SqlDatabase): void;
  /** Older versions that can be upgraded in place instead of rebuilt (each to `schemaVersion`). */
  migrations?: readonly Migration[];
  /**
   * Reads what the owner will read on open (every row, say) and throws if it cannot: damage that
   * passes the integrity check is caught here, and the database is rebuilt instead of failing
   * on first use. It may return a promise: a check that reads a large database in slices, giving
   * the event loop a turn between them (the skill store's search mirror), is awaited. `written`:
   * the digest of the bytes when they are the ones this module last wrote or checked and were
   * not migrated (what derived data saved beside them may be keyed on), else undefined.
   */
  verify?(db: SqlDatabase, written: string | undefined): void | Promise<void>;
  /**
   * Runs, before `verify`, on stored bytes that are not the ones this module last wrote or checked
   * (see CHECKED_SUFFIX): damaged, written by something else, or cut between the file and its
   * digest. SQLite's check finds damage in its pages and indexes, not a changed byte inside a row,
   * so the owner forgets here what it derives from rows and cannot check, to derive it again. Such
   * bytes' digest is not recorded on open; the next `save` writes the database and its digest.
   */
  distrust?(db: SqlDatabase): void;
  logger: Logger;
  clock?: Clock;
  /** Start from an empty database regardless of what is stored (e.g. rebuild-on-init). */
  forceRebuild?: boolean;
  /**
   * `save` writes only when a row changed since the bytes were read or last written (SQLite's
   * `total_changes()`): a large store opened and left as it was is not copied out of sql.js and
   * rewritten. For owners whose every change is a row change (no schema made after opening that
   * must reach the file on its own).
   */
  saveOnlyChanges?: boolean;
  /**
   * For commands that only read (`toolshed ledger`): stored bytes that cannot be used are reported
   * (`status: 'rebuilt'`, `rebuildReason`) and left exactly where they are, and `save` refuses.
   */
  readOnly?: boolean;
  /**
   * Bytes of room a fresh database's file starts with (see `seededWithRoom`): for a store whose
   * first load writes tens of megabytes (the skill store), so its file is not grown by copies.
   */
  freshFileRoom?: number;
  /**
   * SQLite's page size for this store's file (default 4,096 bytes). A fresh database starts with
   * it, and a migrated one is rewritten whole at it (`VACUUM`, after the migration's transaction:
   * a migration that rebuilds a table leaves the old table's pages free, and the file would keep
   * them). Rows of one to two kilobytes leave a quarter of a 4 KB page unused, far less of an 8 KB one.
   */
  pageSize?: number;
}

/** Where a store keeps its database and what it reports to: what every store's `open` takes. */
export interface StoreDatabaseOptions {
  engine: SqlEngine;
  store: ByteStore;
  logger: Logger;
  clock?: Clock;
  /** Storage key (default: the store's own file name). */
  key?: string;
  /** Read without ever writing or moving the stored file (see `OpenDatabaseOptions.readOnly`). */
  readOnly?: boolean;
}

/** The part of opening that is the store's own: its schema, migrations, check and rebuild flag. */
export type StoreSchemaOptions = Omit<OpenDatabaseOptions, keyof StoreDatabaseOptions>;

/** Opens a store's database at `where` (under `defaultKey` unless it names a key) with the store's schema. */
export function openStoreDatabase(where: StoreDatabaseOptions, defaultKey: string, schema: StoreSchemaOptions): Promise<PersistentDatabase> {
  return openPersistentDatabase({
    ...schema,
    engine: where.engine,
    store: where.store,
    key: where.key ?? defaultKey,
    logger: where.logger,
    clock: where.clock,
    readOnly: where.readOnly,
  });
}

type OpenStatus = 'created' | 'loaded' | 'migrated' | 'rebuilt';

export interface PersistentDatabase {
  readonly db: SqlDatabase;
  /**
   * `created`: nothing stored; `loaded`: stored bytes used; `migrated`: stored bytes upgraded
   * from an older schema, rows kept; `rebuilt`: stored bytes rejected.
   */
  readonly status: OpenStatus;
  /** Why the stored database was rejected or migrated (for the log and the UI). */
  readonly rebuildReason?: string;
  /** Key under which a rejected file was kept aside (`.corrupt-<time>`, or `.newer-<time>` for a newer schema), if any. */
  readonly backupKey?: string;
  /** Writes the current bytes atomically through the ByteStore. */
  save(): Promise<void>;
  /** Whether `save` would write: rows changed since the bytes were read or written (always, without `saveOnlyChanges`). */
  readonly unsaved: boolean;
  /**
   * The digest (see CHECKED_SUFFIX) of the stored bytes when this database is them: the bytes
   * `save` last wrote, or those opened as last written; undefined otherwise (created, migrated,
   * rebuilt, distrusted, not yet saved).
   */
  readonly writtenDigest: string | undefined;
  close(): void;
}

const META_TABLE = 'toolshed_meta';

/**
 * Beside each database, the SHA-256 of the bytes this module last wrote there or checked whole
 * (`<key>.checked`). `PRAGMA integrity_check` reads every page and cross-checks every index — a
 * quarter of a second for a 28 MB skill store, a fifth of a warm start — and finds nothing in bytes
 * SQLite itself wrote: bytes that match the digest skip it. Any other bytes (damaged, written by
 * something else, an older build's file without a digest, a write cut between the file and its
 * digest) are checked whole as before, and handed to the owner's `distrust`. The owner's `verify`
 * runs either way.
 */
const CHECKED_SUFFIX = '.checked';

function digestOf(bytes: Uint8Array): string {
  return hash('sha256', bytes, 'hex');
}

/** The digest kept beside `key`, or undefined when there is none or it cannot be read. */
async function readDigest(store: ByteStore, key: string): Promise<string | undefined> {
  try {
    const bytes = await store.read(key + CHECKED_SUFFIX);
    return bytes && bytes.byteLength <= 128 ? new TextDecoder().decode(bytes) : undefined;
  } catch {
    return undefined;
  }
}

/** Records `digest` beside `key`; a failure only costs the next open a whole check. */
async function writeDigest(store: ByteStore, key: string, digest: string): Promise<void> {
  try {
    await store.write(key + CHECKED_SUFFIX, new TextEncoder().encode(digest));
  } catch {
    // The next open checks the file whole.
  }
}

/** Writes a database's bytes, then their digest (the digest never names bytes that are not there); returns the digest. */
async function writeChecked(store: ByteStore, key: string, bytes: Uint8Array): Promise<string> {
  await store.write(key, bytes);
  const digest = digestOf(bytes);
  await writeDigest(store, key, digest);
  return digest;
}

/** A value an owner keeps in the database's own key/value table (beside its schema version). */
export function metaValue(db: SqlDatabase, key: string): string | undefined {
  return db.get<{ value: string }>(`SELECT value FROM ${META_TABLE} WHERE key = ?`, [key])?.value;
}

/** Sets a value in the database's own key/value table (in the caller's transaction, if any). */
export function setMetaValue(db: SqlDatabase, key: string, value: string): void {
  db.run(`INSERT INTO ${META_TABLE} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, [key, value]);
}

/**
 * Opens a sql.js database persisted through a ByteStore.
 *
 * Whatever is stored, this ends with a working database and never throws for the stored bytes:
 * a key that cannot be read (a folder, a FIFO, no permission), bytes that are not a database,
 * fail `PRAGMA integrity_check`, lack a table or column of the schema, fail the owner's
 * `verify`, or carry an unknown schema version are never used half-way. Rejected bytes are moved
 * aside (nothing is lost: a newer build's file, after a downgrade, to `<key>.newer-<time>`, any
 * other to `<key>.corrupt-<time>`), a fresh database is created, and the reason is logged once as
 * a warning and returned. A known older version is migrated in place. `readOnly` never moves or
 * writes anything.
 */
export async function openPersistentDatabase(options: OpenDatabaseOptions): Promise<PersistentDatabase> {
  const { store, key, logger } = options;
  const now = (options.clock ?? { now: () => Date.now() }).now();
  let status: OpenStatus = 'created';
  let rebuildReason: string | undefined;
  let backupKey: string | undefined;
  /** The owner's `distrust` ran: the database differs from the stored bytes, which it must replace. */
  let distrusted = false;
  /** The stored bytes' digest when they were opened as last written, unmigrated. */
  let writtenDigest: string | undefined;

  let db: SqlDatabase | undefined;
  if (options.forceRebuild) {
    status = 'rebuilt';
    rebuildReason = 'rebuild requested';
  } else {
    const stored = await readStored(store, key);
    if (!stored.ok || stored.held.size > 0) {
      const digest = stored.ok && stored.held.bytes ? digestOf(stored.held.bytes) : undefined;
      const written = digest !== undefined && digest === (await readDigest(store, key));
      const verdict = stored.ok ? await tryLoad(stored.held, options, written ? digest : undefined) : { ok: false as const, reason: stored.reason };
      if (verdict.ok) {
        db = verdict.db;
        status = verdict.migratedFrom ? 'migrated' : 'loaded';
        distrusted = !written && options.distrust !== undefined;
        if (written && !verdict.migratedFrom) writtenDigest = digest;
        // Checked whole and used as they are: the next open need not check these bytes again.
        if (!written && !distrusted && !verdict.migratedFrom && digest !== undefined && !options.readOnly) await writeDigest(store, key, digest);
        if (verdict.migratedFrom) {
          rebuildReason = `migrated from schema "${verdict.migratedFrom}"`;
          logger.info(`Database "${key}" ${rebuildReason} to "${options.schemaVersion}"; every row kept.`);
        }
      } else {
        status = 'rebuilt';
        rebuildReason = verdict.reason;
        if (options.readOnly) {
          logger.warn(`Database "${key}" cannot be read: ${verdict.reason} (left as it is)`);
        } else {
          backupKey = await moveAside(store, key, `${key}.${verdict.newer ? 'newer' : 'corrupt'}-${now}`);
          logger.warn(`Database "${key}" rebuilt: ${verdict.reason}${backupKey ? ` (old file kept as "${backupKey}")` : ''}`);
        }
      }
    }
  }

  if (!db) db = createFresh(options);
  journalInMemory(db);

  const opened = db;
  const changes = () => opened.get<{ n: number }>('SELECT total_changes() AS n')?.n ?? -1;
  // Bytes that are not on disk yet (created, migrated, rebuilt, distrusted) are always written the first time.
  let savedAt = options.saveOnlyChanges && status === 'loaded' && !distrusted ? changes() : -1;
  return {
    db: opened,
    status,
    rebuildReason,
    backupKey,
    save: async () => {
      if (options.readOnly) throw new Error(`Database "${key}" was opened read-only.`);
      if (options.saveOnlyChanges) {
        if (changes() === savedAt) return;
        const bytes = opened.export();
        // Counted after the export (some sql.js builds reopen the database there, restarting the
        // count) and before the write's wait, so a change made meanwhile is saved next time.
        const at = changes();
        writtenDigest = undefined;
        writtenDigest = await writeChecked(store, key, bytes);
        savedAt = at;
        return;
      }
      writtenDigest = undefined;
      writtenDigest = await writeChecked(store, key, opened.export());
    },
    get unsaved() {
      return !options.saveOnlyChanges || changes() !== savedAt;
    },
    get writtenDigest() {
      return writtenDigest;
    },
    close: () => opened.close(),
  };
}

/**
 * SQLite's rollback journal kept in memory, not as a file. sql.js's files live in JavaScript
 * arrays (its in-memory file system), so every write transaction made a journal file, grew it by
 * reallocating and copying it, and deleted it: a cold load of 10,000 real skills allocated 216 MB
 * of such garbage. The database itself is in memory too (only `save` writes the file, whole,
 * after a commit), so nothing a file journal protects against is lost; rollback and savepoints
 * work as before. A build that refuses keeps the file journal.
 */
function journalInMemory(db: SqlDatabase): void {
  try {
    db.exec('PRAGMA journal_mode = MEMORY');
  } catch {
    // The file journal still works.
  }
}

function createFresh(options: OpenDatabaseOptions): SqlDatabase {
  const { sql } = options.engine;
  const seed = options.freshFileRoom || options.pageSize ? emptyDatabaseBytes(options.engine, options.pageSize ?? DEFAULT_PAGE_SIZE) : undefined;
  const db = new SqlDatabase(seed ? new sql.Database(options.freshFileRoom ? seededWithRoom(seed, options.freshFileRoom) : seed) : new sql.Database());
  db.exec(`CREATE TABLE ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  db.run(`INSERT INTO ${META_TABLE} (key, value) VALUES ('schema_version', ?)`, [options.schemaVersion]);
  options.createSchema(db);
  return db;
}

/** SQLite's page size where a store names none. */
const DEFAULT_PAGE_SIZE = 4096;

/** The file of an empty database (its header page), made once per engine and page size. */
const emptyDatabases = new WeakMap<SqlEngine, Map<number, Uint8Array>>();

function emptyDatabaseBytes(engine: SqlEngine, pageSize: number): Uint8Array {
  let bySize = emptyDatabases.get(engine);
  if (!bySize) emptyDatabases.set(engine, (bySize = new Map()));
  let bytes = bySize.get(pageSize);
  if (!bytes) {
    const db = new engine.sql.Database();
    try {
      // A database SQLite has written nothing to is a file of no bytes, which sql.js keeps no storage for: one write makes the header page.
      db.run(`PRAGMA page_size = ${Math.trunc(pageSize)}`);
      db.run('PRAGMA user_version = 0');
      bytes = db.export();
    } finally {
      db.close();
    }
    bySize.set(pageSize, bytes);
  }
  // sql.js's file system copies what it is given (or `seededWithRoom` does): the kept bytes stay as they are.
  return bytes;
}

/**
 * Rewrites a migrated database whole (`VACUUM`), at `pageSize` when given: no page left free by
 * the migration, every page full. Runs outside any transaction, before the in-memory journal is
 * set (`journalInMemory`): the journal and VACUUM's temporary copy are files of sql.js's file
 * system, freed once done, not WebAssembly memory, which never shrinks.
 */
function compact(db: SqlDatabase, pageSize: number | undefined): void {
  try {
    if (pageSize !== undefined) db.run(`PRAGMA page_size = ${Math.trunc(pageSize)}`);
    db.exec('VACUUM');
  } catch {
    // The migrated rows are all there; only the file is larger than it need be.
  }
}

/**
 * The stored file's bytes, held only until sql.js has its own copy of them (its in-memory file
 * system copies what it is given): the database's owner then reads it whole (`verify`, the
 * skill store's search mirror), and the read bytes — as large as the store, 30 MB at 10,000
 * skills — are garbage from the start of that instead of staying reachable through it.
 */
interface HeldBytes {
  bytes: Uint8Array | undefined;
  readonly size: number;
}

type StoredBytes = { ok: true; held: HeldBytes } | { ok: false; reason: string };

async function readStored(store: ByteStore, key: string): Promise<StoredBytes> {
  try {
    const bytes = (await store.read(key)) ?? new Uint8Array();
    return { ok: true, held: { bytes, size: bytes.byteLength } };
  } catch (error) {
    return { ok: false, reason: `stored file cannot be read (${messageOf(error)})` };
  }
}

/** Moves damaged bytes aside; if even that fails, deletes them so a fresh file can be written. */
async function moveAside(store: ByteStore, key: string, backupKey: string): Promise<string | undefined> {
  try {
    await store.rename(key, backupKey);
    return backupKey;
  } catch {
    await store.delete(key).catch(() => undefined);
    return undefined;
  }
}

type LoadVerdict = { ok: true; db: SqlDatabase; migratedFrom?: string } | { ok: false; newer?: boolean; reason: string };

/** Whether `stored` is a later version of the same schema (`ledger/4` for `ledger/3`): written by a newer build. */
function isNewerSchema(stored: string, current: string): boolean {
  const parse = (version: string) => /^(.*?)\/(\d+)(.*)$/.exec(version);
  const a = parse(stored);
  const b = parse(current);
  return Boolean(a && b && a[1] === b[1] && Number(a[2]) > Number(b[2]));
}

/** A database on the held bytes, which it gives up (see HeldBytes): sql.js keeps them as its file. */
function databaseOf(held: HeldBytes, engine: SqlEngine): SqlDatabase {
  const bytes = held.bytes ?? new Uint8Array();
  held.bytes = undefined;
  return new SqlDatabase(new engine.sql.Database(handOver(bytes)));
}

/** `written`: the bytes' digest when they are the ones this module last wrote or checked (it matches), so SQLite's whole check is skipped. */
async function tryLoad(held: HeldBytes, options: OpenDatabaseOptions, written: string | undefined): Promise<LoadVerdict> {
  let db: SqlDatabase | undefined;
  const reject = (reason: string, newer = false): LoadVerdict => {
    closeQuietly(db);
    return { ok: false, newer, reason };
  };
  try {
    db = databaseOf(held, options.engine);
    // A damaged header can leave a database that reads fine but refuses every write (byte 18, the
    // file format's write version, above 2): the store would fail at its first save. A write rolled
    // back at once proves it takes writes. It comes first: ending that transaction rewrites the
    // header, and damage it then exposes (a wrong page count with a stale change counter beside a
    // damaged page) is what the checks below must see, not the store's first read.
    const probe = db;
    try {
      probe.run('SAVEPOINT toolshed_write_probe');
      probe.run('CREATE TABLE toolshed_write_probe (x)');
      probe.run('ROLLBACK TO toolshed_write_probe');
      probe.run('RELEASE toolshed_write_probe');
    } catch (error) {
      return reject(`database refuses writes (${messageOf(error)})`);
    }
    // integrity_check (not quick_check): it also cross-checks indexes against their tables.
    const check = written ? { integrity_check: 'ok' } : db.get<{ integrity_check: string }>('PRAGMA integrity_check(1)');
    if (!check || check.integrity_check !== 'ok') return reject(`integrity check failed (${check?.integrity_check ?? 'no answer'})`);
    const hasMeta = db.get(`SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = ?`, [META_TABLE]);
    const meta = hasMeta ? db.get<{ value: string }>(`SELECT value FROM ${META_TABLE} WHERE key = 'schema_version'`) : undefined;
    if (!meta) return reject('not a Toolshed database (no schema version)');
    let migratedFrom: string | undefined;
    if (meta.value !== options.schemaVersion) {
      const migration = options.migrations?.find((m) => m.from === meta.value);
      if (!migration) {
        return isNewerSchema(meta.value, options.schemaVersion)
          ? reject(`written by a newer version of Toolshed (schema "${meta.value}"; this one reads "${options.schemaVersion}")`, true)
          : reject(`schema version "${meta.value}" differs from "${options.schemaVersion}"`);
      }
      const target = db;
      try {
        target.transaction(() => {
          migration.migrate(target);
          target.run(`UPDATE ${META_TABLE} SET value = ? WHERE key = 'schema_version'`, [options.schemaVersion]);
        });
      } catch (error) {
        return reject(`migration from schema "${meta.value}" failed (${messageOf(error)})`);
      }
      migratedFrom = meta.value;
      compact(db, options.pageSize);
    }
    const difference = schemaDifference(db, (fresh) => options.createSchema(fresh), options.engine);
    if (difference) return reject(`schema damaged: ${difference}`);
    if (!written) options.distrust?.(db);
    await options.verify?.(db, migratedFrom === undefined ? written : undefined);
    return { ok: true, db, migratedFrom };
  } catch (error) {
    return reject(`unreadable database (${messageOf(error)})`);
  }
}

function closeQuietly(db: SqlDatabase | undefined): void {
  try {
    db?.close();
  } catch {
    // Closing a broken handle may throw too.
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
