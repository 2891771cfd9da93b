import { ownedString } from '../../platform/ownedText';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import { scopeModeSchema, taskTypeSchema } from '../../config/settingsSchema';
import type { TaskType } from '../../config/settingsSchema';
import type { SqlValue } from 'sql.js';
import type { TermIds, TextAnalyzer } from '../../search/textAnalysis';
import type { SkillOrigin, SkillRecord } from '../skillSchema';
import { SKILL_FIELDS } from './skillSearchIndex';
import type { SkillEntry, SkillField, SkillSearchIndex } from './skillSearchIndex';
import { countIds } from '../../search/termStore';
import { metaValue } from '../../sql/persistentDatabase';
import type { CountedFields } from '../../search/countedFields';
import type { TermVocabulary } from '../../search/termStore';
import { HostSlices } from '../../platform/hostSlices';
import { SKILL_COLUMN_STORAGE, SKILL_COLUMNS, VOCABULARY_FINGERPRINT_KEY } from './skillStoreSchema';

/** Conversions between SkillRecord, `skills` rows, mirror entries and stored terms. */

/** The values of a few-valued column, in the order `coded` numbers them. */
const TASK_TYPES = taskTypeSchema.options;
const ORIGINS: readonly SkillOrigin[] = ['pack', 'learned'];
const SCOPE_MODES = scopeModeSchema.options;
const STATUSES = ['active', 'inactive'] as const;

/** Where a few-valued column's value sits in `values`, in SQL (NULL for any other value). */
function position(column: string, values: readonly string[]): string {
  return `CASE ${column} ${values.map((value, i) => `WHEN '${value}' THEN ${i}`).join(' ')} END`;
}

/**
 * A row's few-valued columns and flags as one number (`entryFromRow` takes it apart), NULL when
 * one of them holds a value this build does not know: sql.js makes two calls into SQLite for each
 * column it returns, and a warm start reads every skill's row.
 */
const KINDS_SQL = `${position('task_type', TASK_TYPES)} + ${TASK_TYPES.length} * (${position('origin', ORIGINS)} + ${ORIGINS.length} * (${position('scope_mode', SCOPE_MODES)}
  + ${SCOPE_MODES.length} * (${position('status', STATUSES)} + ${STATUSES.length} * ((workspace = 1) + 2 * (model_invocable = 1)))))`;

/** Those columns as they are, for a row whose kinds are not all known (KINDS_SQL is NULL). */
const RAW_KINDS_SQL = 'SELECT task_type, origin, scope_mode, status, workspace, model_invocable FROM skills WHERE doc_id = ?';

/** Columns the in-memory mirror reads (see `entryFromRow`). */
// Columns usually empty (or `[]`) come as NULL, which `entryFromRow` reads as that value: sql.js
// decodes every text value it returns.
const ENTRY_COLUMNS_SQL = `doc_id, name, NULLIF(title, ''), trigger, NULLIF(description, ''), NULLIF(tags, '[]'), NULLIF(scope_tenant_id, ''),
  NULLIF(scope_project_id, ''), NULLIF(pack_name, ''), ${KINDS_SQL}`;

/**
 * INSERT parameters for a record, in SKILL_COLUMNS order. Everything that can fail (JSON of
 * values from a file) happens here, before the store touches the database.
 */
export function recordParams(record: SkillRecord, docId: number): SqlValue[] {
  return SKILL_COLUMNS.map((column) => {
    if (column === 'doc_id') return docId;
    // NULL: the same text as the description (schema version 7), read back as that (rowToRecord, entryFromRow).
    if (column === 'trigger' && record.trigger === record.description) return null;
    const value = record[column];
    // Most skills leave most list fields empty: their text is known without serialising.
    if (SKILL_COLUMN_STORAGE[column] === 'json') return Array.isArray(value) && value.length === 0 ? '[]' : JSON.stringify(value);
    if (SKILL_COLUMN_STORAGE[column] === 'flag') return value ? 1 : 0;
    return value as SqlValue;
  });
}

