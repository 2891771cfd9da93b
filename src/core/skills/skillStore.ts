import type { ByteStore, Clock, Logger } from '../platform/ports';
import type { FtsEngine, SqlEngine } from '../sql/sqlEngine';
import type { SqlDatabase } from '../sql/sqlDatabase';
import { openPersistentDatabase } from '../sql/persistentDatabase';
import type { PersistentDatabase } from '../sql/persistentDatabase';
import { bm25FromMatchinfo, ftsOrExpression, parseMatchinfoPcnalx, selectSelectiveTerms } from '../search/ftsBm25';
import { analyze, uniqueTerms } from '../search/textAnalysis';
import type { TaskType } from '../config/settingsSchema';
import type { SkillOrigin, SkillRecord } from './skillSchema';

/**
 * SkillStore: the `skills` table of the reference schema (RFC §3.4) on sql.js, with a full-text
 * index `skills_fts` (FTS5 when the build has it, else FTS4 with BM25 from matchinfo, else
 * none — then searches fall back to regex/exact), persisted atomically through the ByteStore.
 *
 * FTS rows hold *analysed* text (identifier splitting, stop words, Porter stems — the same
 * `analyze` runs on queries), keyed by `skills.doc_id` (a stable integer; we never rely on the
 * implicit rowid). Scope columns use '' for "none" so comparisons never meet NULL.
 */

export const SKILLS_DB_KEY = 'skills.db';
const SCHEMA = 'skills/1';

/** Columns of `skills_fts` and their BM25 weights. */
const FTS_COLUMNS = ['name', 'title', 'trigger', 'description', 'tags', 'content'] as const;
const FTS_WEIGHTS = [4, 3, 2.5, 1.5, 2, 0.5];
/** Above this many documents, drop very common query terms before MATCH (speed at 50k). */
const SELECTIVE_THRESHOLD_DOCS = 2000;
const POSTING_BUDGET = 1500;

