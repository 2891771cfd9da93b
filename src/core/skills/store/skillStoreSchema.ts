import type { SqlDatabase } from '../../sql/sqlDatabase';
import { setMetaValue } from '../../sql/persistentDatabase';
import type { Migration } from '../../sql/persistentDatabase';
import { SKILL_FIELDS } from './skillSearchIndex';
import type { SkillFieldTerms } from './skillSearchIndex';
import { encodeTerms, TermVocabulary } from '../../search/termStore';

/**
 * The `skills` table (docs/contracts.md#skill-record), its indexes and the analysed terms of
 * every skill, plus the migrations from older stored versions (rows are kept, never dropped).
 *
 * Version 2: a skill is unique per scope — UNIQUE(scope_mode, scope_tenant_id, scope_project_id,
 * name) — where version 1 had `name UNIQUE` across all scopes.
 * Version 3: no full-text table. Search runs on the in-memory mirror, rebuilt on open from each
 * skill's analysed terms, kept compactly (`skill_vocab`, `skill_terms`; search/termStore.ts);
 * a full-text index of them (`skills_fts`) was most of the file and of sql.js's memory.
 * `skill_files` fingerprints the files loaded, so a warm start skips unchanged ones.
 * Version 4: one version for every sql.js build. Versions 1–3 named the build's full-text engine
 * (`skills/3/fts4`); a store written where it had none (`…/none`) kept no terms, and its rows
 * have them analysed on open (SkillStore), so ranked search works whatever the build.
 * Version 5: a file's fingerprint keeps its warnings (`skill_files.problems`).
 * Version 6: the listing of each folder a load walked (`skill_folders`, skillFolderListings.ts),
 * so a warm start lists again only folders whose modification time changed; and whether a file's
 * kept problems hold an error (`skill_files.errors`), so the skill list need not read them back.
 * Version 7: a smaller file (sql.js holds it whole in memory): `trigger` is NULL where it repeats
 * the description (most skills: 2.5 MB at 10,000 real ones), `skill_files` keeps each path once
 * (a table without row ids: its key is the table), and the file has 8 KB pages
 * (SKILL_PAGE_SIZE). A real 10,000-skill version 6 file shrank from 29.3 to 22.9 MB.
 */

/**
 * Where the term vocabulary's fingerprint is kept (the key/value table; search/termStore.ts): a
 * term whose bytes changed on disk fails the check on open and the store is rebuilt.
 */
export const VOCABULARY_FINGERPRINT_KEY = 'skill_vocab_fingerprint';

const SCHEMA_FAMILY = 'skills';
export const SKILL_SCHEMA_VERSION = `${SCHEMA_FAMILY}/7`;

/**
 * The store file's page size. Rows here are one to two kilobytes (a skill's texts, JSON lists and
 * paths): a 4 KB page holds two or three and leaves a fifth of itself unused, an 8 KB one far less.
 */
export const SKILL_PAGE_SIZE = 8192;

/** The full-text engines versions 1–3 were written under (their schema versions name it). */
const FORMER_ENGINES = ['fts5', 'fts4', 'none'] as const;
type FormerEngine = (typeof FORMER_ENGINES)[number];

/**
 * Every column of `skills`, in table order (also the INSERT order of `skillRows`), and how a
 * record's field is stored in it: as it is, as JSON text, or a boolean as 0/1.
 */
export const SKILL_COLUMN_STORAGE = {
  id: 'value',
  doc_id: 'value',
  scope_mode: 'value',
  scope_tenant_id: 'value',
  scope_project_id: 'value',
  name: 'value',
  title: 'value',
  description: 'value',
  trigger: 'value',
  task_type: 'value',
  tags: 'json',
  steps: 'json',
  preconditions: 'json',
  failure_modes: 'json',
  body: 'value',
  origin: 'value',
  origin_ref: 'value',
  content_hash: 'value',
  created_at: 'value',
  updated_at: 'value',
  last_used: 'value',
  use_count: 'value',
  domain: 'value',
  frames: 'json',
  triggers: 'json',
  tools: 'json',
  allowed_tools: 'json',
  requires: 'json',
  meta: 'json',
  resources: 'json',
  extra: 'json',
  pack_name: 'value',
  workspace: 'flag',
  source_file: 'value',
  source_line: 'value',
  format: 'value',
  status: 'value',
  status_reason: 'value',
  model_invocable: 'flag',
} as const satisfies Record<string, 'value' | 'json' | 'flag'>;

export type SkillColumn = keyof typeof SKILL_COLUMN_STORAGE;
export const SKILL_COLUMNS = Object.keys(SKILL_COLUMN_STORAGE) as readonly SkillColumn[];

