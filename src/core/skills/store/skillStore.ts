import type { Clock } from '../../platform/ports';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import { metaValue, openStoreDatabase, setMetaValue } from '../../sql/persistentDatabase';
import type { PersistentDatabase, StoreDatabaseOptions } from '../../sql/persistentDatabase';
import { TextAnalyzer } from '../../search/textAnalysis';
import { requestTerms } from '../../search/requestTerms';
import type { TaskType } from '../../config/settingsSchema';
import type { SkillRecord } from '../skillSchema';
import { exportClaimsIn, hasExportClaimIn, type ExportClaim } from './learned/exportedLearnedSkills';
import { LearnedRecordCache } from './learned/learnedRecordCache';
import { RecordReadCache } from './recordReadCache';
import { countedTerms, entryOf, fillMirror, lazyBodyOf, readTreeRecords, rowToRecord, type SkillTreeRecord } from './skillRows';
import { encodeCounted, TermVocabulary } from '../../search/termStore';
import { SkillFileFingerprints } from './skillFileFingerprints';
import { SkillFolderListings } from './skillFolderListings';
import { SkillRowWriter } from './skillRowWriter';
import { SkillUsageFile } from './skillUsageFile';
import { forgetUnverifiable } from './unverifiedStore';
import { SnapshottedMirror } from './mirrorSnapshot';
import { rowsByUse } from './skillsByUse';
import { identityKey, type SkillIdentity, type SkillScope } from './skillScope';
import { entryPredicate, SkillSearchIndex } from './skillSearchIndex';
import type { SkillEntry } from './skillSearchIndex';
import { clusteredIn, filterSql } from './skillStoreFilter';
import type { StoreFilter } from './skillStoreFilter';
import type { CountedElsewhere } from '../../search/threadTerms';
import { createSkillSchema, SKILL_PAGE_SIZE, SKILL_SCHEMA_VERSION, skillMigrations, VOCABULARY_FINGERPRINT_KEY } from './skillStoreSchema';

export type { StoreFilter } from './skillStoreFilter';

/**
 * SkillStore: the `skills` table (schema in skillStoreSchema.ts) on sql.js, persisted atomically
 * through the ByteStore.
 *
 * A skill's identity is its scope + name (skillScope.ts): writes and deletes take that identity;
 * reads through a StoreFilter see, per name, the most specific scope's skill that passes it.
 *
 * Search runs in memory, on a mirror (`SkillSearchIndex`: light entries + BM25F term statistics
 * of each skill's *analysed* fields — identifier splitting, stop words, Porter stems, the same
 * `analyze` that runs on queries). Each skill's analysed terms are stored with it, compactly
 * (`skill_terms`, search/termStore.ts), keyed by `skills.doc_id` (a stable integer; we never rely
 * on the implicit rowid), so the mirror is rebuilt on open — and after a rolled-back transaction
 * — without analysing any text; a row stored without terms (by a version that kept none when
 * sql.js lacked a full-text engine) has them analysed and stored on open. Ranked search never
 * asks the SQL engine, so every sql.js build ranks alike. Scope columns use '' for "none" so
 * comparisons never meet NULL.
 */

const SKILLS_DB_KEY = 'skills.db';

export interface SearchHit {
  name: string;
  title: string;
  trigger: string;
  description: string;
  task_type: TaskType;
  /** Raw relevance (BM25, higher is better) — normalised by the caller. */
  relevance: number;
  /** Absolute relevance in [0, 1] (request coverage for a short request, skill focus for a long one; SkillSearchIndex.relevance). */
  absolute: number;
  /** Set when the skill looks stuffed (SkillSearchIndex.stuffedReason): why, in words. Never injected by pre-flight's gate. */
  stuffed?: string;
  /** Whether its describing fields share enough of the request's words (SkillSearchIndex.corroborated). */
  corroborated: boolean;
}

