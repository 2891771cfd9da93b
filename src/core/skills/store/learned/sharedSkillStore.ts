import type { ByteStore, Clock, FileLock, Logger } from '../../../platform/ports';
import { openStoreDatabase } from '../../../sql/persistentDatabase';
import type { PersistentDatabase } from '../../../sql/persistentDatabase';
import type { SqlEngine } from '../../../sql/sqlEngine';
import { skillRecordSchema } from '../../skillSchema';
import type { SkillRecord } from '../../skillSchema';
import { identityKey } from '../skillScope';
import type { SkillIdentity } from '../skillScope';

/** File name of the shared store in the extension's global storage. */
export const SHARED_SKILLS_KEY = 'shared-skills.db';
/** Lock file beside it (see NodeFileLock). */
export const SHARED_SKILLS_LOCK = 'shared-skills.lock';

export interface SharedSkillStoreDeps {
  engine: SqlEngine;
  /** The global storage folder every window of the user shares. */
  bytes: ByteStore;
  lock: FileLock;
  logger: Logger;
  clock: Clock;
  key?: string;
}

/** Feedback counters of a shared learned skill (by name, as learning keeps them), summed over every window. */
export interface SharedCounters {
  name: string;
  helpful: number;
  harmful: number;
  use_count: number;
  last_used: number;
  last_validated: number;
}

/**
 * What one write changes: records to insert or replace (by scope + name), identities to delete,
 * counter increments. Increments are added to what the file holds at that moment (never a total
 * written back), so 👍 in two windows counts twice.
 */
export interface SharedChange {
  upsert?: readonly SkillRecord[];
  remove?: readonly SkillIdentity[];
  counters?: readonly SharedCounters[];
}

export interface SharedSnapshot {
  records: SkillRecord[];
  counters: SharedCounters[];
  /** The stored file was unreadable and was set aside: the caller may seed it again from its copy. */
  rebuilt: boolean;
}

/**
 * The learned skills of scope `tenant` and `global`: one small sql.js database in the extension's
 * global storage, shared by every window of the user (project skills stay in each workspace's own
 * store). sql.js holds a database in memory, so a window that kept one open would overwrite the
 * others' writes with its stale copy. Hence no window keeps it open: a write takes the lock file,
 * loads the current bytes, applies its change, saves (atomic rename) and closes; a read loads the
 * bytes without the lock (a rename never shows a half-written file). Each window mirrors what it
 * reads into its own store for searching (see sharedSkillMirror.ts).
 */
export class SharedSkillStore {
  constructor(private readonly deps: SharedSkillStoreDeps) {}

  async read(): Promise<SharedSnapshot> {
    const db = await this.open();
    try {
      return this.snapshot(db);
    } finally {
      db.close();
    }
  }

  /** Reload, change, save — under the lock, so concurrent writers (other windows) lose nothing. */
  write(change: SharedChange): Promise<SharedSnapshot> {
    for (const record of change.upsert ?? []) {
      if (record.scope_mode === 'project')
        throw new Error(`Skill "${record.name}" has scope "project"; project skills stay in the workspace's store, not the shared one.`);
    }
    return this.deps.lock.withLock(async () => {
      const db = await this.open();
      try {
        db.db.transaction(() => {
          for (const identity of change.remove ?? []) {
            db.db.run('DELETE FROM shared_skills WHERE identity = ?', [identityKey(identity)]);
          }
          for (const record of change.upsert ?? []) {
            db.db.run('INSERT OR REPLACE INTO shared_skills (identity, record, updated_at) VALUES (?, ?, ?)', [
              identityKey(record),
              JSON.stringify(record),
              this.deps.clock.now(),
            ]);
          }
          for (const delta of change.counters ?? []) addCounters(db, delta);
        });
        await db.save();
        return this.snapshot(db);
      } finally {
        db.close();
      }
    });
  }

  private open(): Promise<PersistentDatabase> {
    return openStoreDatabase({ ...this.deps, store: this.deps.bytes }, SHARED_SKILLS_KEY, {
      schemaVersion: 'shared-skills/2',
      createSchema: (db) => {
        db.exec('CREATE TABLE shared_skills (identity TEXT PRIMARY KEY, record TEXT NOT NULL, updated_at INTEGER NOT NULL)');
        db.exec(COUNTERS_TABLE_SQL);
      },
      // Version 1 had no counters: add the table, keep every skill.
      migrations: [{ from: 'shared-skills/1', migrate: (db) => db.exec(COUNTERS_TABLE_SQL) }],
    });
  }

  private snapshot(db: PersistentDatabase): SharedSnapshot {
    const counters = db.db.all<SharedCounters & Record<string, string | number>>(
      'SELECT name, helpful, harmful, use_count, last_used, last_validated FROM shared_counters ORDER BY name',
    );
    return { records: this.rows(db), counters: counters.map((c) => ({ ...c })), rebuilt: db.status === 'rebuilt' };
  }

  /** Every stored record; a row that is not a valid record is skipped with one warning. */
  private rows(db: PersistentDatabase): SkillRecord[] {
    const out: SkillRecord[] = [];
    let bad = 0;
    for (const row of db.db.all<{ identity: string; record: string }>('SELECT identity, record FROM shared_skills ORDER BY identity')) {
      const parsed = parseRecord(row.record);
      if (parsed && identityKey(parsed) === row.identity && parsed.scope_mode !== 'project') out.push(parsed);
      else bad++;
    }
    if (bad) this.deps.logger.warn(`Shared skill store: ${bad} damaged entr${bad === 1 ? 'y' : 'ies'} skipped.`);
    return out;
  }
}

const COUNTERS_TABLE_SQL = `CREATE TABLE shared_counters (name TEXT PRIMARY KEY, helpful INTEGER NOT NULL DEFAULT 0,
  harmful INTEGER NOT NULL DEFAULT 0, use_count INTEGER NOT NULL DEFAULT 0, last_used INTEGER NOT NULL DEFAULT 0, last_validated INTEGER NOT NULL DEFAULT 0)`;

/** Adds an increment to the stored counters (never below zero; times only move forward). */
function addCounters(db: PersistentDatabase, delta: SharedCounters): void {
  db.db.run('INSERT OR IGNORE INTO shared_counters (name) VALUES (?)', [delta.name]);
  db.db.run(
    `UPDATE shared_counters SET helpful = MAX(0, helpful + ?), harmful = MAX(0, harmful + ?), use_count = MAX(0, use_count + ?),
    last_used = MAX(last_used, ?), last_validated = MAX(last_validated, ?) WHERE name = ?`,
    [delta.helpful, delta.harmful, delta.use_count, delta.last_used, delta.last_validated, delta.name],
  );
}

function parseRecord(text: string): SkillRecord | undefined {
  try {
    const parsed = skillRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
