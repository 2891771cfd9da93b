import type { ByteStore, Clock, Logger } from '../../platform/ports';
import type { FtsEngine, SqlEngine } from '../../sql/sqlEngine';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import { openPersistentDatabase } from '../../sql/persistentDatabase';
import type { PersistentDatabase } from '../../sql/persistentDatabase';
import { ftsOrExpression, selectSelectiveTerms } from '../../search/ftsBm25';
import { analyze, uniqueTerms } from '../../search/textAnalysis';
import type { TaskType } from '../../config/settingsSchema';
import type { SkillOrigin, SkillRecord } from '../skillSchema';
import { entryPredicate, SKILL_FTS_FIELDS, SkillSearchIndex } from './skillSearchIndex';
import type { EntryFilter, SkillEntry, SkillFieldTerms } from './skillSearchIndex';

/**
 * SkillStore: the `skills` table of the reference schema (RFC §3.4) on sql.js, with a full-text
 * index `skills_fts` (FTS5 when the build has it, else FTS4, else none — then searches fall back
 * to regex/exact), persisted atomically through the ByteStore.
 *
 * FTS rows hold *analysed* text (identifier splitting, stop words, Porter stems — the same
 * `analyze` runs on queries), keyed by `skills.doc_id` (a stable integer; we never rely on the
 * implicit rowid). Scope columns use '' for "none" so comparisons never meet NULL.
 *
 * Search runs in two stages: the FTS index yields candidate doc ids (one aggregated row, no
 * per-row decoding), and an in-memory mirror (`SkillSearchIndex`: light entries + BM25F term
 * statistics of the same analysed columns) filters and ranks them. The mirror is written with
 * every row and rebuilt from the database on open and after a rolled-back transaction.
 */

export const SKILLS_DB_KEY = 'skills.db';
const SCHEMA = 'skills/1';

/** Columns of `skills_fts`. */
const FTS_COLUMNS = SKILL_FTS_FIELDS;
/**
 * Stage 1 budgets (summed document frequencies of the terms in a MATCH): up to OR_BUDGET postings
 * every document containing any query term is ranked (exact BM25F top-k); above it, documents
 * containing all of several selective terms (up to AND_BUDGET postings read) are ranked, relaxed
 * when that gives fewer than `limit` (see `searchFts`).
 */
const OR_BUDGET = 600;
const AND_BUDGET = 12000;
/** Relaxation starts where at least `limit × EXPECTED_MARGIN` documents are expected. */
const EXPECTED_MARGIN = 1.5;
/** At most this many AND MATCHes per search before the rarest-term fallback. */
const MAX_MATCHES = 6;

/** Who is asking: scope + whether workspace-sourced packs may be used (false when untrusted). */
export type StoreFilter = EntryFilter;

export interface SearchHit {
  name: string;
  title: string;
  trigger: string;
  task_type: TaskType;
  /** Raw relevance (BM25, higher is better) — normalised by the caller. */
  relevance: number;
}

export interface SkillStoreOptions {
  engine: SqlEngine;
  store: ByteStore;
  logger: Logger;
  clock: Clock;
  key?: string;
  forceRebuild?: boolean;
}

export class SkillStore {
  private nextDocId: number;
  private readonly index: SkillSearchIndex;

  private constructor(
    private readonly persistent: PersistentDatabase,
    readonly fts: FtsEngine,
  ) {
    this.nextDocId = (this.db.get<{ m: number }>('SELECT COALESCE(MAX(doc_id), 0) AS m FROM skills')?.m ?? 0) + 1;
    this.index = new SkillSearchIndex(fts !== 'none');
    this.loadMirror();
  }

  static async open(options: SkillStoreOptions): Promise<SkillStore> {
    const fts = options.engine.fts;
    const persistent = await openPersistentDatabase({
      engine: options.engine,
      store: options.store,
      key: options.key ?? SKILLS_DB_KEY,
      schemaVersion: `${SCHEMA}/${fts}`,
      createSchema: (db) => createSchema(db, fts),
      logger: options.logger,
      clock: options.clock,
      forceRebuild: options.forceRebuild,
    });
    return new SkillStore(persistent, fts);
  }

