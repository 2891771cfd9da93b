import type { ByteStore, Clock, FileLock, Logger } from '../../platform/ports';
import { openPersistentDatabase } from '../../sql/persistentDatabase';
import type { PersistentDatabase } from '../../sql/persistentDatabase';
import type { SqlEngine } from '../../sql/sqlEngine';
import { skillRecordSchema } from '../skillSchema';
import type { SkillRecord } from '../skillSchema';
import { identityKey } from './skillScope';
import type { SkillIdentity } from './skillScope';

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

/** What one write changes: records to insert or replace (by scope + name), identities to delete. */
export interface SharedChange {
  upsert?: readonly SkillRecord[];
  remove?: readonly SkillIdentity[];
}

export interface SharedSnapshot {
  records: SkillRecord[];
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
 * reads into its own store for searching (see sharedSkillSync.ts).
 */
export class SharedSkillStore {
  constructor(private readonly deps: SharedSkillStoreDeps) {}

  async read(): Promise<SharedSnapshot> {
    const db = await this.open();
    try {
      return { records: this.rows(db), rebuilt: db.status === 'rebuilt' };
    } finally {
      db.close();
    }
  }

  /** Reload, change, save — under the lock, so concurrent writers (other windows) lose nothing. */
  write(change: SharedChange): Promise<SharedSnapshot> {
    for (const record of change.upsert ?? []) {
      if (record.scope_mode === 'project') throw new Error(`Skill "${record.name}" has scope "project"; project skills stay in the workspace's store, not the shared one.`);
    }
    return this.deps.lock.withLock(async () => {
      const db = await this.open();
      try {
        db.db.transaction(() => {
          for (const identity of change.remove ?? []) {
            db.db.run('DELETE FROM shared_skills WHERE identity = ?', [identityKey(identity)]);
          }
          for (const record of change.upsert ?? []) {
            db.db.run('INSERT OR REPLACE INTO shared_skills (identity, record, updated_at) VALUES (?, ?, ?)',
              [identityKey(record), JSON.stringify(record), this.deps.clock.now()]);
          }
        });
        await db.save();
        return { records: this.rows(db), rebuilt: db.status === 'rebuilt' };
      } finally {
        db.close();
      }
    });
  }

  private open(): Promise<PersistentDatabase> {
    return openPersistentDatabase({
      engine: this.deps.engine,
      store: this.deps.bytes,
      key: this.deps.key ?? SHARED_SKILLS_KEY,
      schemaVersion: 'shared-skills/1',
      createSchema: (db) => db.exec('CREATE TABLE shared_skills (identity TEXT PRIMARY KEY, record TEXT NOT NULL, updated_at INTEGER NOT NULL)'),
      logger: this.deps.logger,
      clock: this.deps.clock,
    });
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

function parseRecord(text: string): SkillRecord | undefined {
  try {
    const parsed = skillRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