export interface SkillStoreOptions extends StoreDatabaseOptions {
  clock: Clock;
  forceRebuild?: boolean;
  /**
   * Reads a pack skill's body from its source file (packs/sourceBodies.ts). Given, pack skills
   * are stored without their body and it is read when a record's `body` is first used.
   */
  sourceBodies?: (record: SkillRecord) => string | undefined;
}

/** A pack skill's identity and where it is defined. */
export interface PackSkillSource extends SkillIdentity {
  source_file: string;
}

/** Room a fresh skill store's file starts with: a library of 10,000 real skills takes ≈ 25 MB (schema 7). */
const FRESH_SKILL_FILE_ROOM = 28 << 20;

export class SkillStore {
  private nextDocId: number;
  private version = 0;
  private readonly index: SkillSearchIndex;
  private readonly learned = new LearnedRecordCache();
  private readonly recent = new RecordReadCache();
  private readonly rows: SkillRowWriter;
  /** Analyses every skill's text; its word memo makes a repeated word a lookup. */
  private readonly analyzer = new TextAnalyzer();
  /** Term ids of the stored terms. */
  private readonly vocabulary: TermVocabulary;
  /** Records whose body is read from their file (see toRecord). */
  private readonly lazyBodies = new WeakSet<SkillRecord>();
  /** Those records' `body`: one accessor for all of them (rowToRecord), the bodies read or set kept beside. */
  private readonly lazyBody: PropertyDescriptor | undefined;
  /** Interns a term in the index (what stored terms are relabelled with: TermVocabulary.relabel). */
  private readonly intern = (term: string): number => this.index.internTerm(term);
  /** Fingerprints of the skill files loaded (what a warm start may skip). */
  readonly files = new SkillFileFingerprints(() => this.db);
  /** Listings of the folders loaded (what a warm start need not list again). */
  readonly folders = new SkillFolderListings(() => this.db);

  private constructor(
    private readonly persistent: PersistentDatabase,
    /** Usage counters changed since the store was last written whole (see SkillUsageFile). */
    private readonly usage: SkillUsageFile,
    /** The search mirror and its snapshot beside the store (mirrorSnapshot.ts). */
    private readonly mirror: SnapshottedMirror,
    /** Set when the check on open built the mirror from this database already: the doc ids of rows stored without terms. */
    mirrored: number[] | undefined,
    private readonly sourceBodies: ((record: SkillRecord) => string | undefined) | undefined,
  ) {
    this.lazyBody = sourceBodies && lazyBodyOf(sourceBodies);
    this.nextDocId = (this.db.get<{ m: number }>('SELECT COALESCE(MAX(doc_id), 0) AS m FROM skills')?.m ?? 0) + 1;
    this.vocabulary = mirror.vocabulary;
    this.index = mirror.index;
    this.rows = new SkillRowWriter(persistent.db, mirror.vocabulary, sourceBodies !== undefined);
    let withoutTerms = mirrored;
    if (withoutTerms) this.version++;
    else withoutTerms = this.loadMirror();
    this.storeTermsOf(withoutTerms);
  }

