import type { SqlValue } from 'sql.js';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import type { TextAnalyzer } from '../../search/textAnalysis';
import type { SkillRecord } from '../skillSchema';
import { countedTerms, recordParams } from './skillRows';
import type { CountedFields } from '../../search/countedFields';
import { SKILL_COLUMNS, VOCABULARY_FINGERPRINT_KEY } from './skillStoreSchema';
import { insertPackedSkillsSql, packRow } from './skillRowCells';
import { encodeCounted } from '../../search/termStore';
import { setMetaValue } from '../../sql/persistentDatabase';
import type { TermVocabulary } from '../../search/termStore';
import type { CountedElsewhere } from '../../search/threadTerms';

/**
 * The SQL writes of skill rows and their analysed terms, one row or many per statement. sql.js
 * crosses into WebAssembly once per statement step, and a statement of many rows costs about what
 * one row does: an import of 10,000 skills spends most of its time in those crossings, not in
 * SQLite. Statements of each size are prepared once and reused (SqlDatabase caches them).
 */

/**
 * A row ready to insert: its INSERT parameters (skillRows.recordParams) and, where it can be, the
 * same row packed (skillRowCells.ts), analysed terms counted (vocabulary ids) and their stored form.
 */
export interface PreparedSkillRow {
  docId: number;
  params: SqlValue[];
  packed: SqlValue[] | undefined;
  terms: CountedFields;
  encoded: Uint8Array;
}

const BODY_COLUMN = SKILL_COLUMNS.indexOf('body');
const ID_COLUMN = SKILL_COLUMNS.indexOf('id');

/** Rows per multi-row statement: 100 × 39 columns stays far below SQLite's bound-parameter limit. */
const ROWS_PER_STATEMENT = 100;

export class SkillRowWriter {
  /**
   * Every row's id → doc id and back, read from the table when first needed, then kept in step
   * with each insert and delete: `prepare` checks a batch's ids without a query. Dropped after a
   * rollback (`forgetIds`: the store rebuilds its mirror then) and read again when next needed.
   */
  private ids: { byId: Map<string, number>; byDoc: Map<number, string> } | undefined;

  constructor(
    private readonly db: SqlDatabase,
    /** The store's term vocabulary. */
    private readonly vocabulary: TermVocabulary,
    /** Pack skills' bodies are read from their files (SkillStoreOptions.sourceBodies): stored empty. */
    private readonly bodiesInSource = false,
  ) {}

  /** Inserts prepared rows, their terms, and the vocabulary terms they introduced. */
  insert(rows: readonly PreparedSkillRow[]): void {
    this.insertVocabulary();
    for (const chunk of chunks(rows)) {
      for (const run of samePacking(chunk)) {
        if (run[0]?.packed)
          this.db.run(
            insertPackedSkillsSql(run.length),
            run.flatMap((row) => row.packed ?? []),
          );
        else
          this.db.run(
            insertSql('skills', SKILL_COLUMNS, run.length),
            run.flatMap((row) => row.params),
          );
      }
      this.insertTermRows(chunk);
    }
    if (this.ids) {
      for (const row of rows) {
        const id = String(row.params[ID_COLUMN]);
        this.ids.byId.set(id, row.docId);
        this.ids.byDoc.set(row.docId, id);
      }
    }
  }

  /** Stores the terms of rows that have none (and the vocabulary terms they introduced). */
  insertTerms(rows: ReadonlyArray<{ docId: number; encoded: Uint8Array }>): void {
    this.insertVocabulary();
    for (const chunk of chunks(rows)) this.insertTermRows(chunk);
  }

  private insertVocabulary(): void {
    const added = this.vocabulary.takePending();
    for (const chunk of chunks(added)) {
      this.db.run(insertSql('skill_vocab', ['id', 'term'], chunk.length), chunk.flat());
    }
    if (added.length) setMetaValue(this.db, VOCABULARY_FINGERPRINT_KEY, this.vocabulary.fingerprint);
  }

  private insertTermRows(rows: ReadonlyArray<{ docId: number; encoded: Uint8Array }>): void {
    if (rows.length === 0) return;
    this.db.run(
      insertSql('skill_terms', ['doc_id', 'terms'], rows.length),
      rows.flatMap((row) => [row.docId, row.encoded]),
    );
  }