/** Who is asking: scope + whether workspace-sourced packs may be used (false when untrusted). */
export interface StoreFilter {
  tenantId?: string;
  projectId?: string;
  includeWorkspacePacks: boolean;
  /** Only `active` skills (default true). */
  activeOnly?: boolean;
  taskType?: TaskType;
  origin?: SkillOrigin;
  /** Restrict to one scope mode (skill_list's `scope` filter). */
  scopeMode?: 'project' | 'tenant' | 'global';
  /** Only skills a model may invoke on its own (pre-flight / directory). */
  modelInvocableOnly?: boolean;
}

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

  private constructor(
    private readonly persistent: PersistentDatabase,
    readonly fts: FtsEngine,
  ) {
    this.nextDocId = (this.db.get<{ m: number }>('SELECT COALESCE(MAX(doc_id), 0) AS m FROM skills')?.m ?? 0) + 1;
    if (fts === 'fts4') {
      this.db.raw.create_function('skills_bm25', (blob: Uint8Array) => bm25FromMatchinfo(parseMatchinfoPcnalx(blob), FTS_WEIGHTS));
    }
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
    return this.db.transaction(fn);
  }

  count(): number {
    return this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM skills')?.n ?? 0;
  }

  get(name: string): SkillRecord | undefined {
    const row = this.db.get('SELECT * FROM skills WHERE name = ?', [name]);
    return row ? rowToRecord(row) : undefined;
  }

  /** Identity + hash of the skills defined by one file (pack origin). */
  bySource(file: string): Array<{ name: string; content_hash: string; status: string; status_reason: string; source_line: number }> {
    return this.db.all('SELECT name, content_hash, status, status_reason, source_line FROM skills WHERE origin = \'pack\' AND source_file = ?', [file]) as never;
  }

  /** Names of pack skills (optionally of one pack). */
  packSkillNames(packName?: string): string[] {
    const rows = packName === undefined
      ? this.db.all<{ name: string }>('SELECT name FROM skills WHERE origin = \'pack\'')
      : this.db.all<{ name: string }>('SELECT name FROM skills WHERE origin = \'pack\' AND pack_name = ?', [packName]);
    return rows.map((r) => r.name);
  }

  all(filter?: StoreFilter): SkillRecord[] {
    if (!filter) return this.db.all('SELECT * FROM skills ORDER BY name').map(rowToRecord);
    const where = filterSql(filter);
    return this.db.all(`SELECT * FROM skills s WHERE ${where.sql} ORDER BY s.name`, where.params).map(rowToRecord);
  }

  upsert(record: SkillRecord): void {
    const existing = this.db.get<{ doc_id: number }>('SELECT doc_id FROM skills WHERE name = ?', [record.name]);
    const docId = existing?.doc_id ?? this.nextDocId++;
    this.db.run('DELETE FROM skills WHERE name = ?', [record.name]);
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
    if (this.fts !== 'none') {
      this.db.run('DELETE FROM skills_fts WHERE docid = ?', [docId]);
      const doc = ftsDocument(record);
      this.db.run(`INSERT INTO skills_fts (docid, ${FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [docId, ...doc]);
    }
  }

  /** Updates only status columns (requirements re-checked; content unchanged). */
  setStatus(name: string, status: 'active' | 'inactive', reason: string): void {
    this.db.run('UPDATE skills SET status = ?, status_reason = ? WHERE name = ?', [status, reason, name]);
  }

  /** Moves a skill's recorded definition (file/line) without touching content. */
  setSource(name: string, file: string, line: number): void {
    this.db.run('UPDATE skills SET source_file = ?, source_line = ? WHERE name = ?', [file, line, name]);
  }

  delete(name: string): boolean {
    const row = this.db.get<{ doc_id: number }>('SELECT doc_id FROM skills WHERE name = ?', [name]);
    if (!row) return false;
    this.db.run('DELETE FROM skills WHERE name = ?', [name]);
    if (this.fts !== 'none') this.db.run('DELETE FROM skills_fts WHERE docid = ?', [row.doc_id]);
    return true;
  }

  recordUsage(names: readonly string[], now: number): void {
    if (names.length === 0) return;
    this.transaction(() => {
      for (const name of names) this.db.run('UPDATE skills SET last_used = ?, use_count = use_count + 1 WHERE name = ?', [now, name]);
    });
  }

  /**
   * Full-text search (BM25, higher is better). Empty when FTS is unavailable or no term survives.
   * Speed on large stores: very common terms are dropped first (they carry little BM25 weight),
   * then documents matching ALL remaining terms are ranked; only when they are fewer than
   * `limit` does an OR query widen the candidates (RFC §1.5 scoring is unchanged).
   */
  searchFts(query: string, filter: StoreFilter, limit: number): SearchHit[] {
    if (this.fts === 'none') return [];
    let terms = uniqueTerms(query).filter((t) => t.length > 0).slice(0, 32);
    if (terms.length === 0) return [];
    if (terms.length > 1 && this.fts === 'fts4' && this.count() > SELECTIVE_THRESHOLD_DOCS) {
      terms = selectSelectiveTerms(terms, (t) => this.docFreq(t), POSTING_BUDGET, 1);
      if (terms.length === 0) return [];
    }
    const quoted = terms.map((t) => `"${t.replace(/"/g, '')}"`);
    if (terms.length === 1) return this.rankedMatch(quoted[0] ?? '', filter, limit);
    const all = this.rankedMatch(quoted.join(' '), filter, limit);
    if (all.length >= limit) return all;
    const any = this.rankedMatch(ftsOrExpression(terms), filter, limit);
    const seen = new Set(all.map((h) => h.name));
    return [...all, ...any.filter((h) => !seen.has(h.name))].slice(0, limit);
  }

  private rankedMatch(match: string, filter: StoreFilter, limit: number): SearchHit[] {
    const where = filterSql(filter);
    const relevance = this.fts === 'fts5'
      ? `-bm25(skills_fts, ${FTS_WEIGHTS.join(', ')})`
      : 'skills_bm25(matchinfo(skills_fts, \'pcnalx\'))';
    // CROSS JOIN keeps the full-text index as the outer loop (otherwise SQLite may run the MATCH once per skill row).
    const rows = this.db.all<{ name: string; title: string; trigger: string; task_type: string; rel: number }>(
      `SELECT s.name AS name, s.title AS title, s.trigger AS trigger, s.task_type AS task_type, ${relevance} AS rel
       FROM skills_fts CROSS JOIN skills s ON s.doc_id = skills_fts.${this.fts === 'fts5' ? 'rowid' : 'docid'}
       WHERE skills_fts MATCH :match AND ${where.sql}
       ORDER BY rel DESC, length(s.name), s.name LIMIT :limit`,
      { ...where.params, ':match': match, ':limit': limit },
    );
    return rows.map((r) => ({ name: r.name, title: r.title, trigger: r.trigger, task_type: r.task_type as TaskType, relevance: Number(r.rel) || 0 }));
  }

  /** Rows for regex/exact matching (only the searchable fields). */
  scan(filter: StoreFilter): Array<{ name: string; title: string; trigger: string; description: string; tags: string; task_type: TaskType }> {
    const where = filterSql(filter);
    return this.db.all(`SELECT s.name AS name, s.title AS title, s.trigger AS trigger, s.description AS description, s.tags AS tags, s.task_type AS task_type
      FROM skills s WHERE ${where.sql}`, where.params) as never;
  }

  /** Exact name lookups inside the filter. */
  byNames(names: readonly string[], filter: StoreFilter): SkillRecord[] {
    if (names.length === 0) return [];
    const where = filterSql(filter);
    const placeholders = names.map((_, i) => `:n${i}`).join(', ');
    const params: Record<string, string | number> = { ...where.params };
    names.forEach((name, i) => { params[`:n${i}`] = name; });
    return this.db.all(`SELECT * FROM skills s WHERE s.name IN (${placeholders}) AND ${where.sql}`, params).map(rowToRecord);
  }

  names(filter: StoreFilter): string[] {
    const where = filterSql(filter);
    return this.db.all<{ name: string }>(`SELECT s.name AS name FROM skills s WHERE ${where.sql} ORDER BY s.name`, where.params).map((r) => r.name);
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

  private docFreq(term: string): number {
    try {
      return this.db.get<{ d: number }>('SELECT documents AS d FROM skills_fts_terms WHERE term = ? AND col = \'*\'', [term])?.d ?? 0;
    } catch {
      return 1;
    }
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

/** Analysed FTS text per column for one skill. */
function ftsDocument(record: SkillRecord): string[] {
  const join = (text: string, keep = false) => analyze(text, { keepStopWords: keep }).join(' ');
  const tags = [...record.tags, ...record.triggers, record.domain, ...record.frames, record.task_type].join(' ');
  const content = [...record.steps, ...record.preconditions, ...record.failure_modes, record.body.slice(0, 4000)].join('\n');
  return [join(record.name, true), join(record.title), join(record.trigger), join(record.description), join(tags), join(content)];
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