function skillsTableSql(table: string): string {
  return `
    CREATE TABLE ${table} (
      id TEXT PRIMARY KEY,
      doc_id INTEGER NOT NULL UNIQUE,
      scope_mode TEXT NOT NULL,
      scope_tenant_id TEXT NOT NULL DEFAULT '',
      scope_project_id TEXT NOT NULL DEFAULT '',
      name TEXT NOT NULL,
      title TEXT,
      description TEXT,
      trigger TEXT,
      task_type TEXT NOT NULL,
      tags TEXT NOT NULL,
      steps TEXT NOT NULL,
      preconditions TEXT NOT NULL,
      failure_modes TEXT NOT NULL,
      body TEXT NOT NULL DEFAULT '',
      origin TEXT NOT NULL,
      origin_ref TEXT,
      content_hash TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      last_used INTEGER NOT NULL,
      use_count INTEGER NOT NULL,
      domain TEXT NOT NULL DEFAULT '',
      frames TEXT NOT NULL DEFAULT '[]',
      triggers TEXT NOT NULL DEFAULT '[]',
      tools TEXT NOT NULL DEFAULT '[]',
      allowed_tools TEXT NOT NULL DEFAULT '[]',
      requires TEXT NOT NULL DEFAULT '[]',
      meta TEXT NOT NULL DEFAULT '{}',
      resources TEXT NOT NULL DEFAULT '[]',
      extra TEXT NOT NULL DEFAULT '{}',
      pack_name TEXT NOT NULL DEFAULT '',
      workspace INTEGER NOT NULL DEFAULT 0,
      source_file TEXT NOT NULL DEFAULT '',
      source_line INTEGER NOT NULL DEFAULT 1,
      format TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'active',
      status_reason TEXT NOT NULL DEFAULT '',
      model_invocable INTEGER NOT NULL DEFAULT 1,
      UNIQUE (scope_mode, scope_tenant_id, scope_project_id, name)
    );`;
}

const INDEXES_SQL = `
    CREATE INDEX IF NOT EXISTS idx_skills_name ON skills(name);
    CREATE INDEX IF NOT EXISTS idx_skills_task_type ON skills(task_type);
    CREATE INDEX IF NOT EXISTS idx_skills_origin ON skills(origin);
    CREATE INDEX IF NOT EXISTS idx_skills_source ON skills(source_file);
    CREATE INDEX IF NOT EXISTS idx_skills_pack ON skills(pack_name);`;

/**
 * The analysed terms of every skill (search/termStore.ts), and the fingerprints of the skill files loaded (skillFileFingerprints.ts).
 */
const FILES_SQL = `
    CREATE TABLE skill_files (file TEXT PRIMARY KEY, pack_key TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms REAL NOT NULL,
      recorded_at INTEGER NOT NULL, skill_count INTEGER NOT NULL, problems BLOB NOT NULL DEFAULT x'', errors INTEGER NOT NULL DEFAULT 1) WITHOUT ROWID;`;
const TERMS_SQL = `
    CREATE TABLE skill_vocab (id INTEGER PRIMARY KEY, term TEXT NOT NULL);
    CREATE TABLE skill_terms (doc_id INTEGER PRIMARY KEY, terms BLOB NOT NULL);${FILES_SQL}`;

/** The listing of every folder a load walked (skillFolderListings.ts); without a rowid, each path is stored once (in its key). */
const FOLDERS_SQL = `
    CREATE TABLE skill_folders (folder TEXT PRIMARY KEY, mtime_ms REAL NOT NULL, listed_at INTEGER NOT NULL, entries TEXT NOT NULL) WITHOUT ROWID;`;

export function createSkillSchema(db: SqlDatabase): void {
  db.exec(skillsTableSql('skills'));
  db.exec(INDEXES_SQL);
  db.exec(TERMS_SQL);
  db.exec(FOLDERS_SQL);
}

/**
 * Rebuilds `skills` with the current definition (version 2's per-scope unique key), copying every
 * row (ids, doc ids, usage counts and all).
 */
function rebuildSkillsTable(db: SqlDatabase): void {
  const columns = SKILL_COLUMNS.join(', ');
  db.exec(skillsTableSql('skills_next'));
  db.exec(`INSERT INTO skills_next (${columns}) SELECT ${columns} FROM skills`);
  db.exec('DROP TABLE skills');
  db.exec('ALTER TABLE skills_next RENAME TO skills');
  db.exec(INDEXES_SQL);
}

/**
 * Versions 1 and 2 → 3: the rows are kept; the analysed text the full-text table held (keyed by
 * doc id) becomes each skill's compact terms, with nothing analysed again, and the full-text
 * table goes. Read with the engine the store was written under (a build without it cannot read
 * the table: the migration fails and the store is rebuilt).
 */