function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * A row as a record. `entry`, the row's mirror entry when the caller has it, lends its strings
 * where the row holds the same text, so a record kept in the store's read cache holds no second
 * copy of the texts the mirror already keeps. `lazyBody`, given, is the record's `body` instead of
 * the row's: an accessor every record of the store shares (a pack skill's body read from its
 * file). `body` is added last, after the literal: an accessor put in place of an existing
 * property, or one of its own per record, turns the record into a dictionary-mode object
 * (≈ 2.3 KB instead of ≈ 0.8 KB), and a search builds records by the hundred.
 */
export function rowToRecord(row: Record<string, unknown>, entry?: SkillEntry, lazyBody?: PropertyDescriptor): SkillRecord {
  const description = same(String(row.description ?? ''), entry?.description);
  const record: Omit<SkillRecord, 'body'> & { body?: string } = {
    id: String(row.id),
    name: same(String(row.name), entry?.name),
    title: same(String(row.title ?? ''), entry?.title),
    description,
    trigger: row.trigger === null || row.trigger === undefined ? description : same(String(row.trigger), entry?.trigger),
    task_type: String(row.task_type) as TaskType,
    tags: parseJson(row.tags, []),
    steps: parseJson(row.steps, []),
    preconditions: parseJson(row.preconditions, []),
    failure_modes: parseJson(row.failure_modes, []),
    origin: String(row.origin) as SkillOrigin,
    origin_ref: String(row.origin_ref ?? ''),
    content_hash: String(row.content_hash),
    scope_mode: String(row.scope_mode) as SkillRecord['scope_mode'],
    scope_tenant_id: String(row.scope_tenant_id ?? ''),
    scope_project_id: String(row.scope_project_id ?? ''),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    last_used: Number(row.last_used),
    use_count: Number(row.use_count),
    domain: String(row.domain ?? ''),
    frames: parseJson(row.frames, []),
    triggers: parseJson(row.triggers, []),
    tools: parseJson(row.tools, []),
    allowed_tools: parseJson(row.allowed_tools, []),
    requires: parseJson(row.requires, []),
    meta: parseJson(row.meta, {}),
    resources: parseJson(row.resources, []),
    extra: parseJson(row.extra, {}),
    pack_name: same(String(row.pack_name ?? ''), entry?.pack_name),
    workspace: Number(row.workspace) === 1,
    source_file: String(row.source_file ?? ''),
    source_line: Number(row.source_line ?? 1),
    format: String(row.format) as SkillRecord['format'],
    status: String(row.status) as SkillRecord['status'],
    status_reason: String(row.status_reason ?? ''),
    model_invocable: Number(row.model_invocable) === 1,
  };
  if (lazyBody) Object.defineProperty(record, 'body', lazyBody);
  else record.body = String(row.body ?? '');
  return record as SkillRecord;
}

/** The `body` accessor of records whose body is read from their file by `read` when first used (or set). */
export function lazyBodyOf(read: (record: SkillRecord) => string | undefined): PropertyDescriptor {
  const bodies = new WeakMap<SkillRecord, string>();
  return {
    enumerable: true,
    configurable: true,
    get(this: SkillRecord): string {
      let body = bodies.get(this);
      if (body === undefined) bodies.set(this, (body = read(this) ?? ''));
      return body;
    },
    set(this: SkillRecord, body: string): void {
      bodies.set(this, body);
    },
  };
}

/** `kept` when it is the same text as `text` (one string held instead of two), else `text`. */
function same(text: string, kept: string | undefined): string {
  return kept === text ? kept : text;
}

