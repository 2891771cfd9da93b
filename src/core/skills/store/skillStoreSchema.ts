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

/** Every column of `skills`, in table order (also the INSERT order of `skillRows`). */
export const SKILL_COLUMNS = [
  'id',
  'doc_id',
  'scope_mode',
  'scope_tenant_id',
  'scope_project_id',
  'name',
  'title',
  'description',
  'trigger',
  'task_type',
  'tags',
  'steps',
  'preconditions',
  'failure_modes',
  'body',
  'origin',
  'origin_ref',
  'content_hash',
  'created_at',
  'updated_at',
  'last_used',
  'use_count',
  'domain',
  'frames',
  'triggers',
  'tools',
  'allowed_tools',
  'requires',
  'meta',
  'resources',
  'extra',
  'pack_name',
  'workspace',
  'source_file',
  'source_line',
  'format',
  'status',
  'status_reason',
  'model_invocable',
] as const;

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