  get db(): SqlDatabase {
    return this.persistent.db;
  }

  /** `created` | `loaded` | `rebuilt` and why (corrupt file kept aside as `backupKey`). */
  get openInfo(): { status: string; reason?: string; backupKey?: string } {
    return { status: this.persistent.status, reason: this.persistent.rebuildReason, backupKey: this.persistent.backupKey };
  }

  save(): Promise<void> {
    return this.persistent.save();
  }

  close(): void {
    this.persistent.close();
  }

  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn);
    } catch (error) {
      // The database rolled back; bring the mirror back in line with it.
      this.loadMirror();
      throw error;
    }
  }

  count(): number {
    return this.index.size;
  }

  /**
   * Merges the FTS index into one segment (FTS4/FTS5 'optimize'): after a bulk load this makes
   * every later MATCH read one doclist per term instead of one per segment.
   */
  optimizeFts(): void {
    if (this.fts === 'none') return;
    this.db.run('INSERT INTO skills_fts(skills_fts) VALUES(\'optimize\')');
  }

  /** Whether a skill of that name exists (in-memory; no SQL). */
  has(name: string): boolean {
    return this.index.get(name) !== undefined;
  }

  get(name: string): SkillRecord | undefined {
    if (!this.index.get(name)) return undefined;
    const row = this.db.get('SELECT * FROM skills WHERE name = ?', [name]);
    return row ? rowToRecord(row) : undefined;
  }

  /** Identity + hash of the skills defined by one file (pack origin). */
  bySource(file: string): Array<{ name: string; content_hash: string; status: string; status_reason: string; source_line: number }> {
    return this.db.all('SELECT name, content_hash, status, status_reason, source_line FROM skills WHERE origin = \'pack\' AND source_file = ?', [file]) as never;
  }

  /** Name and defining file of every pack skill (no full records). */
  packSources(): Array<{ name: string; source_file: string }> {
    return this.db.all<{ name: string; source_file: string }>('SELECT name, source_file FROM skills WHERE origin = \'pack\' ORDER BY name');
  }

  /** Names of pack skills (optionally of one pack); from memory. */
  packSkillNames(packName?: string): string[] {
    const names: string[] = [];
    for (const e of this.index.entries()) if (e.origin === 'pack' && (packName === undefined || e.pack_name === packName)) names.push(e.name);
    return names;
  }

  /** How many pack skills a pack has (from memory, O(1)). */
  packSkillCount(packName: string): number {
    return this.index.packCount(packName);
  }

  all(filter?: StoreFilter): SkillRecord[] {
    if (!filter) return this.db.all('SELECT * FROM skills ORDER BY name').map(rowToRecord);
    const where = filterSql(filter);
    return this.db.all(`SELECT * FROM skills s WHERE ${where.sql} ORDER BY s.name`, where.params).map(rowToRecord);
  }

  upsert(record: SkillRecord): void {
    const existing = this.index.get(record.name);
    const docId = existing?.docId ?? this.nextDocId++;
    if (existing) this.db.run('DELETE FROM skills WHERE name = ?', [record.name]);
    this.db.run(
      `INSERT INTO skills (id, doc_id, scope_mode, scope_tenant_id, scope_project_id, name, title, description, trigger, task_type,
        tags, steps, preconditions, failure_modes, body, origin, origin_ref, content_hash, created_at, updated_at, last_used,
        use_count, domain, frames, triggers, tools, allowed_tools, requires, meta, resources, extra, pack_name, workspace,
        source_file, source_line, format, status, status_reason, model_invocable)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        record.id, docId, record.scope_mode, record.scope_tenant_id, record.scope_project_id, record.name, record.title,
        record.description, record.trigger, record.task_type, JSON.stringify(record.tags), JSON.stringify(record.steps),
        JSON.stringify(record.preconditions), JSON.stringify(record.failure_modes), record.body, record.origin,
        record.origin_ref, record.content_hash, record.created_at, record.updated_at, record.last_used, record.use_count,
        record.domain, JSON.stringify(record.frames), JSON.stringify(record.triggers), JSON.stringify(record.tools),
        JSON.stringify(record.allowed_tools), JSON.stringify(record.requires), JSON.stringify(record.meta),
        JSON.stringify(record.resources), JSON.stringify(record.extra), record.pack_name, record.workspace ? 1 : 0,
        record.source_file, record.source_line, record.format, record.status, record.status_reason, record.model_invocable ? 1 : 0,
      ],
    );
    let terms: SkillFieldTerms | undefined;
    if (this.fts !== 'none') {
      const idColumn = this.fts === 'fts5' ? 'rowid' : 'docid';
      if (existing) this.db.run(`DELETE FROM skills_fts WHERE ${idColumn} = ?`, [docId]);
      terms = ftsTerms(record);
      this.db.run(`INSERT INTO skills_fts (${idColumn}, ${FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [docId, ...FTS_COLUMNS.map((c) => terms![c].join(' '))]);
    }
    this.index.set(entryOf(record, docId), terms);
  }

  /** Updates only status columns (requirements re-checked; content unchanged). */
  setStatus(name: string, status: 'active' | 'inactive', reason: string): void {
    this.db.run('UPDATE skills SET status = ?, status_reason = ? WHERE name = ?', [status, reason, name]);
    const entry = this.index.get(name);
    if (entry) entry.status = status;
  }

  /** Moves a skill's recorded definition (file/line) without touching content. */
  setSource(name: string, file: string, line: number): void {
    this.db.run('UPDATE skills SET source_file = ?, source_line = ? WHERE name = ?', [file, line, name]);
  }

  delete(name: string): boolean {
    const entry = this.index.get(name);
    if (!entry) return false;
    this.db.run('DELETE FROM skills WHERE name = ?', [name]);
    if (this.fts !== 'none') this.db.run(`DELETE FROM skills_fts WHERE ${this.fts === 'fts5' ? 'rowid' : 'docid'} = ?`, [entry.docId]);
    this.index.delete(name);
    return true;
  }

  recordUsage(names: readonly string[], now: number): void {
    if (names.length === 0) return;
    this.transaction(() => {
      for (const name of names) this.db.run('UPDATE skills SET last_used = ?, use_count = use_count + 1 WHERE name = ?', [now, name]);
    });
  }

  /**
   * Full-text search (BM25F relevance, higher is better). Empty when FTS is unavailable or no
   * query term occurs in the index. Stage 1 asks the FTS index for candidate doc ids (see the
   * budgets above); stage 2 filters them (scope, trust, status, options) and ranks them by BM25F
   * over every query term and all analysed columns, in memory.
   */
  searchFts(query: string, filter: StoreFilter, limit: number): SearchHit[] {
    if (this.fts === 'none' || limit <= 0) return [];
    const index = this.index;
    const df = (term: string) => index.df(term);
    const terms = uniqueTerms(query).slice(0, 32).filter((t) => t.length > 0 && df(t) > 0);
    if (terms.length === 0) return [];
    const accept = entryPredicate(filter);
    let postings = 0;
    for (const term of terms) postings += df(term);
    let candidates: Iterable<number>;
    if (postings <= OR_BUDGET || terms.length === 1) {
      candidates = this.matchDocIds(ftsOrExpression(terms));
    } else {
      // Documents containing all of k selective terms. Fewer terms give a superset, so we start
      // at the largest k expected to yield enough documents (term independence) and, while fewer
      // than `limit` pass the filter, add the documents of other k-term combinations (rarest
      // first; terms that never co-occur are common), then relax k — at most MAX_MATCHES MATCHes,
      // usually one. Last resort: the rarest term alone.
      const selective = selectSelectiveTerms(terms, df, AND_BUDGET, 2);
      const total = Math.max(index.size, 1);
      const enough = limit * EXPECTED_MARGIN;
      const expectedWith = (keep: number) => {
        let expected = total;
        for (let i = 0; i < keep; i++) expected *= df(selective[i] as string) / total;
        return expected;
      };
      let k = selective.length;
      while (k > 2 && expectedWith(k) < enough) k--;
      const union = new Set<number>();
      let matches = 0;
      search: for (; k >= 2; k = k > 6 ? Math.ceil(k / 2) : k - 1) {
        for (const combination of combinations(selective.length, k)) {
          if (matches++ >= MAX_MATCHES) break search;
          for (const docId of this.matchDocIds(combination.map((i) => quoteTerm(selective[i] as string)).join(' '))) union.add(docId);
          if (countAccepted(union, index, accept, limit) >= limit) break search;
        }
      }
      if (countAccepted(union, index, accept, limit) < limit) {
        for (const docId of this.matchDocIds(quoteTerm(selective[0] as string))) union.add(docId);
      }
      candidates = union;
    }
    return index.rank(terms, candidates, accept, limit).map(({ entry, relevance }) => ({
      name: entry.name, title: entry.title, trigger: entry.trigger, task_type: entry.task_type, relevance,
    }));
  }

  /** Stage 1: doc ids matching an FTS expression, as one aggregated row (cheap per match). */
  private matchDocIds(match: string): number[] {
    const idColumn = this.fts === 'fts5' ? 'rowid' : 'docid';
    const row = this.db.arrays(`SELECT group_concat(${idColumn}) FROM skills_fts WHERE skills_fts MATCH ?`, [match])[0];
    const text = row?.[0];
    if (typeof text !== 'string' || text.length === 0) return typeof text === 'number' ? [text] : [];
    const ids: number[] = [];
    let value = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 44) {
        ids.push(value);
        value = 0;
      } else {
        value = value * 10 + (code - 48);
      }
    }
    ids.push(value);
    return ids;
  }

  /** Rows for regex/exact matching (only the searchable fields; from memory). */
  scan(filter: StoreFilter): Array<{ name: string; title: string; trigger: string; description: string; tags: string; task_type: TaskType }> {
    const accept = entryPredicate(filter);
    const rows: Array<{ name: string; title: string; trigger: string; description: string; tags: string; task_type: TaskType }> = [];
    for (const e of this.index.entries()) {
      if (accept(e)) rows.push({ name: e.name, title: e.title, trigger: e.trigger, description: e.description, tags: e.tagsText, task_type: e.task_type });
    }
    return rows;
  }

  /** Exact name lookups inside the filter. */
  byNames(names: readonly string[], filter: StoreFilter): SkillRecord[] {
    if (names.length === 0) return [];
    // Visibility from the mirror, then one indexed row read per visible name (in `names` order).
    const accept = entryPredicate(filter);
    const out: SkillRecord[] = [];
    for (const name of new Set(names)) {
      const entry = this.index.get(name);
      if (!entry || !accept(entry)) continue;
      const record = this.get(name);
      if (record) out.push(record);
    }
    return out;
  }

  names(filter: StoreFilter): string[] {
    const accept = entryPredicate(filter);
    const names: string[] = [];
    for (const e of this.index.entries()) if (accept(e)) names.push(e.name);
    return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  page(filter: StoreFilter, offset: number, limit: number): { total: number; rows: SkillRecord[] } {
    const where = filterSql(filter);
    const total = this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM skills s WHERE ${where.sql}`, where.params)?.n ?? 0;
    const rows = this.db.all(`SELECT * FROM skills s WHERE ${where.sql} ORDER BY s.name LIMIT :limit OFFSET :offset`,
      { ...where.params, ':limit': limit, ':offset': offset }).map(rowToRecord);
    return { total, rows };
  }

  /** Directory candidates: most recent (`last_used`) or most used (`use_count`) first. */
  top(filter: StoreFilter, order: 'recent' | 'top', limit: number): SkillRecord[] {
    const where = filterSql(filter);
    const orderBy = order === 'recent' ? 's.last_used DESC, s.use_count DESC' : 's.use_count DESC, s.last_used DESC';
    return this.db.all(`SELECT * FROM skills s WHERE ${where.sql} ORDER BY ${orderBy}, s.name LIMIT :limit`, { ...where.params, ':limit': limit }).map(rowToRecord);
  }

  /** (Re)builds the in-memory mirror from the database (open; after a rollback). */
  private loadMirror(): void {
    this.index.clear();
    const rows = this.db.arrays(`SELECT doc_id, name, title, trigger, description, tags, task_type, origin, scope_mode,
      scope_tenant_id, scope_project_id, workspace, status, model_invocable, pack_name FROM skills`);
    const byDoc = new Map<number, SkillEntry>();
    for (const r of rows) {
      const entry: SkillEntry = {
        docId: Number(r[0]), name: String(r[1]), title: String(r[2] ?? ''), trigger: String(r[3] ?? ''), description: String(r[4] ?? ''),
        tagsText: String(r[5] ?? '[]'), task_type: String(r[6]) as TaskType, origin: String(r[7]) as SkillOrigin,
        scope_mode: String(r[8]) as SkillEntry['scope_mode'], scope_tenant_id: String(r[9] ?? ''), scope_project_id: String(r[10] ?? ''),
        workspace: Number(r[11]) === 1, status: String(r[12]), model_invocable: Number(r[13]) === 1, pack_name: String(r[14] ?? ''),
      };
      byDoc.set(entry.docId, entry);
    }
    if (this.fts === 'none') {
      for (const entry of byDoc.values()) this.index.set(entry);
      return;
    }
    const split = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.split(' ') : []);
    const idColumn = this.fts === 'fts5' ? 'rowid' : 'docid';
    for (const r of this.db.arrays(`SELECT ${idColumn}, ${FTS_COLUMNS.join(', ')} FROM skills_fts`)) {
      const entry = byDoc.get(Number(r[0]));
      if (!entry) continue;
      const terms = {} as Record<string, readonly string[]>;
      FTS_COLUMNS.forEach((column, i) => { terms[column] = split(r[i + 1]); });
      this.index.set(entry, terms as SkillFieldTerms);
      byDoc.delete(entry.docId);
    }
    // Rows without an FTS document (should not happen): searchable by regex/exact, not by FTS.
    for (const entry of byDoc.values()) this.index.set(entry);
  }
}

function createSchema(db: SqlDatabase, fts: FtsEngine): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS skills (
      id TEXT PRIMARY KEY,
      doc_id INTEGER NOT NULL UNIQUE,
      scope_mode TEXT NOT NULL,
      scope_tenant_id TEXT NOT NULL DEFAULT '',
      scope_project_id TEXT NOT NULL DEFAULT '',
      name TEXT NOT NULL UNIQUE,
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
      model_invocable INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX IF NOT EXISTS idx_skills_scope ON skills(scope_mode, scope_tenant_id, scope_project_id);
    CREATE INDEX IF NOT EXISTS idx_skills_task_type ON skills(task_type);
    CREATE INDEX IF NOT EXISTS idx_skills_origin ON skills(origin);
    CREATE INDEX IF NOT EXISTS idx_skills_source ON skills(source_file);
    CREATE INDEX IF NOT EXISTS idx_skills_pack ON skills(pack_name);
  `);
  const columns = FTS_COLUMNS.join(', ');
  if (fts === 'fts5') db.exec(`CREATE VIRTUAL TABLE skills_fts USING fts5(${columns}, tokenize='unicode61')`);
  if (fts === 'fts4') {
    db.exec(`CREATE VIRTUAL TABLE skills_fts USING fts4(${columns}, tokenize=simple)`);
    db.exec('CREATE VIRTUAL TABLE skills_fts_terms USING fts4aux(skills_fts)');
  }
}