  static async open(options: SkillStoreOptions): Promise<SkillStore> {
    const mirror = new SnapshottedMirror(options, SKILLS_DB_KEY, new SkillSearchIndex(), new TermVocabulary());
    const vocabulary = mirror.vocabulary;
    // The check on open reads what the mirror is built from: that one read builds it too (in slices: skillRows.ts), or
    // for bytes this store last wrote (`written`, their digest) the mirror's snapshot saved with them, when it is theirs.
    let mirrored: number[] | undefined;
    const persistent = await openStoreDatabase(options, SKILLS_DB_KEY, {
      schemaVersion: SKILL_SCHEMA_VERSION,
      createSchema: (db) => createSkillSchema(db),
      migrations: skillMigrations(),
      verify: async (db, written) => {
        mirrored = undefined;
        mirrored = await mirror.fill(db, written);
      },
      distrust: (db) => forgetUnverifiable(db, options.logger, options.key ?? SKILLS_DB_KEY),
      forceRebuild: options.forceRebuild,
      saveOnlyChanges: true,
      // A first load of 10,000 real skills writes a 25 MB file: room for it from the start (persistentDatabase.ts).
      freshFileRoom: FRESH_SKILL_FILE_ROOM,
      pageSize: SKILL_PAGE_SIZE,
    });
    const loaded = persistent.status === 'loaded' || persistent.status === 'migrated';
    // A store written before the vocabulary had a fingerprint gets one now, so the next open can check it.
    if (loaded && mirrored && vocabulary.size > 0 && metaValue(persistent.db, VOCABULARY_FINGERPRINT_KEY) === undefined)
      setMetaValue(persistent.db, VOCABULARY_FINGERPRINT_KEY, vocabulary.fingerprint);
    const usage = await SkillUsageFile.open(options.store, options.key ?? SKILLS_DB_KEY, options.logger);
    const store = new SkillStore(persistent, usage, mirror, loaded ? mirrored : undefined, options.sourceBodies);
    usage.settle((identity) => store.storedCounts(identity));
    return store;
  }

  get db(): SqlDatabase {
    return this.persistent.db;
  }

  /** `created` | `loaded` | `migrated` | `rebuilt` and why (corrupt file kept aside as `backupKey`). */
  get openInfo(): { status: string; reason?: string; backupKey?: string } {
    return { status: this.persistent.status, reason: this.persistent.rebuildReason, backupKey: this.persistent.backupKey };
  }

  /**
   * Writes the store whole when a row changed other than by a use, and the usage counters (small)
   * when they did; then the mirror's snapshot, when the bytes on disk are new to it
   * (SnapshottedMirror.saving).
   */
  save(): Promise<void> {
    return this.mirror.saving(this.persistent, () => this.usage.saveWith(this.persistent, (identity) => this.index.get(identity)?.docId));
  }

  /**
   * Writes only the usage counters, never the database: for a process that leaves its load's
   * writes to the next one that opens this store (SkillService.handOver). The file on disk stays
   * as the last whole write left it, and the counters are kept beside it as they always are.
   */
  saveUsage(): Promise<void> {
    return this.usage.saveNoted((identity) => this.index.get(identity) !== undefined);
  }