function migrateToV3(db: SqlDatabase, fts: FormerEngine): void {
  rebuildSkillsTable(db);
  db.exec(TERMS_SQL);
  if (fts === 'none') return;
  const idColumn = fts === 'fts5' ? 'rowid' : 'docid';
  const vocabulary = new TermVocabulary();
  const split = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.split(' ') : []);
  for (const row of db.arrays(`SELECT ${idColumn}, ${SKILL_FIELDS.join(', ')} FROM skills_fts`)) {
    const terms = {} as Record<string, readonly string[]>;
    SKILL_FIELDS.forEach((field, i) => {
      terms[field] = split(row[i + 1]);
    });
    db.run('INSERT INTO skill_terms (doc_id, terms) VALUES (?, ?)', [Number(row[0]), encodeTerms(terms as SkillFieldTerms, SKILL_FIELDS, vocabulary)]);
  }
  for (const [id, term] of vocabulary.takePending()) db.run('INSERT INTO skill_vocab (id, term) VALUES (?, ?)', [id, term]);
  setMetaValue(db, VOCABULARY_FINGERPRINT_KEY, vocabulary.fingerprint);
  if (fts === 'fts4') db.exec('DROP TABLE IF EXISTS skills_fts_terms');
  db.exec('DROP TABLE skills_fts');
}

/**
 * Versions 3 and 4 → 5: file fingerprints keep the file's warnings (a file loaded with warnings
 * only is trusted on a warm start too). The fingerprints stored so far are of files without any.
 */
function addFileProblems(db: SqlDatabase): void {
  db.exec("ALTER TABLE skill_files ADD COLUMN problems BLOB NOT NULL DEFAULT x''");
}

/**
 * Version 5 → 6: an empty folder-listing table (the first load lists every folder, as every load
 * did before, and keeps the listings), and the fingerprints' error flag, set ("may hold an error")
 * for the fingerprints kept so far.
 */
function addFolderListings(db: SqlDatabase): void {
  db.exec(FOLDERS_SQL);
  db.exec('ALTER TABLE skill_files ADD COLUMN errors INTEGER NOT NULL DEFAULT 1');
}

/**
 * Version 6 → 7 (and the last step from every older version): `skills` and `skill_files` made
 * again under their own names with the current statements (so the next open finds them stored as
 * created: schemaShape.ts), every row copied, a trigger that repeats its description stored as
 * NULL. The store then rewrites the file whole at SKILL_PAGE_SIZE (persistentDatabase's `pageSize`).
 */
function compactRows(db: SqlDatabase): void {
  const columns = SKILL_COLUMNS.join(', ');
  const values = SKILL_COLUMNS.map((column) => (column === 'trigger' ? 'CASE WHEN trigger = description THEN NULL ELSE trigger END' : column)).join(', ');
  // Renamed first, so the new table is created under its own name; its indexes go with it on DROP.
  db.exec('ALTER TABLE skills RENAME TO skills_before_v7');
  db.exec(skillsTableSql('skills'));
  db.exec(`INSERT INTO skills (${columns}) SELECT ${values} FROM skills_before_v7`);
  db.exec('DROP TABLE skills_before_v7');
  db.exec(INDEXES_SQL);
  const fileColumns = 'file, pack_key, size, mtime_ms, recorded_at, skill_count, problems, errors';
  db.exec('ALTER TABLE skill_files RENAME TO skill_files_before_v7');
  db.exec(FILES_SQL);
  db.exec(`INSERT INTO skill_files (${fileColumns}) SELECT ${fileColumns} FROM skill_files_before_v7`);
  db.exec('DROP TABLE skill_files_before_v7');
}

/**
 * Every older version → 7, rows kept: versions 1 and 2 through version 3's migration (which
 * creates the fingerprints with their warnings column), versions 3 and 4 with that column added
 * (version 3's stored form is otherwise version 4's; rows without terms are analysed on open),
 * then the folder listings' table (version 6), then version 7's compact rows.
 */
export function skillMigrations(): Migration[] {
  const toV7 =
    (...steps: Array<(db: SqlDatabase) => void>) =>
    (db: SqlDatabase) => {
      for (const step of steps) step(db);
      compactRows(db);
    };
  return [
    ...FORMER_ENGINES.flatMap((fts) => [
      // Version 3's migration creates the fingerprints with their error flag (version 6's columns).
      ...[1, 2].map((version) => ({
        from: `${SCHEMA_FAMILY}/${version}/${fts}`,
        migrate: toV7(
          (db) => migrateToV3(db, fts),
          (db) => db.exec(FOLDERS_SQL),
        ),
      })),
      { from: `${SCHEMA_FAMILY}/3/${fts}`, migrate: toV7(addFileProblems, addFolderListings) },
    ]),
    { from: `${SCHEMA_FAMILY}/4`, migrate: toV7(addFileProblems, addFolderListings) },
    { from: `${SCHEMA_FAMILY}/5`, migrate: toV7(addFolderListings) },
    { from: `${SCHEMA_FAMILY}/6`, migrate: toV7() },
  ];
}