/** Analysed FTS terms per column for one skill (stored space-joined in `skills_fts`). */
function ftsTerms(record: SkillRecord): SkillFieldTerms {
  const tags = [...record.tags, ...record.triggers, record.domain, ...record.frames, record.task_type].join(' ');
  const content = [...record.steps, ...record.preconditions, ...record.failure_modes, record.body.slice(0, 4000)].join('\n');
  return {
    name: analyze(record.name, { keepStopWords: true }), title: analyze(record.title), trigger: analyze(record.trigger),
    description: analyze(record.description), tags: analyze(tags), content: analyze(content),
  };
}

function entryOf(record: SkillRecord, docId: number): SkillEntry {
  return {
    docId, name: record.name, title: record.title, trigger: record.trigger, description: record.description,
    tagsText: JSON.stringify(record.tags), task_type: record.task_type, origin: record.origin, pack_name: record.pack_name, scope_mode: record.scope_mode,
    scope_tenant_id: record.scope_tenant_id, scope_project_id: record.scope_project_id, workspace: record.workspace,
    status: record.status, model_invocable: record.model_invocable,
  };
}

/** k-index combinations of 0..n−1 in lexicographic order (rarest terms first). */
function* combinations(n: number, k: number): Generator<number[]> {
  const pick = Array.from({ length: k }, (_, i) => i);
  while (true) {
    yield [...pick];
    let i = k - 1;
    while (i >= 0 && pick[i] === n - k + i) i--;
    if (i < 0) return;
    pick[i]++;
    for (let j = i + 1; j < k; j++) pick[j] = (pick[j - 1] as number) + 1;
  }
}