/** A mirror entry from a row of ENTRY_COLUMNS_SQL (`db` reads the kinds of a row whose KINDS_SQL is NULL). */
function entryFromRow(r: SqlValue[], db: SqlDatabase): SkillEntry {
  const description = String(r[4] ?? '');
  const docId = Number(r[0]);
  const entry: SkillEntry = {
    docId,
    name: String(r[1]),
    title: String(r[2] ?? ''),
    // Most skills' trigger is their description, stored as NULL: one string for both (≈ 2.7 MB at 10,000 real skills).
    trigger: r[3] === null ? description : same(String(r[3]), description),
    description,
    tagsText: String(r[5] ?? '[]'),
    task_type: TASK_TYPES[0],
    origin: ORIGINS[0]!,
    scope_mode: SCOPE_MODES[0],
    scope_tenant_id: String(r[6] ?? ''),
    scope_project_id: String(r[7] ?? ''),
    workspace: false,
    status: STATUSES[0],
    model_invocable: false,
    pack_name: String(r[8] ?? ''),
  };
  let kinds = r[9];
  if (typeof kinds !== 'number') {
    const raw = db.arrays(RAW_KINDS_SQL, [docId])[0] ?? [];
    entry.task_type = String(raw[0]) as TaskType;
    entry.origin = String(raw[1]) as SkillOrigin;
    entry.scope_mode = String(raw[2]) as SkillEntry['scope_mode'];
    entry.status = String(raw[3]) as SkillEntry['status'];
    entry.workspace = Number(raw[4]) === 1;
    entry.model_invocable = Number(raw[5]) === 1;
    return entry;
  }
  // One shared string per known value, not one decoded per row.
  entry.task_type = TASK_TYPES[kinds % TASK_TYPES.length]!;
  kinds = Math.floor(kinds / TASK_TYPES.length);
  entry.origin = ORIGINS[kinds % ORIGINS.length]!;
  kinds = Math.floor(kinds / ORIGINS.length);
  entry.scope_mode = SCOPE_MODES[kinds % SCOPE_MODES.length]!;
  kinds = Math.floor(kinds / SCOPE_MODES.length);
  entry.status = STATUSES[kinds % STATUSES.length]!;
  kinds = Math.floor(kinds / STATUSES.length);
  entry.workspace = (kinds & 1) === 1;
  entry.model_invocable = (kinds & 2) === 2;
  return entry;
}

export function entryOf(record: SkillRecord, docId: number): SkillEntry {
  const description = ownedString(record.description);
  return {
    docId,
    // Kept for the life of the store: copies, not views into the file text they were parsed from.
    name: ownedString(record.name),
    title: ownedString(record.title),
    trigger: record.trigger === record.description ? description : ownedString(record.trigger),
    description,
    tagsText: JSON.stringify(record.tags),
    task_type: record.task_type,
    origin: record.origin,
    pack_name: record.pack_name,
    scope_mode: record.scope_mode,
    scope_tenant_id: record.scope_tenant_id,
    scope_project_id: record.scope_project_id,
    workspace: record.workspace,
    status: record.status,
    model_invocable: record.model_invocable,
  };
}

/** What a skill's search terms are analysed from: a record's, or a parse's, fields (a parser thread analyses the parse). */
export type AnalysedContent = Pick<
  SkillRecord,
  'name' | 'title' | 'trigger' | 'description' | 'tags' | 'triggers' | 'domain' | 'frames' | 'task_type' | 'steps' | 'preconditions' | 'failure_modes' | 'body'
>;

/**
 * A skill's analysed terms per field, counted with the store's vocabulary ids (stored compactly in
 * `skill_terms`, search/termStore.ts); `analyzer` is the store's own (its word memo spans every
 * skill and remembers each word's vocabulary id).
 */
export function countedTerms(record: AnalysedContent, analyzer: TextAnalyzer, vocabulary: TermIds): CountedFields {
  const tags = [...record.tags, ...record.triggers, record.domain, ...record.frames, record.task_type].join(' ');
  const content = [...record.steps, ...record.preconditions, ...record.failure_modes, record.body.slice(0, 4000)].join('\n');
  const texts: Record<SkillField, string> = {
    name: record.name,
    title: record.title,
    trigger: record.trigger,
    description: record.description,
    tags,
    content,
  };
  // A skill's name keeps its stop words ("get", "by" matter in a name). A description that is the
  // trigger's text (most SKILL.md skills take their trigger from it) is analysed once: countIds
  // only reads the fields it is given.
  const same = record.description === record.trigger;
  const fields = SKILL_FIELDS.map((field) =>
    same && field === 'description' ? undefined : analyzer.analyzeIds(texts[field], vocabulary, { keepStopWords: field === 'name' }),
  );
  return countIds(fields.map((ids) => ids ?? (fields[TRIGGER_FIELD] as Uint32Array)));
}