  /** Deletes the rows (and terms) of these doc ids. */
  delete(docIds: readonly number[]): void {
    for (const chunk of chunks(docIds)) {
      const marks = chunk.map(() => '?').join(', ');
      this.db.run(`DELETE FROM skills WHERE doc_id IN (${marks})`, [...chunk]);
      this.db.run(`DELETE FROM skill_terms WHERE doc_id IN (${marks})`, [...chunk]);
    }
    if (this.ids) {
      for (const docId of docIds) {
        const id = this.ids.byDoc.get(docId);
        this.ids.byDoc.delete(docId);
        if (id !== undefined && this.ids.byId.get(id) === docId) this.ids.byId.delete(id);
      }
    }
  }

  /** Forgets the ids read (the table was rolled back): read again when next needed. */
  forgetIds(): void {
    this.ids = undefined;
  }

  /**
   * Doc ids, stored records and INSERT parameters for a batch of upserts. `existing[i]` is the
   * doc id `records[i]` replaces (kept), else it gets the next free one from `firstFreeDocId`.
   * `id` is the primary key: a record keeps its id unless another row holds it by then (a row
   * this batch replaces gives its id up when it is replaced, as one-by-one upserts would), else
   * it is stored as `<id>_<doc id>`. Serialising happens here, so a value that cannot be stored
   * fails before anything is written. Terms come from `analyzer`, or for `analysed[i]` given,
   * from there (counted on a parser thread: only relabelled to the vocabulary's ids).
   */
  prepare(
    records: readonly SkillRecord[],
    existing: ReadonlyArray<number | undefined>,
    firstFreeDocId: number,
    analyzer: TextAnalyzer,
    analysed?: ReadonlyArray<CountedElsewhere | undefined>,
  ): { prepared: Array<PreparedSkillRow & { stored: SkillRecord }>; nextDocId: number } {
    const vocabulary = this.vocabulary;
    const holders = this.idHolders(records.map((r) => r.id));
    const oldIds = this.idsOf(existing.filter((docId): docId is number => docId !== undefined));
    let nextDocId = firstFreeDocId;
    const prepared = records.map((record, i) => {
      const docId = existing[i] ?? nextDocId++;
      const oldId = oldIds.get(docId);
      if (oldId !== undefined && holders.get(oldId) === docId) holders.delete(oldId);
      const holder = holders.get(record.id);
      const stored = holder === undefined || holder === docId ? record : { ...record, id: `${record.id}_${docId}` };
      holders.set(stored.id, docId);
      const elsewhere = analysed?.[i];
      const terms = elsewhere ? elsewhere.session.relabel(elsewhere.counted, vocabulary) : countedTerms(record, analyzer, vocabulary);
      const params = recordParams(stored, docId);
      if (this.bodiesInSource && stored.origin === 'pack') params[BODY_COLUMN] = '';
      return { docId, stored, params, packed: packRow(params), terms, encoded: encodeCounted(terms) };
    });
    return { prepared, nextDocId };
  }

  /** Which of these ids rows already hold, and by which doc id. */
  idHolders(ids: readonly string[]): Map<string, number> {
    const { byId } = this.storedIds();
    const out = new Map<string, number>();
    for (const id of ids) {
      const docId = byId.get(id);
      if (docId !== undefined) out.set(id, docId);
    }
    return out;
  }

  /** The stored id of each of these doc ids. */
  idsOf(docIds: readonly number[]): Map<number, string> {
    const { byDoc } = this.storedIds();
    const out = new Map<number, string>();
    for (const docId of docIds) {
      const id = byDoc.get(docId);
      if (id !== undefined) out.set(docId, id);
    }
    return out;
  }

  private storedIds(): { byId: Map<string, number>; byDoc: Map<number, string> } {
    if (!this.ids) {
      const byId = new Map<string, number>();
      const byDoc = new Map<number, string>();
      this.db.each('SELECT id, doc_id FROM skills', ([id, docId]) => {
        byId.set(String(id), Number(docId));
        byDoc.set(Number(docId), String(id));
      });
      this.ids = { byId, byDoc };
    }
    return this.ids;
  }
}

function insertSql(table: string, columns: readonly string[], rows: number): string {
  const key = `${table} ${rows}`;
  let sql = plainSql.get(key);
  if (sql === undefined) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
    plainSql.set(key, sql);
  }
  return sql;
}

/** Statement texts by table and size, made once: a load inserts thousands of batches. */
const plainSql = new Map<string, string>();

/** `rows` split where being packed changes, in order. */
function* samePacking(rows: readonly PreparedSkillRow[]): Generator<PreparedSkillRow[]> {
  let start = 0;
  for (let i = 1; i <= rows.length; i++) {
    if (i === rows.length || !rows[i]?.packed !== !rows[start]?.packed) {
      yield rows.slice(start, i);
      start = i;
    }
  }
}

function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) yield items.slice(i, i + ROWS_PER_STATEMENT);
}
