import { createHash } from 'node:crypto';
import type { Migration } from '../../../sql/persistentDatabase';
import type { SqlDatabase } from '../../../sql/sqlDatabase';
import { skillRecordSchema } from '../../skillSchema';
import type { SkillRecord } from '../../skillSchema';
import { describeScope, identityKey } from '../skillScope';

/**
 * The shared skill store's rows (sharedSkillStore.ts) and what guards them. SQLite's integrity
 * check cannot see a changed byte inside a row, and a learned skill is what a person approved: a
 * flipped character in its trigger or steps must not be served as theirs, nor may the skill
 * vanish. Each row therefore carries a checksum of its key and record text, written with it and
 * checked only when the file's bytes are not the ones Toolshed last wrote or checked (bytes that
 * match their digest are SQLite's own writes). A row that fails is moved, as it is, to
 * `shared_skills_set_aside` (nothing is deleted), named in a warning, and never served; a window
 * that holds a copy of that skill writes its copy back (LearnedSkills), which ends the set-aside
 * entry, as does a user's delete of that skill.
 */

export const SHARED_SCHEMA_VERSION = 'shared-skills/3';

const SKILLS_TABLE_SQL = 'CREATE TABLE shared_skills (identity TEXT PRIMARY KEY, record TEXT NOT NULL, updated_at INTEGER NOT NULL, checksum TEXT NOT NULL)';
const COUNTERS_TABLE_SQL = `CREATE TABLE shared_counters (name TEXT PRIMARY KEY, helpful INTEGER NOT NULL DEFAULT 0,
  harmful INTEGER NOT NULL DEFAULT 0, use_count INTEGER NOT NULL DEFAULT 0, last_used INTEGER NOT NULL DEFAULT 0, last_validated INTEGER NOT NULL DEFAULT 0)`;
const SET_ASIDE_TABLE_SQL =
  'CREATE TABLE shared_skills_set_aside (identity TEXT NOT NULL, record TEXT NOT NULL, reason TEXT NOT NULL, set_aside_at INTEGER NOT NULL)';

export function createSharedSchema(db: SqlDatabase): void {
  db.exec(SKILLS_TABLE_SQL);
  db.exec(COUNTERS_TABLE_SQL);
  db.exec(SET_ASIDE_TABLE_SQL);
}

/**
 * Version 3 adds each row's checksum (of the text it holds when migrated: rows of an older file
 * had none to check against) and the set-aside table. The skills table is made again with the
 * very statement a fresh store uses, so a migrated file opens as fast as a fresh one's
 * (schemaShape.ts compares an altered table column by column on every open).
 */
function addChecksums(db: SqlDatabase): void {
  db.exec('ALTER TABLE shared_skills RENAME TO shared_skills_v2');
  db.exec(SKILLS_TABLE_SQL);
  db.exec(SET_ASIDE_TABLE_SQL);
  for (const row of db.all<{ identity: string; record: string; updated_at: number }>('SELECT identity, record, updated_at FROM shared_skills_v2')) {
    // A row that does not read as its key's record is set aside (a window holding the skill
    // writes it back), not given a checksum that would make it pass from then on.
    const problem = rowProblem(row.identity, row.record, undefined);
    if (problem) {
      db.run('INSERT INTO shared_skills_set_aside (identity, record, reason, set_aside_at) VALUES (?, ?, ?, ?)', [
        row.identity,
        row.record,
        problem,
        Date.now(),
      ]);
      continue;
    }
    db.run('INSERT INTO shared_skills (identity, record, updated_at, checksum) VALUES (?, ?, ?, ?)', [
      row.identity,
      row.record,
      row.updated_at,
      rowChecksum(row.identity, row.record),
    ]);
  }
  db.exec('DROP TABLE shared_skills_v2');
}

export const SHARED_MIGRATIONS: readonly Migration[] = [
  // Version 1 had no counters.
  {
    from: 'shared-skills/1',
    migrate: (db) => {
      db.exec(COUNTERS_TABLE_SQL);
      addChecksums(db);
    },
  },
  { from: 'shared-skills/2', migrate: addChecksums },
];

