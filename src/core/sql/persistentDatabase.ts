import type { ByteStore, Clock, Logger } from '../platform/ports';
import type { SqlEngine } from './sqlEngine';
import { SqlDatabase } from './sqlDatabase';

export interface OpenDatabaseOptions {
  engine: SqlEngine;
  store: ByteStore;
  /** Storage key, e.g. `tools.db`. */
  key: string;
  /**
   * Schema identity stored in the database. Include the FTS engine in it (e.g. `tools/3/fts4`)
   * so a database made by another build is rebuilt rather than misread.
   */
  schemaVersion: string;
  /** Creates tables, indexes and triggers on a fresh database. */
  createSchema(db: SqlDatabase): void;
  logger: Logger;
  clock?: Clock;
  /** Start from an empty database regardless of what is stored (e.g. rebuild-on-init). */
  forceRebuild?: boolean;
}

export type OpenStatus = 'created' | 'loaded' | 'rebuilt';

export interface PersistentDatabase {
  readonly db: SqlDatabase;
  /** `created`: nothing stored; `loaded`: stored bytes used; `rebuilt`: stored bytes rejected. */
  readonly status: OpenStatus;
  /** Why the stored database was rejected (for the log and the UI). */
  readonly rebuildReason?: string;
  /** Key under which a corrupt file was kept aside, if any. */
  readonly backupKey?: string;
  /** Writes the current bytes atomically through the ByteStore. */
  save(): Promise<void>;
  close(): void;
}

const META_TABLE = 'toolshed_meta';

/**
 * Opens a sql.js database persisted through a ByteStore.
 *
 * A stored file that is not a database, fails `PRAGMA quick_check`, or carries another schema
 * version is never used half-way: corrupt bytes are moved aside to `<key>.corrupt-<time>` (so
 * nothing is lost) and a fresh database is created, with the reason logged and returned.
 */
export async function openPersistentDatabase(options: OpenDatabaseOptions): Promise<PersistentDatabase> {
  const { engine, store, key, logger } = options;
  const now = (options.clock ?? { now: () => Date.now() }).now();
  let status: OpenStatus = 'created';
  let rebuildReason: string | undefined;
  let backupKey: string | undefined;

  let db: SqlDatabase | undefined;
  const stored = options.forceRebuild ? undefined : await store.read(key);
  if (options.forceRebuild) {
    status = 'rebuilt';
    rebuildReason = 'rebuild requested';
  } else if (stored && stored.byteLength > 0) {
    const verdict = tryLoad(engine, stored, options.schemaVersion);
    if (verdict.ok) {
      db = verdict.db;
      status = 'loaded';
    } else {
      status = 'rebuilt';
      rebuildReason = verdict.reason;
      if (verdict.corrupt) {
        backupKey = `${key}.corrupt-${now}`;
        await store.rename(key, backupKey);
      }
      logger.warn(`Database "${key}" rebuilt: ${verdict.reason}${backupKey ? ` (old file kept as "${backupKey}")` : ''}`);
    }
  }

  if (!db) {
    db = new SqlDatabase(new engine.sql.Database());
    db.exec(`CREATE TABLE ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    db.run(`INSERT INTO ${META_TABLE} (key, value) VALUES ('schema_version', ?)`, [options.schemaVersion]);
    options.createSchema(db);
  }

  const opened = db;
  return {
    db: opened,
    status,
    rebuildReason,
    backupKey,
    save: () => store.write(key, opened.export()),
    close: () => opened.close(),
  };
}

type LoadVerdict = { ok: true; db: SqlDatabase } | { ok: false; corrupt: boolean; reason: string };

function tryLoad(engine: SqlEngine, bytes: Uint8Array, schemaVersion: string): LoadVerdict {
  let db: SqlDatabase | undefined;
  try {
    db = new SqlDatabase(new engine.sql.Database(bytes));
    const check = db.get<{ quick_check: string }>('PRAGMA quick_check');
    if (!check || check.quick_check !== 'ok') {
      db.close();
      return { ok: false, corrupt: true, reason: `integrity check failed (${check?.quick_check ?? 'no answer'})` };
    }
    const hasMeta = db.get(`SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = ?`, [META_TABLE]);
    const meta = hasMeta ? db.get<{ value: string }>(`SELECT value FROM ${META_TABLE} WHERE key = 'schema_version'`) : undefined;
    if (!meta) {
      db.close();
      return { ok: false, corrupt: true, reason: 'not a Toolshed database (no schema version)' };
    }
    if (meta.value !== schemaVersion) {
      db.close();
      return { ok: false, corrupt: false, reason: `schema version "${meta.value}" differs from "${schemaVersion}"` };
    }
    return { ok: true, db };
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Closing a broken handle may throw too.
    }
    return { ok: false, corrupt: true, reason: `unreadable database (${error instanceof Error ? error.message : String(error)})` };
  }
}
