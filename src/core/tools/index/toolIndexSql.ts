import type { FtsEngine } from '../../sql/sqlEngine';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import { TOOL_FIELDS } from './toolDocument';
import type { ToolFieldTerms } from './toolDocument';
import type { ToolRecord } from '../toolRecord';
import { bm25FromMatchinfoBlob, ftsOrExpression } from '../../search/ftsBm25';

/**
 * The tool index's sql.js side (toolIndex.ts): schema, FTS triggers, and the row statements and
 * values its deferred writes use.
 */

/** FTS columns: the analysed term columns of `tools` themselves (external content, no second copy of the text). */
const FTS_COLUMNS = ['name_terms', 'tag_terms', 'description_terms', 'param_name_terms', 'param_description_terms'] as const;

export const TERM_COLUMNS = ['name_terms', 'tag_terms', 'description_terms', 'param_name_terms', 'param_description_terms'] as const;
const ROW_COLUMNS = ['name', 'namespace', 'side_effects', 'loading_mode', 'record_hash', 'description', 'tags_json', ...TERM_COLUMNS] as const;

const UPDATE_SQL = `UPDATE tools SET ${ROW_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`;
/** Rows per multi-row INSERT (× 13 columns stays under SQLite's 999 bound parameters). */
const INSERT_BATCH = 70;
const ROW_PLACEHOLDERS = `(${['id', ...ROW_COLUMNS].map(() => '?').join(', ')})`;
function insertSql(rows: number): string {
  return `INSERT INTO tools (id, ${ROW_COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => ROW_PLACEHOLDERS).join(', ')}`;
}

/** The stored term columns of a `tools` row → analysed terms per field. */
export function termsOfRow(row: Record<string, string | number>): ToolFieldTerms {
  const terms = {} as ToolFieldTerms;
  TOOL_FIELDS.forEach((field, i) => {
    const text = String(row[TERM_COLUMNS[i]] ?? '');
    terms[field] = text.length > 0 ? text.split(' ') : [];
  });
  return terms;
}

/** The stored term columns of a tool (analysed terms per field, space-separated). */
export function termColumns(terms: ToolFieldTerms): string[] {
  return TOOL_FIELDS.map((f) => terms[f].join(' '));
}

function rowValues(record: ToolRecord, columns: readonly string[]): string[] {
  return [
    record.name,
    record.namespace,
    record.sideEffects,
    record.loadingMode,
    record.recordHash,
    record.description,
    JSON.stringify(record.tags),
    ...columns,
  ];
}

/** Rows written in one sync from which the FTS triggers give way to one FTS 'rebuild'. */
const BULK_MIN_ROWS = 64;

/** Rows written in one sync from which the FTS index is merged into one segment. */
const OPTIMIZE_AFTER_ROWS = 32;

function optimizeFts(db: SqlDatabase, fts: FtsEngine): void {
  if (fts === 'none') return;
  db.run(`INSERT INTO tools_fts(tools_fts) VALUES ('optimize')`);
}

