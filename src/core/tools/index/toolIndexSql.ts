import type { SqlDatabase } from '../../sql/sqlDatabase';
import type { ToolRecord } from '../toolRecord';

/**
 * The tool index's sql.js side (toolIndex.ts): schema and the row statements its deferred writes
 * use. Each tool's analysed terms are kept in the shared term store's counted form
 * (search/termStore.ts: one `terms` blob per tool over the `tool_vocab` vocabulary), the form the
 * skill store keeps; nothing here depends on the SQL engine's full-text search.
 */

const ROW_COLUMNS = ['name', 'namespace', 'side_effects', 'loading_mode', 'record_hash', 'description', 'tags_json', 'terms'] as const;

const UPDATE_SQL = `UPDATE tools SET ${ROW_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`;
/** Rows per multi-row INSERT (× 9 columns stays under SQLite's 999 bound parameters). */
const INSERT_BATCH = 100;
const ROW_PLACEHOLDERS = `(${['id', ...ROW_COLUMNS].map(() => '?').join(', ')})`;
function insertSql(rows: number): string {
  return `INSERT INTO tools (id, ${ROW_COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => ROW_PLACEHOLDERS).join(', ')}`;
}
/** Vocabulary rows per multi-row INSERT (× 2 columns). */
const VOCABULARY_BATCH = 400;

/** Where the term vocabulary's fingerprint is kept (`tool_index_meta`; search/termStore.ts). */
export const VOCABULARY_FINGERPRINT_KEY = 'vocabulary_fingerprint';

function rowValues(record: ToolRecord, terms: Uint8Array): Array<string | Uint8Array> {
  return [record.name, record.namespace, record.sideEffects, record.loadingMode, record.recordHash, record.description, JSON.stringify(record.tags), terms];
}

function setMeta(db: SqlDatabase, key: string, value: string): void {
  db.run('INSERT INTO tool_index_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
}

export function createSchema(db: SqlDatabase): void {
  createToolTables(db);
  db.exec('CREATE TABLE tool_index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);');
}

function createToolTables(db: SqlDatabase): void {
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
      terms BLOB NOT NULL
    );
    CREATE TABLE tool_vocab (id INTEGER PRIMARY KEY, term TEXT NOT NULL);
  `);
}

/**
 * The upgrade from schema 4 (analysed term text columns and a `tools_fts` table kept by
 * triggers): the index's own tables are dropped and made again empty — the host's next catalog
 * sync indexes every tool, as after a cold start — while the tables that share the file and are
 * not derived from the catalog (the pick log, cached vectors) are kept.
 */
export const SCHEMA_4_UPGRADES = (['fts5', 'fts4', 'none'] as const).map((fts) => ({
  from: `tools/4/${fts}`,
  migrate(db: SqlDatabase): void {
    db.exec(['tools_ai', 'tools_ad', 'tools_bd', 'tools_bu', 'tools_au'].map((t) => `DROP TRIGGER IF EXISTS ${t};`).join('\n'));
    db.exec('DROP TABLE IF EXISTS tools_fts; DROP TABLE tools; DELETE FROM tool_index_meta;');
    createToolTables(db);
  },
}));

/**
 * For stored bytes Toolshed did not write or check last (persistentDatabase's `distrust`): SQLite's
 * check cannot see a changed byte inside a row, and a term blob that still decodes, or a record
 * hash the catalog still matches, would be served as this catalog's index. Everything here is
 * derived from the catalog, so it is dropped — the tool rows, their vocabulary and fingerprints,
 * and the cached tool vectors — and the host's next catalog sync indexes every tool again, as on a
 * cold start. The pick log (what the model picked: not derived) is kept.
 */
export function forgetDerivedRows(db: SqlDatabase): void {
  db.transaction(() => {
    db.exec('DELETE FROM tools; DELETE FROM tool_vocab; DELETE FROM tool_index_meta;');
    if (db.get("SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = 'embedding_vectors'")) db.exec('DELETE FROM embedding_vectors');
  });
}

/** A row change to write: the record and its counted terms' blob, or `null` for a deletion. */
export type StoredTerms = { record: ToolRecord; terms: Uint8Array } | null;

/**
 * Writes the queued row changes and the vocabulary's new terms to sql.js in one transaction:
 * deletes, updates, multi-row inserts. `storedIds` (the ids sql.js holds) is kept in step.
 */
export function writePendingRows(
  db: SqlDatabase,
  pending: ReadonlyMap<number, StoredTerms>,
  storedIds: Set<number>,
  meta: { catalogFingerprint: string; toolCount: number; newTerms: ReadonlyArray<readonly [number, string]>; vocabularyFingerprint: string },
): void {
  const deletes: number[] = [];
  const updates: Array<[number, Array<string | Uint8Array>]> = [];
  const inserts: unknown[][] = [];
  for (const [id, row] of pending) {
    if (row === null) {
      if (storedIds.has(id)) deletes.push(id);
    } else if (storedIds.has(id)) {
      updates.push([id, rowValues(row.record, row.terms)]);
    } else {
      inserts.push([id, ...rowValues(row.record, row.terms)]);
    }
  }
  db.transaction(() => {
    for (let i = 0; i < meta.newTerms.length; i += VOCABULARY_BATCH) {
      const batch = meta.newTerms.slice(i, i + VOCABULARY_BATCH);
      db.run(`INSERT INTO tool_vocab (id, term) VALUES ${batch.map(() => '(?, ?)').join(', ')}`, batch.flat());
    }
    if (deletes.length > 0 && deletes.length === storedIds.size) db.run('DELETE FROM tools');
    else for (const id of deletes) db.run('DELETE FROM tools WHERE id = ?', [id]);
    for (const [id, values] of updates) db.run(UPDATE_SQL, [...values, id]);
    for (let i = 0; i < inserts.length; i += INSERT_BATCH) {
      const batch = inserts.slice(i, i + INSERT_BATCH);
      db.run(insertSql(batch.length), batch.flat() as Array<string | Uint8Array>);
    }
    setMeta(db, 'catalog_fingerprint', meta.catalogFingerprint);
    setMeta(db, 'tool_count', String(meta.toolCount));
    setMeta(db, VOCABULARY_FINGERPRINT_KEY, meta.vocabularyFingerprint);
  });
  for (const id of deletes) storedIds.delete(id);
  for (const row of inserts) storedIds.add(row[0] as number);
}
