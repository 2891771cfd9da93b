import type { ByteStore, Clock, FileLock, Logger } from '../../../platform/ports';
import { openStoreDatabase } from '../../../sql/persistentDatabase';
import type { PersistentDatabase } from '../../../sql/persistentDatabase';
import type { SqlEngine } from '../../../sql/sqlEngine';
import type { SkillRecord } from '../../skillSchema';
import { identityKey } from '../skillScope';
import type { SkillIdentity } from '../skillScope';
import {
  createSharedSchema,
  endSetAside,
  parseRecord,
  putRecord,
  SHARED_MIGRATIONS,
  SHARED_SCHEMA_VERSION,
  setAsideDamaged,
  setAsideSkills,
} from './sharedSkillRows';
import type { SetAsideSkill } from './sharedSkillRows';
import { ensureRemovedTable, generationOf, markRemoved, seedable, startGeneration, unmarkRemoved } from './sharedGeneration';

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
  /**
   * A window's copies, for a store it has not synced with before (sharedGeneration.ts): each is
   * added only where the store holds no skill of its key and none was deleted in its generation.
   */
  seed?: readonly SkillRecord[];
}

export interface SharedSnapshot {
  records: SkillRecord[];
  counters: SharedCounters[];
  /** The stored file was unreadable and was set aside: the caller may seed it again from its copy. */
  rebuilt: boolean;
  /** Which store this is: new whenever the file is made afresh (sharedGeneration.ts). */
  generation: string;
  /**
   * Skills whose stored row was damaged (sharedSkillRows.ts): not in `records`, kept aside in the
   * file; a window holding a copy of one writes it back.
   */
  setAside: SetAsideSkill[];
}

/**
 * The learned skills of scope `tenant` and `global`: one small sql.js database in the extension's
 * global storage, shared by every window of the user (project skills stay in each workspace's own
 * store). sql.js holds a database in memory, so a window that kept one open would overwrite the
 * others' writes with its stale copy. Hence no window keeps it open: a write takes the lock file,
 * loads the current bytes, applies its change, saves (atomic rename) and closes; a read loads the
 * bytes without the lock (a rename never shows a half-written file). Each window mirrors what it
 * reads into its own store for searching (see sharedSkillMirror.ts). Each row carries a checksum,
 * checked when the file's bytes are not the ones last written or checked: a damaged record is set
 * aside, never served (sharedSkillRows.ts).
 */
export class SharedSkillStore {
  /** Set-aside skills already named in a warning by this window (each is named once). */
  private readonly reported = new Set<string>();

  constructor(private readonly deps: SharedSkillStoreDeps) {}

  async read(): Promise<SharedSnapshot> {
    // Without the lock, a read leaves the file as it is: setting aside a file another window is
    // replacing under the lock could set aside that window's good file.
    const { db, distrusted } = await this.open(true);
    try {
      // Bytes Toolshed did not write or check last: their rows were checked (damaged ones set
      // aside). That verdict is saved under the lock, so the next read is warm and every window
      // reads the same rows; when it cannot be saved, this read still serves only checked rows.
      // Bytes that cannot be used at all are set aside, and the new store (its generation) saved,
      // under the lock too, so every window then reads the same new store.
      if (distrusted || db.status === 'rebuilt') return await this.write({}).catch(() => this.snapshot(db));
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
      const { db } = await this.open(false);
      try {
        const now = this.deps.clock.now();
        const touched = new Set([...(change.remove ?? []), ...(change.upsert ?? [])].map(identityKey));
        const ended = db.db.transaction(() => {
          if (db.status === 'created' || db.status === 'rebuilt') startGeneration(db.db);
          ensureRemovedTable(db.db);
          for (const identity of change.remove ?? []) {
            db.db.run('DELETE FROM shared_skills WHERE identity = ?', [identityKey(identity)]);
            markRemoved(db.db, identityKey(identity), now);
          }
          for (const record of change.upsert ?? []) {
            putRecord(db.db, record, now);
            unmarkRemoved(db.db, identityKey(record));
          }
          const seeds = seedable(db.db, (change.seed ?? []).map(identityKey));
          for (const record of change.seed ?? []) {
            if (!seeds.has(identityKey(record))) continue;
            putRecord(db.db, record, now);
            touched.add(identityKey(record));
          }
          for (const delta of change.counters ?? []) addCounters(db, delta);
          return endSetAside(db.db, touched);
        });
        await db.save();
        for (const entry of ended) {
          this.deps.logger.info(`Shared skill store: learned skill ${entry.label}, set aside as damaged, was written again from a clean copy or deleted.`);
        }
        return this.snapshot(db);
      } finally {
        db.close();
      }
    });
  }

  /** The store's database; `distrusted`: its bytes were not the ones last written or checked (rows checked, damaged ones set aside). */
  private async open(readOnly: boolean): Promise<{ db: PersistentDatabase; distrusted: boolean }> {
    let distrusted = false;
    const db = await openStoreDatabase({ ...this.deps, store: this.deps.bytes, readOnly }, SHARED_SKILLS_KEY, {
      schemaVersion: SHARED_SCHEMA_VERSION,
      createSchema: createSharedSchema,
      migrations: SHARED_MIGRATIONS,
      distrust: (opened) => {
        distrusted = true;
        setAsideDamaged(opened, this.deps.clock.now());
      },
    });
    return { db, distrusted };
  }

  private snapshot(db: PersistentDatabase): SharedSnapshot {
    const counters = db.db.all<SharedCounters & Record<string, string | number>>(
      'SELECT name, helpful, harmful, use_count, last_used, last_validated FROM shared_counters ORDER BY name',
    );
    const setAside = setAsideSkills(db.db);
    for (const entry of setAside) {
      const key = `${entry.identities[0]}\u0000${entry.reason}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.deps.logger.warn(
        `Shared skill store: learned skill ${entry.label} is damaged (${entry.reason}): it is not shown or used. Its record is kept aside in ${this.deps.key ?? SHARED_SKILLS_KEY}; a window that holds a copy of it writes that copy back when it next syncs.`,
      );
    }
    return {
      records: this.rows(db),
      counters: counters.map((c) => ({ ...c })),
      rebuilt: db.status === 'rebuilt',
      generation: generationOf(db.db, db.status === 'loaded' || db.status === 'migrated'),
      setAside,
    };
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

/** Adds an increment to the stored counters (never below zero; times only move forward). */
function addCounters(db: PersistentDatabase, delta: SharedCounters): void {
  db.db.run('INSERT OR IGNORE INTO shared_counters (name) VALUES (?)', [delta.name]);
  db.db.run(
    `UPDATE shared_counters SET helpful = MAX(0, helpful + ?), harmful = MAX(0, harmful + ?), use_count = MAX(0, use_count + ?),
    last_used = MAX(last_used, ?), last_validated = MAX(last_validated, ?) WHERE name = ?`,
    [delta.helpful, delta.harmful, delta.use_count, delta.last_used, delta.last_validated, delta.name],
  );
}