/** How many of `docIds` pass the filter, counting no further than `enough`. */
function countAccepted(docIds: Iterable<number>, index: SkillSearchIndex, accept: (entry: SkillEntry) => boolean, enough: number): number {
  let accepted = 0;
  for (const docId of docIds) {
    const entry = index.byDocId(docId);
    if (entry && accept(entry) && ++accepted >= enough) break;
  }
  return accepted;
}

function quoteTerm(term: string): string {
  return `"${term.replace(/"/g, '')}"`;
}

/** WHERE clause (alias `s`) enforcing scope, trust, status and optional filters. */
function filterSql(filter: StoreFilter): { sql: string; params: Record<string, string | number> } {
  // '\u0000' never equals a stored id, so an absent tenant/project matches nothing.
  const params: Record<string, string | number> = {
    ':tenant': filter.tenantId || '\u0000',
    ':project': filter.projectId || '\u0000',
  };
  const parts = [
    `(s.scope_mode = 'global'
      OR (s.scope_mode = 'tenant' AND s.scope_tenant_id = :tenant)
      OR (s.scope_mode = 'project' AND s.scope_project_id = :project AND (s.scope_tenant_id = '' OR s.scope_tenant_id = :tenant)))`,
  ];
  if (!filter.includeWorkspacePacks) parts.push('s.workspace = 0');
  if (filter.activeOnly !== false) parts.push('s.status = \'active\'');
  if (filter.modelInvocableOnly) parts.push('s.model_invocable = 1');
  if (filter.taskType) {
    parts.push('s.task_type = :taskType');
    params[':taskType'] = filter.taskType;
  }
  if (filter.origin) {
    parts.push('s.origin = :origin');
    params[':origin'] = filter.origin;
  }
  if (filter.scopeMode) {
    parts.push('s.scope_mode = :scopeMode');
    params[':scopeMode'] = filter.scopeMode;
  }
  return { sql: parts.join(' AND '), params };
}

function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function rowToRecord(row: Record<string, unknown>): SkillRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    title: String(row.title ?? ''),
    description: String(row.description ?? ''),
    trigger: String(row.trigger ?? ''),
    task_type: String(row.task_type) as TaskType,
    tags: parseJson(row.tags, []),
    steps: parseJson(row.steps, []),
    preconditions: parseJson(row.preconditions, []),
    failure_modes: parseJson(row.failure_modes, []),
    body: String(row.body ?? ''),
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
    pack_name: String(row.pack_name ?? ''),
    workspace: Number(row.workspace) === 1,
    source_file: String(row.source_file ?? ''),
    source_line: Number(row.source_line ?? 1),
    format: String(row.format) as SkillRecord['format'],
    status: String(row.status) as SkillRecord['status'],
    status_reason: String(row.status_reason ?? ''),
    model_invocable: Number(row.model_invocable) === 1,
  };
}