const TRIGGER_FIELD = SKILL_FIELDS.indexOf('trigger');

const SCOPES = new Set(['project', 'tenant', 'global']);

/**
 * Everything the store reads on open, read once: `add` gets every row as a mirror entry with its
 * stored terms (the blob of its analysed terms counted with the stored vocabulary, loaded into
 * `vocabulary`), one skill at a time; `add` decodes them (`TermVocabulary.storeInto`). Throws on
 * damage the page-level integrity check cannot see (a flipped byte inside a row, the vocabulary
 * or — through `add`'s decoding — a term blob), so the database is rebuilt rather than failing on
 * first use. A row stored without terms (a store written when sql.js had no full-text engine kept
 * none) comes last, without terms: the store analyses it then. A step per row read (a generator),
 * so that the open can give the event loop a turn between steps (`fillMirrorInSlices`).
 */
function* readMirror(db: SqlDatabase, vocabulary: TermVocabulary, add: (entry: SkillEntry, terms?: Uint8Array) => void): Generator<void, void, undefined> {
  const byDoc = new Map<number, SkillEntry>();
  for (const r of db.iterate(`SELECT ${ENTRY_COLUMNS_SQL} FROM skills`)) {
    const entry = entryFromRow(r, db);
    if (!entry.name || !SCOPES.has(entry.scope_mode)) throw new Error(`row ${entry.docId} is damaged (name "${entry.name}", scope "${entry.scope_mode}")`);
    byDoc.set(entry.docId, entry);
    yield;
  }
  // Ids are handed out densely from 0: one outside that range is damage (and would size tables).
  const vocabularyRows = Number(db.arrays('SELECT COUNT(*) FROM skill_vocab')[0]?.[0] ?? 0);
  vocabulary.clear();
  for (const r of db.iterate('SELECT id, term FROM skill_vocab')) {
    const id = Number(r[0]);
    if (!Number.isInteger(id) || id < 0 || id >= vocabularyRows) throw new Error(`vocabulary row ${String(r[0])} is damaged`);
    vocabulary.addStored(id, String(r[1]));
    yield;
  }
  const stored = metaValue(db, VOCABULARY_FINGERPRINT_KEY);
  if (stored !== undefined && stored !== vocabulary.fingerprint) throw new Error('the term vocabulary is damaged (its fingerprint differs)');
  for (const [docId, blob] of db.iterate('SELECT doc_id, terms FROM skill_terms')) {
    if (typeof docId !== 'number' || !Number.isInteger(docId)) throw new Error(`a term row's id is damaged (${String(docId)})`);
    const entry = byDoc.get(docId);
    if (!entry) continue;
    if (!(blob instanceof Uint8Array)) throw new Error(`terms of row ${entry.docId} are damaged`);
    add(entry, blob);
    byDoc.delete(entry.docId);
    yield;
  }
  for (const entry of byDoc.values()) add(entry);
}

/**
 * The steps of filling the mirror with every stored skill, its stored terms decoded straight into
 * the index's packed statistics (relabelled to the index's term ids: nothing analysed, no term
 * list or counted arrays made); `withoutTerms` gets the doc ids of rows stored without terms.
 */
function mirrorSteps(index: SkillSearchIndex, db: SqlDatabase, vocabulary: TermVocabulary, withoutTerms: number[]): Generator<void, void, undefined> {
  index.clear();
  return readMirror(db, vocabulary, (entry, blob) => {
    if (blob) {
      index.setStored(entry, blob, vocabulary);
      return;
    }
    withoutTerms.push(entry.docId);
    index.set(entry);
  });
}

/** Fills the mirror in one stretch (see `mirrorSteps`); returns the doc ids of rows stored without terms. Throws on damage (see readMirror). */
export function fillMirror(index: SkillSearchIndex, db: SqlDatabase, vocabulary: TermVocabulary): number[] {
  const withoutTerms: number[] = [];
  for (const step of mirrorSteps(index, db, vocabulary, withoutTerms)) void step;
  return withoutTerms;
}

