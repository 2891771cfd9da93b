import { randomUUID } from 'node:crypto';
import type { ByteStore } from '../../../platform/ports';
import { metaValue, setMetaValue } from '../../../sql/persistentDatabase';
import type { SqlDatabase } from '../../../sql/sqlDatabase';

/**
 * Which shared store a window's copies were last synced with, so that a store made afresh (its
 * file was damaged and set aside, or deleted) is never read as "every skill was deleted
 * elsewhere". Each shared file made by Toolshed holds a generation id, new whenever the file is
 * made (first use, or a rebuild), and kept in the file's own key/value table. Each window
 * remembers the generation it last synced with (`SharedSyncMark`). A window that sees another
 * generation first adds its copies of the skills the store lacks (restores, never deletes), then
 * mirrors the store as usual: a skill missing from a store it has synced with was deleted
 * elsewhere, one missing from a new store was lost with the old file.
 *
 * A delete made after the store was made must still reach a window that seeds later (it was
 * offline, or it raced the delete): the store records each deleted skill's key
 * (`shared_skills_removed`, cleared when the skill is written again), and a seed never adds a
 * skill deleted in this generation. The table is created when first needed, not by the schema:
 * an older build's file stays readable and an older build reads this one (it ignores the table).
 */

const GENERATION_KEY = 'shared_generation';

/**
 * The generation of a file from before generations existed, and what older builds wrote as the
 * window's marker once they had synced: a window that synced with such a file, reading it again,
 * is not seeing a new store.
 */
const LEGACY_GENERATION = '1';

/** The generation of a store not yet on disk (no file, or one this read left aside): the next write gives it one. */
const UNSAVED_GENERATION = '';

const REMOVED_TABLE_SQL = 'CREATE TABLE IF NOT EXISTS shared_skills_removed (identity TEXT PRIMARY KEY, removed_at INTEGER NOT NULL)';

/** Gives a store about to be written for the first time (created or rebuilt) its generation. */
export function startGeneration(db: SqlDatabase): void {
  setMetaValue(db, GENERATION_KEY, randomUUID());
}

/** The store's generation; `onDisk`: the database was read from the stored file (not made fresh by this open). */
export function generationOf(db: SqlDatabase, onDisk: boolean): string {
  return metaValue(db, GENERATION_KEY) ?? (onDisk ? LEGACY_GENERATION : UNSAVED_GENERATION);
}

/** Makes the removed-skills table when a write first needs it (in the write's transaction). */
export function ensureRemovedTable(db: SqlDatabase): void {
  db.exec(REMOVED_TABLE_SQL);
}

/** Records that the skill of this key was deleted in this generation (a later seed never adds it back). */
export function markRemoved(db: SqlDatabase, identity: string, now: number): void {
  db.run('INSERT OR REPLACE INTO shared_skills_removed (identity, removed_at) VALUES (?, ?)', [identity, now]);
}

/** The skill of this key was written again: it is no longer a deleted one. */
export function unmarkRemoved(db: SqlDatabase, identity: string): void {
  db.run('DELETE FROM shared_skills_removed WHERE identity = ?', [identity]);
}

/** Of these keys, the ones a seed may add: neither stored nor deleted in this generation. */
export function seedable(db: SqlDatabase, identities: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const identity of identities) {
    const present = db.get('SELECT 1 AS present FROM shared_skills WHERE identity = ? UNION ALL SELECT 1 FROM shared_skills_removed WHERE identity = ?', [
      identity,
      identity,
    ]);
    if (!present) out.add(identity);
  }
  return out;
}

/** Where a window keeps the generation of the shared store it last synced with (undefined: it never synced). */
export interface SharedSyncMark {
  read(): Promise<string | undefined>;
  write(generation: string): Promise<void>;
}

/** The marker older builds kept (`'1'` once synced, see LEGACY_GENERATION), now holding the generation. */
const SHARED_SYNC_MARK_KEY = 'shared-skills.seeded';

/** The window's mark, in its own storage (beside its skill store). */
export function sharedSyncMark(bytes: ByteStore): SharedSyncMark {
  return {
    read: async () => {
      const stored = await bytes.read(SHARED_SYNC_MARK_KEY).catch(() => undefined);
      return stored ? new TextDecoder().decode(stored) : undefined;
    },
    write: (generation) => bytes.write(SHARED_SYNC_MARK_KEY, new TextEncoder().encode(generation)),
  };
}
