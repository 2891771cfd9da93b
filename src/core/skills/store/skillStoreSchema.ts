import type { FtsEngine } from '../../sql/sqlEngine';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import type { Migration } from '../../sql/persistentDatabase';
import { SKILL_FTS_FIELDS } from './skillSearchIndex';

/**
 * The `skills` table (docs/contracts.md#skill-record), its indexes and the full-text table,
 * plus the migrations from older stored versions (rows are kept, never dropped).
 *
 * Version 2: a skill is unique per scope — UNIQUE(scope_mode, scope_tenant_id, scope_project_id,
 * name) — where version 1 had `name UNIQUE` across all scopes.
 */

const SCHEMA_FAMILY = 'skills';
const CURRENT = 2;

export function skillSchemaVersion(fts: FtsEngine): string {
  return `${SCHEMA_FAMILY}/${CURRENT}/${fts}`;
}

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
      trigger TEXT NOT NULL,
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

export function createSkillSchema(db: SqlDatabase, fts: FtsEngine): void {
  db.exec(skillsTableSql('skills'));
  db.exec(INDEXES_SQL);
  const columns = SKILL_FTS_FIELDS.join(', ');
  if (fts === 'fts5') db.exec(`CREATE VIRTUAL TABLE skills_fts USING fts5(${columns}, tokenize='unicode61')`);
  if (fts === 'fts4') {
    db.exec(`CREATE VIRTUAL TABLE skills_fts USING fts4(${columns}, tokenize=simple)`);
    db.exec('CREATE VIRTUAL TABLE skills_fts_terms USING fts4aux(skills_fts)');
  }
}

/**
 * Version 1 → 2: rebuild `skills` with the per-scope unique key, copying every row (ids, doc ids,
 * usage counts and all). The full-text table is keyed by doc id and stays as it is.
 */
function migrateV1(db: SqlDatabase): void {
  const columns = SKILL_COLUMNS.join(', ');
  db.exec(skillsTableSql('skills_v2'));
  db.exec(`INSERT INTO skills_v2 (${columns}) SELECT ${columns} FROM skills`);
  db.exec('DROP TABLE skills');
  db.exec('ALTER TABLE skills_v2 RENAME TO skills');
  db.exec(INDEXES_SQL);
}

export function skillMigrations(fts: FtsEngine): Migration[] {
  return [{ from: `${SCHEMA_FAMILY}/1/${fts}`, migrate: migrateV1 }];
}