/** Rows read between two looks at the slice clock (a look is cheap; a row is a few microseconds). */
const ROWS_PER_LOOK = 16;

/**
 * `fillMirror` in slices of `slices`' length, the event loop given a turn between them: the open
 * of a large store (9,000 skills: 0.3–0.5 s of reading) no longer holds the thread in one stretch,
 * so the extension host answers the workbench's calls (another extension's tool, the crossings of
 * Toolshed's own first tool call) while it runs. Nothing else reads the database meanwhile: the
 * store is not handed out before its open ends.
 */
export async function fillMirrorInSlices(index: SkillSearchIndex, db: SqlDatabase, vocabulary: TermVocabulary, slices = new HostSlices()): Promise<number[]> {
  const withoutTerms: number[] = [];
  let rows = 0;
  for (const step of mirrorSteps(index, db, vocabulary, withoutTerms)) {
    void step;
    if (++rows % ROWS_PER_LOOK === 0) await slices.pause();
  }
  return withoutTerms;
}

/** What the Skill Directory's tree reads of each stored skill (skillTree.ts). */
export type SkillTreeRecord = Pick<
  SkillRecord,
  | 'name'
  | 'title'
  | 'status'
  | 'status_reason'
  | 'source_file'
  | 'source_line'
  | 'format'
  | 'origin'
  | 'pack_name'
  | 'scope_mode'
  | 'scope_tenant_id'
  | 'scope_project_id'
>;

/**
 * Names of the SKILL.md skills whose stored resources (what the load listed of their folders, and a
 * warm start checks) hold a file under `scripts/`: what skill-script discovery reads. LIKE ignores
 * ASCII case, so this may name a few more; the caller checks each record.
 */
export function readNamesWithScripts(db: SqlDatabase): string[] {
  return db.arrays(`SELECT DISTINCT name FROM skills WHERE format = 'skill-md' AND resources LIKE '%"scripts/%' ORDER BY name`).map((r) => String(r[0]));
}

/** The pack skills of these packs, by name, with their files. */
export function readPackSkillFiles(db: SqlDatabase, packNames: readonly string[]): Array<{ name: string; file: string; origin: 'pack' }> {
  if (packNames.length === 0) return [];
  return db
    .arrays(`SELECT name, source_file FROM skills WHERE origin = 'pack' AND pack_name IN (${packNames.map(() => '?').join(', ')}) ORDER BY name`, [
      ...packNames,
    ])
    .map((r) => ({ name: String(r[0]), file: String(r[1] ?? ''), origin: 'pack' as const }));
}

/** A stored skill's source file, by its doc id ('' when it has none or is gone). */
export function readSourceFile(db: SqlDatabase, docId: number): string {
  return String(db.arrays('SELECT source_file FROM skills WHERE doc_id = ?', [docId])[0]?.[0] ?? '');
}

/** Every skill's `SkillTreeRecord`, in `SkillStore.all()` order: those columns only, no record decoded. */
export function readTreeRecords(db: SqlDatabase): SkillTreeRecord[] {
  return db
    .arrays(
      `SELECT name, title, status, status_reason, source_file, source_line, format, origin, pack_name, scope_mode, scope_tenant_id, scope_project_id
        FROM skills ORDER BY name, scope_mode, scope_tenant_id, scope_project_id`,
    )
    .map((r) => ({
      name: String(r[0]),
      title: String(r[1] ?? ''),
      status: String(r[2]) as SkillRecord['status'],
      status_reason: String(r[3] ?? ''),
      source_file: String(r[4] ?? ''),
      source_line: Number(r[5] ?? 1),
      format: String(r[6]) as SkillRecord['format'],
      origin: String(r[7]) as SkillOrigin,
      pack_name: String(r[8] ?? ''),
      scope_mode: String(r[9]) as SkillRecord['scope_mode'],
      scope_tenant_id: String(r[10] ?? ''),
      scope_project_id: String(r[11] ?? ''),
    }));
}
