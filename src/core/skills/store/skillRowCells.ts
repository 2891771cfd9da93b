import type { SqlValue } from 'sql.js';
import { SKILL_DOCUMENT_FORMATS, scopeModeSchema, taskTypeSchema } from '../../config/settingsSchema';
import { SKILL_COLUMN_STORAGE, SKILL_COLUMNS } from './skillStoreSchema';
import type { SkillColumn } from './skillStoreSchema';

/**
 * How a `skills` row's cells are bound. sql.js binds a string by allocating WebAssembly memory,
 * encoding it in JavaScript, binding it and freeing it after the step — several crossings per
 * cell — and a number with one call. A row is "packed": its texts are encoded once, into one
 * blob bound as the row's last parameter, and each text cell is bound as a number the statement
 * turns back into the text — a common text (empty, an empty list, an enum's value; CELL_CONSTANTS)
 * or a trigger's NULL as its negative code, any other text as its place in the blob (`CAST(substr(blob, …) AS TEXT)`,
 * the same UTF-8 bytes binding the string stores). Only those constants are ever written into the
 * statement; every value read from a skill file is bound. A row a blob cannot carry exactly (a
 * text column holding anything but a string, or a string with a lone surrogate, which sql.js and
 * the standard encoder write differently) is inserted with every value bound as it is.
 */

const EMPTY_TEXT = [''];
/** NULL where a column's value is implied by another (a trigger that repeats the description: skillRows.recordParams). */
const CELL_CONSTANTS: Partial<Record<SkillColumn, ReadonlyArray<string | null>>> = {
  scope_mode: scopeModeSchema.options,
  scope_tenant_id: EMPTY_TEXT,
  scope_project_id: EMPTY_TEXT,
  title: EMPTY_TEXT,
  description: EMPTY_TEXT,
  trigger: [null, ''],
  task_type: taskTypeSchema.options,
  body: EMPTY_TEXT,
  origin: ['pack', 'learned'],
  origin_ref: EMPTY_TEXT,
  domain: EMPTY_TEXT,
  pack_name: EMPTY_TEXT,
  source_file: EMPTY_TEXT,
  format: [...SKILL_DOCUMENT_FORMATS, 'learned'],
  status: ['active', 'inactive'],
  status_reason: EMPTY_TEXT,
};
for (const column of SKILL_COLUMNS) {
  const storage: string = SKILL_COLUMN_STORAGE[column];
  if (storage === 'json') CELL_CONSTANTS[column] = column === 'meta' || column === 'extra' ? ['{}'] : ['[]'];
}

/** The INTEGER columns (bound as they are); every other column is TEXT (a number in one missing here only makes its row bound as it is). */
const INTEGER_COLUMNS: ReadonlySet<SkillColumn> = new Set([
  'doc_id',
  'created_at',
  'updated_at',
  'last_used',
  'use_count',
  'workspace',
  'source_line',
  'model_invocable',
]);
const IS_TEXT = SKILL_COLUMNS.map((column) => !INTEGER_COLUMNS.has(column));

/** Per SKILL_COLUMNS position, each constant's code (−1, −2, …). */
const CODES: ReadonlyArray<ReadonlyMap<string | null, number>> = SKILL_COLUMNS.map(
  (column) => new Map((CELL_CONSTANTS[column] ?? []).map((text, i) => [text, -1 - i])),
);

/** A text's place in its row's blob: byte offset × 2^24 + byte length (exact in a double below 2^53). */
const LENGTH_BITS = 24;
const PLACE_SCALE = 2 ** LENGTH_BITS;
const MAX_LENGTH = PLACE_SCALE - 1;

const encoder = new TextEncoder();
/** With the `u` flag only a surrogate without its pair matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
const NON_ASCII = /[^\x00-\x7F]/;
const scratch = new Uint8Array(64 * 1024);

/** A packed row's parameters (its cells, then its blob), or undefined where it must be bound as it is. */
export function packRow(params: readonly SqlValue[]): SqlValue[] | undefined {
  const packed: SqlValue[] = new Array<SqlValue>(params.length + 1);
  // The texts to encode, by cell; an all-ASCII row (most are) is one string whose bytes are its characters.
  const texts: Array<string | undefined> = new Array<string | undefined>(params.length);
  let ascii = true;
  let length = 0;
  for (let i = 0; i < params.length; i++) {
    const value = params[i] as SqlValue;
    if (!IS_TEXT[i]) {
      packed[i] = value;
      continue;
    }
    const code = CODES[i]!.get(value as string | null);
    if (code !== undefined) {
      packed[i] = code;
      continue;
    }
    if (typeof value !== 'string') return undefined;
    if (ascii && NON_ASCII.test(value)) ascii = false;
    if (!ascii && LONE_SURROGATE.test(value)) return undefined;
    texts[i] = value;
    length += value.length;
  }
  if (ascii) {
    if (length > MAX_LENGTH) return undefined;
    let offset = 0;
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      if (text === undefined) continue;
      packed[i] = offset * PLACE_SCALE + text.length;
      offset += text.length;
    }
    packed[params.length] = encoder.encode(texts.join(''));
    return packed;
  }
  // A row too long for the kept buffer gets its own (not kept: one huge text must not hold memory for the process's life).
  const buffer = length * 3 > scratch.length ? new Uint8Array(length * 3) : scratch;
  let offset = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i];
    if (text === undefined) continue;
    const { written } = encoder.encodeInto(text, buffer.subarray(offset));
    if (written > MAX_LENGTH) return undefined;
    packed[i] = offset * PLACE_SCALE + written;
    offset += written;
  }
  packed[params.length] = buffer.slice(0, offset);
  return packed;
}

/** Statement texts by size (index: rows − 1), made once: a load inserts thousands of batches. */
const packedSql: string[] = [];

/** A multi-row INSERT into `skills` of packed rows (`packRow`). */
export function insertPackedSkillsSql(rows: number): string {
  const known = packedSql[rows - 1];
  if (known !== undefined) return known;
  const width = SKILL_COLUMNS.length + 1;
  const values: string[] = [];
  for (let r = 0; r < rows; r++) {
    const blob = `?${r * width + width}`;
    const cells = SKILL_COLUMNS.map((column, c) => {
      const n = `?${r * width + c + 1}`;
      if (!IS_TEXT[c]) return n;
      const slice = `CAST(substr(${blob}, (${n} >> ${LENGTH_BITS}) + 1, ${n} & ${MAX_LENGTH}) AS TEXT)`;
      const constants = CELL_CONSTANTS[column] ?? [];
      if (constants.length === 0) return slice;
      const literal = (text: string | null) => (text === null ? 'NULL' : `'${text.replaceAll("'", "''")}'`);
      return `CASE ${n} ${constants.map((text, i) => `WHEN ${-1 - i} THEN ${literal(text)}`).join(' ')} ELSE ${slice} END`;
    });
    values.push(`(${cells.join(', ')})`);
  }
  const sql = `INSERT INTO skills (${SKILL_COLUMNS.join(', ')}) VALUES ${values.join(', ')}`;
  packedSql[rows - 1] = sql;
  return sql;
}