  close(): void {
    this.persistent.close();
  }

  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn);
    } catch (error) {
      // The database rolled back (to the savepoint, when nested); bring the mirror in line.
      this.loadMirror();
      throw error;
    }
  }

  count(): number {
    return this.index.size;
  }

  /** How many times the search postings were built (search/termIndex.ts: once, then only when changes add up to a rebuild). */
  get postingsBuilds(): number {
    return this.index.terms.builds;
  }

  /** Changes whenever a skill is added, replaced or removed (status and usage writes leave it): what derived tables key on. */
  get contentVersion(): number {
    return this.version;
  }

  /** The skill of that doc id, from memory. */
  entryByDocId(docId: number): SkillEntry | undefined {
    return this.index.byDocId(docId);
  }

  /** Whether a skill of that name exists (in that scope, when given); in-memory, no SQL. */
  has(name: string, scope?: SkillScope): boolean {
    return this.entry(name, scope) !== undefined;
  }

  /**
   * The skill of that name in that scope; without a scope, the most specific scope's skill of
   * that name (for "open definition" in the UI — requests read through a StoreFilter instead).
   */
  get(name: string, scope?: SkillScope): SkillRecord | undefined {
    const entry = this.entry(name, scope);
    if (!entry) return undefined;
    return this.recent.read(entry.docId, () => {
      const row = this.db.get('SELECT * FROM skills WHERE doc_id = ?', [entry.docId]);
      return row ? this.toRecord(row, entry) : undefined;
    });
  }

  /** Every scope's skill of that name, most specific first. */
  named(name: string): SkillRecord[] {
    return this.index
      .named(name)
      .map((e) => this.get(e.name, e))
      .filter((r): r is SkillRecord => r !== undefined);
  }

  /** Identity + hash of the skills defined by one file (pack origin). */
  bySource(file: string): Array<SkillIdentity & { content_hash: string; status: string; status_reason: string; source_line: number }> {
    return this.db.all(
      "SELECT name, scope_mode, scope_tenant_id, scope_project_id, content_hash, status, status_reason, source_line FROM skills WHERE origin = 'pack' AND source_file = ?",
      [file],
    ) as never;
  }

  /** Identity and defining file of every pack skill (no full records). */
  packSources(): PackSkillSource[] {
    return this.db.all<PackSkillSource & Record<string, string>>(
      "SELECT name, scope_mode, scope_tenant_id, scope_project_id, source_file FROM skills WHERE origin = 'pack' ORDER BY name",
    );
  }

  /** Identities of pack skills (optionally of one pack); from memory. */
  packSkills(packName?: string): SkillIdentity[] {
    const out: SkillIdentity[] = [];
    for (const e of this.index.entries()) if (e.origin === 'pack' && (packName === undefined || e.pack_name === packName)) out.push(e);
    return out;
  }

  /** How many pack skills a pack has (from memory, O(1)). */
  packSkillCount(packName: string): number {
    return this.index.packCount(packName);
  }

  /** What the skill tree reads of every skill (skillTree.ts), in `all()` order: only those columns, no record decoded. */
  treeRecords(): SkillTreeRecord[] {
    return readTreeRecords(this.db);
  }

  all(filter?: StoreFilter): SkillRecord[] {
    if (!filter) return this.db.all('SELECT * FROM skills ORDER BY name, scope_mode, scope_tenant_id, scope_project_id').map((row) => this.toRecord(row));
    const where = filterSql(filter);
    return this.db.all(`SELECT * FROM skills s WHERE ${where.sql} ORDER BY s.name`, where.params).map((row) => this.toRecord(row));
  }

  /** Inserts or replaces the skill of the record's identity (scope + name); other scopes are untouched. */
  upsert(record: SkillRecord): void {
    this.upsertMany([record]);
  }

  /**
   * Upserts many records in one transaction, as if one by one in order (same ids, doc ids and
   * rows), with the SQL batched many rows per statement (see SkillRowWriter): an import of
   * 10,000 skills. All or nothing: a record that cannot be stored rolls back the whole batch.
   */
  upsertMany(records: readonly SkillRecord[], analysed?: ReadonlyArray<CountedElsewhere | undefined>): void {
    if (records.length === 0) return;
    const keys = records.map(identityKey);
    if (new Set(keys).size < keys.length) {
      // The same identity twice: a later record replaces an earlier one, so go in order.
      this.transaction(() => records.forEach((record, i) => this.upsertMany([record], [analysed?.[i]])));
      return;
    }
    const existing = records.map((record) => this.index.get(record)?.docId);
    const replaced = existing.filter((docId): docId is number => docId !== undefined);
    const { prepared, nextDocId } = this.rows.prepare(records, existing, this.nextDocId, this.analyzer, analysed);
    // All or nothing, even for one record: new vocabulary terms are written with the rows that use them.
    this.transaction(() => {
      this.rows.delete(replaced);
      this.rows.insert(prepared);
    });
    this.nextDocId = nextDocId;
    this.version++;
    for (const row of prepared) {
      this.index.set(entryOf(row.stored, row.docId), this.vocabulary.relabel(row.terms, this.intern));
      this.learned.put(row.docId, row.stored);
      this.recent.forget(row.docId);
      // The row holds the counters its writer gave it (a reader's, noted ones included).
      this.usage.forget(row.stored);
    }
  }

  /**
   * Every learned skill (all scopes), in `all()` order — from memory after the first call (see
   * LearnedRecordCache), so rewriting the learned-skill journal does not read the table back.
   */
  learnedRecords(): SkillRecord[] {
    const withDocId = (row: Record<string, unknown>): [number, SkillRecord] => [Number(row.doc_id), this.toRecord(row)];
    return this.learned.list(
      () => this.db.all("SELECT * FROM skills WHERE origin = 'learned'").map(withDocId),
      (docIds) => this.db.all(`SELECT * FROM skills WHERE origin = 'learned' AND doc_id IN (${docIds.map(() => '?').join(', ')})`, docIds).map(withDocId),
    );
  }

  /** Updates only status columns (requirements re-checked; content unchanged). */
  setStatus(identity: SkillIdentity, status: 'active' | 'inactive', reason: string): void {
    const entry = this.index.get(identity);
    if (!entry) return;
    this.db.run('UPDATE skills SET status = ?, status_reason = ? WHERE doc_id = ?', [status, reason, entry.docId]);
    this.index.setStatus(entry, status);
    this.learned.stale(entry.docId);
    this.recent.forget(entry.docId);
  }

  /** Moves a skill's recorded definition (file/line) without touching content. */
  setSource(identity: SkillIdentity, file: string, line: number): void {
    const entry = this.index.get(identity);
    if (!entry) return;
    this.db.run('UPDATE skills SET source_file = ?, source_line = ? WHERE doc_id = ?', [file, line, entry.docId]);
    this.learned.stale(entry.docId);
    this.recent.forget(entry.docId);
  }

  /** Deletes the skill of that identity (scope + name); returns whether there was one. */
  delete(identity: SkillIdentity): boolean {
    const entry = this.index.get(identity);
    if (!entry) return false;
    this.rows.delete([entry.docId]);
    this.version++;
    this.index.delete(identity);
    this.usage.forget(identity);
    this.learned.delete(entry.docId);
    this.recent.forget(entry.docId);
    return true;
  }

  /**
   * Counts a use of each skill (identities, as returned by reads). The counters are noted in the
   * usage file, not written into the rows (any write grows sql.js's in-memory file): reads see
   * them, `save` keeps them beside the store, and the next whole write puts them in the rows.
   */
  recordUsage(skills: readonly SkillIdentity[], now: number): void {
    for (const skill of skills) {
      const row = this.storedCounts(skill);
      if (!row) continue;
      this.usage.countUse(row, now);
      this.learned.stale(row.docId);
      this.recent.forget(row.docId);
    }
  }

  /** The skill's counters as its row holds them (and its doc id), when it is stored. */
  private storedCounts(identity: SkillIdentity): (SkillIdentity & { docId: number; use_count: number; last_used: number }) | undefined {
    const docId = this.index.get(identity)?.docId;
    if (docId === undefined) return undefined;
    const row = this.db.get<{ use_count: number; last_used: number }>('SELECT use_count, last_used FROM skills WHERE doc_id = ?', [docId]);
    if (!row) return undefined;
    const { scope_mode, scope_tenant_id, scope_project_id, name } = identity;
    return { scope_mode, scope_tenant_id, scope_project_id, name, docId, use_count: Number(row.use_count), last_used: Number(row.last_used) };
  }

  /**
   * Ranked search (BM25F relevance, higher is better). Empty when no query term occurs in the
   * index. The whole request is searched (search/requestTerms.ts
   * weighs its words); every visible skill sharing a term with it is scored by BM25F over all
   * analysed columns, in memory (exact top-k, SkillSearchIndex.search).
   */
  searchRanked(query: string, filter: StoreFilter, limit: number): SearchHit[] {
    if (limit <= 0) return [];
    const index = this.index;
    const request = requestTerms(query);
    const weighted = request.filter((t) => index.df(t.term) > 0);
    if (weighted.length === 0) return [];
    const all = request.map((t) => t.term);
    return index.search(weighted, this.visible(filter), limit).map(({ entry, relevance }) => {
      const stuffed = index.stuffedReason(entry.docId);
      return {
        name: entry.name,
        title: entry.title,
        trigger: entry.trigger,
        description: entry.description,
        task_type: entry.task_type,
        relevance,
        absolute: index.relevance(all, entry.docId),
        corroborated: index.corroborated(all, entry.docId),
        ...(stuffed === undefined ? {} : { stuffed }),
      };
    });
  }

  /** Why the visible skill of that name looks stuffed (SkillSearchIndex.stuffedReason), or undefined. */
  stuffedReason(name: string, filter: StoreFilter): string | undefined {
    const entry = this.resolver(filter)(name);
    return entry ? this.index.stuffedReason(entry.docId) : undefined;
  }

  /** Every skill held, of every scope, trust and status (from memory): for upkeep that no one request's view may limit. */
  everySkill(): Iterable<SkillEntry> {
    return this.index.entries();
  }

  /** Rows for regex/exact matching (only the searchable fields; from memory). */
  scan(filter: StoreFilter): Array<{ name: string; title: string; trigger: string; description: string; tags: string; task_type: TaskType }> {
    const accept = this.visible(filter);
    const rows: Array<{ name: string; title: string; trigger: string; description: string; tags: string; task_type: TaskType }> = [];
    for (const e of this.index.entries()) {
      if (accept(e)) rows.push({ name: e.name, title: e.title, trigger: e.trigger, description: e.description, tags: e.tagsText, task_type: e.task_type });
    }
    return rows;
  }

  /** The skills a request with this filter sees (one per name), from memory. */
  visibleEntries(filter: StoreFilter): SkillEntry[] {
    const accept = this.visible(filter);
    const out: SkillEntry[] = [];
    for (const e of this.index.entries()) if (accept(e)) out.push(e);
    return out;
  }

  /** Per name, the skill a request with this filter sees under it (the most specific visible scope's), from memory. */
  resolver(filter: StoreFilter): (name: string) => SkillEntry | undefined {
    const accept = entryPredicate(filter);
    return (name) => this.index.named(name).find(accept);
  }

  /** Exact name lookups inside the filter: per name, the most specific visible scope's skill. */
  byNames(names: readonly string[], filter: StoreFilter): SkillRecord[] {
    if (names.length === 0) return [];
    const accept = entryPredicate(filter);
    const out: SkillRecord[] = [];
    for (const name of new Set(names)) {
      const entry = this.index.named(name).find(accept);
      const record = entry ? this.get(entry.name, entry) : undefined;
      if (record) out.push(record);
    }
    return out;
  }

  names(filter: StoreFilter): string[] {
    const accept = this.visible(filter);
    const names: string[] = [];
    for (const e of this.index.entries()) if (accept(e)) names.push(e.name);
    return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  page(filter: StoreFilter, offset: number, limit: number): { total: number; rows: SkillRecord[] } {
    const where = filterSql(filter);
    const total = this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM skills s WHERE ${where.sql}`, where.params)?.n ?? 0;
    const rows = this.db
      .all(`SELECT * FROM skills s WHERE ${where.sql} ORDER BY s.name LIMIT :limit OFFSET :offset`, { ...where.params, ':limit': limit, ':offset': offset })
      .map((row) => this.toRecord(row));
    return { total, rows };
  }

  /** Skills inside the filter that carry a `cluster` (name + raw value) — candidates for cluster expansion. */
  clustered(filter: StoreFilter): Array<{ name: string; cluster: unknown }> {
    return clusteredIn(this.db, filter);
  }

  /** Whether a file defines a pack skill exported from a learned skill (indexed by source file: cheap). */
  hasExportClaim(file: string): boolean {
    return hasExportClaimIn(this.db, file);
  }

  /** Active pack skills exported from a learned skill; only the columns retirement needs. */
  exportClaims(): ExportClaim[] {
    return exportClaimsIn(this.db);
  }

  /** Directory candidates: most recent (`last_used`) or most used (`use_count`) first. */
  top(filter: StoreFilter, order: 'recent' | 'top', limit: number): SkillRecord[] {
    const noted = this.usage.noting ? this.usage.notedSkills().flatMap((skill) => this.index.get(skill)?.docId ?? []) : [];
    const counts = (row: Record<string, unknown>) =>
      this.countsOf({ ...(row as unknown as SkillIdentity), use_count: Number(row.use_count), last_used: Number(row.last_used) });
    return rowsByUse(this.db, filterSql(filter), order, limit, noted, counts).map((row) => this.toRecord(row));
  }

  /** A skill's counters as reads see them: its row's, or those noted since (skillUsageFile.ts). */
  private countsOf(row: SkillIdentity & { use_count: number; last_used: number }): { use_count: number; last_used: number } {
    const noted = this.usage.countsOf(row);
    if (!noted) return { use_count: row.use_count, last_used: row.last_used };
    return { use_count: Math.max(row.use_count, noted.use_count), last_used: Math.max(row.last_used, noted.last_used) };
  }

  /**
   * Whether a pack skill's row holds its body although bodies are read from files (a row written
   * before, or by a store without a reader): the pack loader rewrites such a row without it.
   */
  holdsSourceBody(record: SkillRecord): boolean {
    return this.sourceBodies !== undefined && record.origin === 'pack' && !this.lazyBodies.has(record) && record.body !== '';
  }

  /** A row as a record; a pack skill stored without its body reads it from its file on first use. */
  private toRecord(row: Record<string, unknown>, entry?: SkillEntry): SkillRecord {
    const lazy = this.lazyBody !== undefined && row.origin === 'pack' && (row.body ?? '') === '';
    const record = rowToRecord(row, entry, lazy ? this.lazyBody : undefined);
    if (this.usage.noting) Object.assign(record, this.countsOf(record));
    if (lazy) this.lazyBodies.add(record);
    return record;
  }

  private entry(name: string, scope?: SkillScope): SkillEntry | undefined {
    return scope ? this.index.get({ ...pickScope(scope), name }) : this.index.named(name)[0];
  }

  /** The filter as a mirror predicate, one skill per name (the most specific scope's). */
  private visible(filter: StoreFilter): (entry: SkillEntry) => boolean {
    return this.index.visible(entryPredicate(filter));
  }

  /**
   * Rebuilds the in-memory mirror from the database (on open when the check could not; after a
   * rollback); returns the doc ids of rows stored without terms.
   */
  private loadMirror(): number[] {
    this.version++;
    this.learned.reset();
    this.recent.clear();
    this.vocabulary.clear();
    this.rows.forgetIds();
    return fillMirror(this.index, this.db, this.vocabulary);
  }

  /**
   * Analyses and stores the terms of rows stored without them (a store written when sql.js had
   * no full-text engine kept none), so every skill is ranked; one transaction, saved with the
   * store's next save.
   */
  private storeTermsOf(docIds: readonly number[]): void {
    if (docIds.length === 0) return;
    const analysed: Array<{ entry: SkillEntry; docId: number; terms: ReturnType<typeof countedTerms> }> = [];
    for (const docId of docIds) {
      const entry = this.index.byDocId(docId);
      const row = entry && this.db.get('SELECT * FROM skills WHERE doc_id = ?', [docId]);
      if (entry && row) analysed.push({ entry, docId, terms: countedTerms(this.toRecord(row), this.analyzer, this.vocabulary) });
    }
    this.transaction(() => this.rows.insertTerms(analysed.map(({ docId, terms }) => ({ docId, encoded: encodeCounted(terms) }))));
    for (const { entry, terms } of analysed) this.index.set(entry, this.vocabulary.relabel(terms, this.intern));
    this.version++;
  }
}

function pickScope(scope: SkillScope): SkillScope {
  return { scope_mode: scope.scope_mode, scope_tenant_id: scope.scope_tenant_id, scope_project_id: scope.scope_project_id };
}