/** The checksum of a row: of its key and record text together (a changed key is damage too). */
function rowChecksum(identity: string, record: string): string {
  return createHash('sha256').update(identity).update('\n').update(record).digest('hex').slice(0, 32);
}

/** Inserts or replaces a record's row, with its checksum. */
export function putRecord(db: SqlDatabase, record: SkillRecord, now: number): void {
  const identity = identityKey(record);
  const text = JSON.stringify(record);
  db.run('INSERT OR REPLACE INTO shared_skills (identity, record, updated_at, checksum) VALUES (?, ?, ?, ?)', [
    identity,
    text,
    now,
    rowChecksum(identity, text),
  ]);
}

/** A shared skill whose stored row was damaged: kept aside, not served. */
export interface SetAsideSkill {
  /** The keys it may belong to: the row's key, and the one its record names when that still reads. */
  identities: string[];
  /** For the user: its name and scope, as far as they still read. */
  label: string;
  /** Why it was set aside. */
  reason: string;
}

/** Why a stored row is not a record the store wrote, or undefined when it is one (see rows of a snapshot). */
function rowProblem(identity: string, text: string, checksum: string | undefined): string | undefined {
  if (checksum !== undefined && checksum !== rowChecksum(identity, text)) return 'it changed on disk (its bytes no longer match their checksum)';
  const record = parseRecord(text);
  if (!record) return 'it is not a skill record';
  if (identityKey(record) !== identity) return 'its name or scope does not match its key';
  if (record.scope_mode === 'project') return 'it is a project skill, which the shared store never holds';
  return undefined;
}

/**
 * For bytes not written or checked last (persistentDatabase's `distrust`): moves every row that
 * fails its checksum, or is not a record of its key, to the set-aside table. Returns how many.
 */
export function setAsideDamaged(db: SqlDatabase, now: number): number {
  let moved = 0;
  db.transaction(() => {
    for (const row of db.all<{ identity: string; record: string; checksum: string }>('SELECT identity, record, checksum FROM shared_skills')) {
      const problem = rowProblem(row.identity, row.record, row.checksum);
      if (!problem) continue;
      db.run('INSERT INTO shared_skills_set_aside (identity, record, reason, set_aside_at) VALUES (?, ?, ?, ?)', [row.identity, row.record, problem, now]);
      db.run('DELETE FROM shared_skills WHERE identity = ?', [row.identity]);
      moved++;
    }
  });
  return moved;
}

/** Every set-aside skill (an empty table: one cheap read). */
export function setAsideSkills(db: SqlDatabase): SetAsideSkill[] {
  return db
    .all<{ identity: string; record: string; reason: string }>('SELECT identity, record, reason FROM shared_skills_set_aside ORDER BY rowid')
    .map(setAsideOf);
}

/** Ends the set-aside entries of these keys (the skill was written again, or deleted, since). */
export function endSetAside(db: SqlDatabase, identities: ReadonlySet<string>): SetAsideSkill[] {
  if (identities.size === 0) return [];
  const ended: SetAsideSkill[] = [];
  for (const row of db.all<{ id: number; identity: string; record: string; reason: string }>(
    'SELECT rowid AS id, identity, record, reason FROM shared_skills_set_aside',
  )) {
    const entry = setAsideOf(row);
    if (!entry.identities.some((identity) => identities.has(identity))) continue;
    db.run('DELETE FROM shared_skills_set_aside WHERE rowid = ?', [row.id]);
    ended.push(entry);
  }
  return ended;
}

function setAsideOf(row: { identity: string; record: string; reason: string }): SetAsideSkill {
  const record = parseRecord(row.record);
  const identities = [row.identity];
  if (record && identityKey(record) !== row.identity) identities.push(identityKey(record));
  const [mode = '', tenant = '', project = '', name = ''] = row.identity.split('\u0000');
  const label =
    mode === 'global' || mode === 'tenant' || mode === 'project'
      ? `"${name}" (${describeScope({ scope_mode: mode, scope_tenant_id: tenant, scope_project_id: project })})`
      : record
        ? `"${record.name}" (${describeScope(record)})`
        : `with key ${JSON.stringify(row.identity)}`;
  return { identities, label, reason: row.reason };
}

export function parseRecord(text: string): SkillRecord | undefined {
  try {
    const parsed = skillRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