function setMeta(db: SqlDatabase, key: string, value: string): void {
  db.run('INSERT INTO tool_index_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
}

export function createSchema(db: SqlDatabase, fts: FtsEngine): void {
  db.exec(`
    CREATE TABLE tools (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      namespace TEXT NOT NULL,
      side_effects TEXT NOT NULL,
      loading_mode TEXT NOT NULL,
      record_hash TEXT NOT NULL,
      description TEXT NOT NULL,
      tags_json TEXT NOT NULL,
      ${TERM_COLUMNS.map((c) => `${c} TEXT NOT NULL`).join(',\n      ')}
    );
    CREATE TABLE tool_index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `);
  const cols = FTS_COLUMNS.join(', ');
  if (fts === 'fts5') {
    db.exec(`CREATE VIRTUAL TABLE tools_fts USING fts5(${cols}, content='tools', content_rowid='id');`);
  } else if (fts === 'fts4') {
    db.exec(`CREATE VIRTUAL TABLE tools_fts USING fts4(content="tools", ${cols});`);
  }
  createFtsTriggers(db, fts);
}

const FTS_TRIGGERS = ['tools_ai', 'tools_ad', 'tools_bd', 'tools_bu', 'tools_au'] as const;

function dropFtsTriggers(db: SqlDatabase): void {
  db.exec(FTS_TRIGGERS.map((t) => `DROP TRIGGER IF EXISTS ${t};`).join('\n'));
}

/** The triggers that keep `tools_fts` in sync with `tools` (external content). */
function createFtsTriggers(db: SqlDatabase, fts: FtsEngine): void {
  const cols = FTS_COLUMNS.join(', ');
  const newCols = FTS_COLUMNS.map((c) => `new.${c}`).join(', ');
  const oldCols = FTS_COLUMNS.map((c) => `old.${c}`).join(', ');
  if (fts === 'fts5') {
    db.exec(`
      CREATE TRIGGER tools_ai AFTER INSERT ON tools BEGIN
        INSERT INTO tools_fts(rowid, ${cols}) VALUES (new.id, ${newCols});
      END;
      CREATE TRIGGER tools_ad AFTER DELETE ON tools BEGIN
        INSERT INTO tools_fts(tools_fts, rowid, ${cols}) VALUES ('delete', old.id, ${oldCols});
      END;
      CREATE TRIGGER tools_au AFTER UPDATE ON tools BEGIN
        INSERT INTO tools_fts(tools_fts, rowid, ${cols}) VALUES ('delete', old.id, ${oldCols});
        INSERT INTO tools_fts(rowid, ${cols}) VALUES (new.id, ${newCols});
      END;
    `);
  } else if (fts === 'fts4') {
    // FTS4 external content: delete the old FTS row BEFORE the content row changes.
    db.exec(`
      CREATE TRIGGER tools_ai AFTER INSERT ON tools BEGIN
        INSERT INTO tools_fts(docid, ${cols}) VALUES (new.id, ${newCols});
      END;
      CREATE TRIGGER tools_bd BEFORE DELETE ON tools BEGIN
        DELETE FROM tools_fts WHERE docid = old.id;
      END;
      CREATE TRIGGER tools_bu BEFORE UPDATE ON tools BEGIN
        DELETE FROM tools_fts WHERE docid = old.id;
      END;
      CREATE TRIGGER tools_au AFTER UPDATE ON tools BEGIN
        INSERT INTO tools_fts(docid, ${cols}) VALUES (new.id, ${newCols});
      END;
    `);
  }
}

/** BM25 weights of the FTS columns (FTS_COLUMNS above) for the stage-1-only ablation. */
const STAGE1_COLUMN_WEIGHTS = [3, 2, 1, 0.7, 0.5];

/**
 * Stage 1 in SQL: FTS MATCH over `terms` (already analysed, OR-ed), scored by weighted BM25 (FTS5
 * `bm25()`, FTS4 `matchinfo`). Returns tool name → relevance (higher is better); rows whose id
 * names no tool are skipped.
 */
export function matchFtsCandidates(
  db: SqlDatabase,
  fts: 'fts4' | 'fts5',
  terms: readonly string[],
  nameOf: (id: number) => string | undefined,
): Map<string, number> {
  const out = new Map<string, number>();
  const expression = ftsOrExpression(terms);
  if (fts === 'fts5') {
    const rows = db.all<{ id: number; rel: number }>(
      `SELECT rowid AS id, -bm25(tools_fts, ${STAGE1_COLUMN_WEIGHTS.join(', ')}) AS rel FROM tools_fts WHERE tools_fts MATCH ?`,
      [expression],
    );
    for (const row of rows) {
      const name = nameOf(Number(row.id));
      if (name !== undefined) out.set(name, Number(row.rel));
    }
    return out;
  }
  const rows = db.arrays(`SELECT docid, matchinfo(tools_fts, 'pcnalx') FROM tools_fts WHERE tools_fts MATCH ?`, [expression]);
  for (const [id, blob] of rows) {
    const name = nameOf(Number(id));
    if (name !== undefined) out.set(name, bm25FromMatchinfoBlob(blob as Uint8Array, STAGE1_COLUMN_WEIGHTS));
  }
  return out;
}

/**
 * A row change not yet written to sql.js: the record and its term columns (joined at once, so a
 * large queue holds a few strings per tool, not every term), or `null` for a deletion.
 */
export type PendingRow = { record: ToolRecord; termColumns: string[] } | null;

/**
 * Writes the queued row changes to sql.js in one transaction: deletes, updates, multi-row
 * inserts. A large write (≥ BULK_MIN_ROWS and a quarter of what remains) drops the FTS triggers
 * and rebuilds the FTS index once instead of row by row; a write of OPTIMIZE_AFTER_ROWS or more
 * merges the FTS segments. `storedIds` (the ids sql.js holds) is kept in step.
 */
export function writePendingRows(
  db: SqlDatabase,
  fts: FtsEngine,
  pending: ReadonlyMap<number, PendingRow>,
  storedIds: Set<number>,
  meta: { catalogFingerprint: string; toolCount: number },
): void {
  const deletes: number[] = [];
  const updates: Array<[number, string[]]> = [];
  const inserts: unknown[][] = [];
  for (const [id, row] of pending) {
    if (row === null) {
      if (storedIds.has(id)) deletes.push(id);
    } else if (storedIds.has(id)) {
      updates.push([id, rowValues(row.record, row.termColumns)]);
    } else {
      inserts.push([id, ...rowValues(row.record, row.termColumns)]);
    }
  }
  const written = updates.length + inserts.length;
  db.transaction(() => {
    const remaining = storedIds.size - deletes.length;
    const bulk = fts !== 'none' && written >= BULK_MIN_ROWS && written * 4 >= remaining;
    if (bulk) dropFtsTriggers(db);
    if (deletes.length > 0 && deletes.length === storedIds.size) db.run('DELETE FROM tools');
    else for (const id of deletes) db.run('DELETE FROM tools WHERE id = ?', [id]);
    for (const [id, values] of updates) db.run(UPDATE_SQL, [...values, id]);
    for (let i = 0; i < inserts.length; i += INSERT_BATCH) {
      const batch = inserts.slice(i, i + INSERT_BATCH);
      db.run(insertSql(batch.length), batch.flat() as string[]);
    }
    if (bulk) {
      db.run(`INSERT INTO tools_fts(tools_fts) VALUES ('rebuild')`);
      createFtsTriggers(db, fts);
    }
    // Large writes leave FTS4/5 with many small segments, and every MATCH term then
    // searches each of them; one merge (milliseconds) keeps queries fast. Small changes
    // stay O(changed): the engine's own auto-merge bounds their segments.
    if (written >= OPTIMIZE_AFTER_ROWS) optimizeFts(db, fts);
    setMeta(db, 'catalog_fingerprint', meta.catalogFingerprint);
    setMeta(db, 'tool_count', String(meta.toolCount));
  });
  for (const id of deletes) storedIds.delete(id);
  for (const row of inserts) storedIds.add(row[0] as number);
}
