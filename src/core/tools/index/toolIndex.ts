import type { SqlDatabase } from '../../sql/sqlDatabase';
import { openStoreDatabase } from '../../sql/persistentDatabase';
import type { PersistentDatabase, StoreDatabaseOptions } from '../../sql/persistentDatabase';
import { TextAnalyzer } from '../../search/textAnalysis';
import type { CountedFields } from '../../search/countedFields';
import { TermVocabulary, decodeCounted, decodeTerms, encodeCounted } from '../../search/termStore';
import { TermIndex } from '../../search/termIndex';
import { TOOL_FIELDS, TOOL_FIELD_B, TOOL_FIELD_WEIGHTS, TOOL_K1, orderedTextTerms, toolFieldTerms } from './toolDocument';
import { XorFingerprint } from './catalogFingerprint';
import { SCHEMA_4_UPGRADES, VOCABULARY_FINGERPRINT_KEY, createSchema, forgetDerivedRows, writePendingRows } from './toolIndexSql';
import type { StoredTerms } from './toolIndexSql';
import type { DocumentObserver, ToolField, ToolFieldTerms } from './toolDocument';
import type { ToolRecord } from '../toolRecord';
import type { RelatedTerms } from '../../search/relatedTerms';

/**
 * The tool search index on sql.js.
 *
 * - Tables `tools` (metadata + each tool's analysed terms, counted, as one blob), `tool_vocab`
 *   (the term vocabulary those blobs refer to) and `tool_index_meta` (catalog and vocabulary
 *   fingerprints, counts): the shared term store of search/termStore.ts, the form the skill store
 *   keeps. No full-text table: ranking never asks the SQL engine.
 * - `sync(records)` compares each record hash with the stored one and touches only changed
 *   rows (incremental); when the whole-catalog fingerprint is unchanged it does nothing.
 * - Bytes persist through the ByteStore (atomic write); a corrupt or other-version file is
 *   rebuilt with a logged reason (persistentDatabase.ts). A schema-4 file (term text columns and
 *   an FTS table) is upgraded in place on open: its index tables are emptied (derived data: the
 *   host's next catalog sync fills them) and the pick log and cached vectors kept.
 * - An in-memory mirror of the analysed fields (`terms`: the one term index of search/termIndex.ts,
 *   BM25F statistics and the postings with their refresh policy) serves ranking and is loaded
 *   from the stored counted terms on a warm start, so unchanged tools are not re-analysed.
 *   `applyDelta` re-indexes a known change in O(changed).
 * - Writes are deferred: `sync`/`applyDelta` update the in-memory mirror (searchable at once)
 *   and queue the row changes; sql.js is written in one transaction when the index is saved
 *   (the service's delayed save) or read (`db`, `fieldTerms`). A cold index therefore costs
 *   analysis only, and record hashes (sha256) are computed at that write.
 */

export const TOOL_INDEX_KEY = 'tools.db';
/** 5: counted term blobs over a vocabulary replaced the term text columns and the FTS table. */
const SCHEMA_REVISION = 5;

export interface SyncReport {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** True when the catalog fingerprint matched and nothing was touched. */
  skipped: boolean;
  ms: number;
}

export interface ToolIndexOptions extends StoreDatabaseOptions {
  incremental?: boolean;
  rebuildOnInit?: boolean;
  /** The vocabulary bridge used to expand queries (none = no related-word expansion). */
  relatedTerms?: RelatedTerms;
}

/** An indexed tool: its row id and its record hash (read from the record when first needed). */
interface StoredRow {
  readonly id: number;
  hash?: string;
  readonly record?: ToolRecord;
}

function hashOf(row: StoredRow): string {
  row.hash ??= row.record!.recordHash;
  return row.hash;
}

export class ToolIndex {
  /** BM25F statistics and postings for the default weights (the ranker's default path), refreshed as search/termIndex.ts says. */
  readonly terms = new TermIndex<ToolField, string>(TOOL_FIELDS, TOOL_FIELD_WEIGHTS, TOOL_FIELD_B, TOOL_K1);
  private readonly observers = new Set<DocumentObserver>();
  /**
   * Analyses every tool's text, and the queries ranked against it: its word memo makes a
   * repeated word a lookup.
   */
  readonly analyzer = new TextAnalyzer();
  private readonly rows = new Map<string, StoredRow>();
  private readonly idToName = new Map<number, string>();
  private readonly fingerprint = new XorFingerprint();
  /** Rows whose hash still has to be XOR-ed into `fingerprint` (added or removed since). */
  private fingerprintQueue: StoredRow[] = [];
  /** The stored term ids (search/termStore.ts): what each row's `terms` blob is counted in. */
  private readonly vocabulary = new TermVocabulary();
  /** Row changes by id, applied to sql.js by `flushPending`. */
  private readonly pendingRows = new Map<number, { record: ToolRecord } | null>();
  /** Ids present in the sql.js `tools` table (decides INSERT vs UPDATE vs nothing). */
  private readonly storedIds = new Set<number>();
  private saveChain: Promise<void> = Promise.resolve();
  private dirty = false;
  private readonly companionFlushes: Array<() => void> = [];
  /** Highest row id handed out (ids are assigned here, so inserts need no read-back). */
  private maxId = 0;

  private constructor(
    private readonly pdb: PersistentDatabase,
    private readonly options: ToolIndexOptions,
  ) {}

  /** The term statistics (BM25F) of every indexed tool. */
  get stats(): TermIndex<ToolField, string>['stats'] {
    return this.terms.stats;
  }

  /** The stored form's version (ranking never asks the SQL engine, so one for every sql.js build). */
  static schemaVersion(): string {
    return `tools/${SCHEMA_REVISION}`;
  }

  static async open(options: ToolIndexOptions): Promise<ToolIndex> {
    // The check on open reads what the mirror is built from (damage that passes SQLite's
    // integrity check shows there, and the file is rebuilt instead of failing here).
    let checked: StoredMirror | undefined;
    const pdb = await openStoreDatabase(options, TOOL_INDEX_KEY, {
      schemaVersion: ToolIndex.schemaVersion(),
      createSchema,
      migrations: SCHEMA_4_UPGRADES,
      distrust: (db) => {
        options.logger.info(
          `Tool index "${options.key ?? TOOL_INDEX_KEY}" holds bytes it did not write last (damaged, written by something else, or a write cut short): every tool is indexed again from the catalog.`,
        );
        forgetDerivedRows(db);
      },
      verify: (db) => {
        checked = undefined;
        checked = readMirror(db);
      },
      forceRebuild: options.rebuildOnInit,
    });
    const index = new ToolIndex(pdb, options);
    const kept = pdb.status === 'loaded' || pdb.status === 'migrated';
    index.loadMirror(kept && checked ? checked : readMirror(pdb.db));
    return index;
  }

  get relatedTerms(): RelatedTerms | undefined {
    return this.options.relatedTerms;
  }

  /** The database with every queued row change written (readers of the `tools` table). */
  get db(): SqlDatabase {
    this.flushPending();
    return this.pdb.db;
  }

  /**
   * The database for companion tables that never read `tools` (the pick log): no flush, so
   * logging a search right after a cold index does not pay for the deferred write.
   */
  get companionDb(): SqlDatabase {
    return this.pdb.db;
  }

  /** Runs `flush` before every save, so a companion table's queued rows are in the saved bytes. */
  onBeforeSave(flush: () => void): void {
    this.companionFlushes.push(flush);
  }

  get openStatus(): { status: string; rebuildReason?: string; backupKey?: string } {
    return { status: this.pdb.status, rebuildReason: this.pdb.rebuildReason, backupKey: this.pdb.backupKey };
  }

  get size(): number {
    return this.rows.size;
  }

  catalogFingerprint(): string {
    for (const row of this.fingerprintQueue) this.fingerprint.toggle(hashOf(row));
    this.fingerprintQueue = [];
    return this.fingerprint.digest();
  }

  /** Row changes not yet written to sql.js (0 once saved or read). */
  get pendingWrites(): number {
    return this.pendingRows.size;
  }

  nameOf(id: number): string | undefined {
    return this.idToName.get(id);
  }

  storedHash(name: string): string | undefined {
    const row = this.rows.get(name);
    return row ? hashOf(row) : undefined;
  }

  /** True when `record` is indexed as is (same object, or same record hash). */
  private isIndexed(record: ToolRecord): boolean {
    const row = this.rows.get(record.name);
    return row !== undefined && (row.record === record || hashOf(row) === record.recordHash);
  }

  /**
   * Brings the index in line with `records` (the execution registry). A linear diff against
   * the stored record hashes finds what changed; only those rows are written (the catalog
   * fingerprint is maintained incrementally, XOR-ing hashes in and out).
   */
  sync(records: readonly ToolRecord[]): SyncReport {
    const start = performance.now();
    const incremental = this.options.incremental !== false;
    const changed: ToolRecord[] = [];
    const wanted = new Set<string>();
    let unchanged = 0;
    for (const record of records) {
      wanted.add(record.name);
      if (this.isIndexed(record)) unchanged++;
      else changed.push(record);
    }
    const removed: string[] = [];
    if (wanted.size !== this.rows.size || changed.length > 0) {
      for (const name of this.rows.keys()) if (!wanted.has(name)) removed.push(name);
    }
    return this.write(start, changed, removed, incremental ? undefined : records, unchanged);
  }

  /**
   * Incremental sync from a known delta (the catalog's changed records and removed names):
   * O(changed) — no pass over the whole catalog. Records whose hash is already stored are
   * skipped. Non-incremental mode falls back to a full rebuild, so call `sync` then.
   */
  applyDelta(upserted: readonly ToolRecord[], removedNames: readonly string[]): SyncReport {
    const start = performance.now();
    const changed = upserted.filter((record) => !this.isIndexed(record));
    const removed = removedNames.filter((name) => this.rows.has(name));
    const unchanged = this.rows.size - removed.length - changed.filter((record) => this.rows.has(record.name)).length;
    return this.write(start, changed, removed, undefined, unchanged);
  }

  /**
   * Applies `changed` rows and `removed` names to the in-memory mirror (searchable on return)
   * and queues the sql.js writes; `all` set = non-incremental full rebuild.
   */
  private write(
    start: number,
    changed: readonly ToolRecord[],
    removed: readonly string[],
    all: readonly ToolRecord[] | undefined,
    unchanged: number,
  ): SyncReport {
    const report: SyncReport = { added: 0, updated: 0, removed: 0, unchanged, skipped: false, ms: 0 };
    if (changed.length === 0 && removed.length === 0) {
      report.skipped = true;
      report.ms = performance.now() - start;
      return report;
    }
    const toWrite = all ?? changed;
    const gone = all ? [...this.rows.keys()] : removed;
    if (all) report.unchanged = 0;
    for (const name of gone) {
      this.pendingRows.set(this.rows.get(name)!.id, null);
      this.forget(name);
    }
    report.removed = removed.length;
    for (const record of toWrite) {
      const existing = this.rows.get(record.name);
      const terms = toolFieldTerms(record, this.analyzer);
      const id = existing ? existing.id : ++this.maxId;
      if (existing) {
        this.forget(record.name);
        report.updated++;
      } else {
        report.added++;
      }
      this.remember(record.name, { id, record }, terms);
      this.pendingRows.set(id, { record });
    }
    this.dirty = true;
    report.ms = performance.now() - start;
    return report;
  }

  /**
   * Writes the queued row changes and the vocabulary's new terms to sql.js in one transaction
   * (multi-row INSERTs). Each row's counted terms are read back from the statistics here, so a
   * cold index keeps no term lists and pays no encoding before it is searchable.
   */
  private flushPending(): void {
    if (this.pendingRows.size === 0) return;
    const idOf = (term: string) => this.vocabulary.idOf(term);
    const rows = new Map<number, StoredTerms>();
    for (const [id, row] of this.pendingRows) {
      const counted = row && this.stats.countedIn(row.record.name, idOf);
      rows.set(id, row && counted ? { record: row.record, terms: encodeCounted(counted) } : null);
    }
    writePendingRows(this.pdb.db, rows, this.storedIds, {
      catalogFingerprint: this.catalogFingerprint(),
      toolCount: this.rows.size,
      newTerms: this.vocabulary.takePending(),
      vocabularyFingerprint: this.vocabulary.fingerprint,
    });
    this.pendingRows.clear();
  }

  /**
   * The tools containing any of `terms` (analysed), once each in no particular order, from the
   * in-memory term index (no sql.js call, and nothing waits for the deferred write): the pool a
   * ranking with other parameters than the index's scores one by one.
   */
  candidateNames(terms: readonly string[]): string[] {
    return this.terms.documentsHolding(terms);
  }

  /**
   * The analysed terms of a tool per field, read from its stored row (the in-memory statistics
   * keep counts only): name, tags and description in text order (analysed again from the stored
   * text, for the ranker's optional term-order features), the parameter fields as counted (each
   * term repeated by its count, in no particular order). Undefined for an unknown tool.
   */
  fieldTerms(name: string): ToolFieldTerms | undefined {
    const row = this.rows.get(name);
    if (!row) return undefined;
    const stored = this.db.get<{ name: string; description: string; tags_json: string; terms: Uint8Array }>(
      'SELECT name, description, tags_json, terms FROM tools WHERE id = ?',
      [row.id],
    );
    if (!stored) return undefined;
    const counted = decodeTerms(stored.terms, this.vocabulary, TOOL_FIELDS);
    const ordered = orderedTextTerms({ name: stored.name, description: stored.description, tags: JSON.parse(stored.tags_json) as string[] }, this.analyzer);
    return { ...counted, ...ordered };
  }

  /** Writes the database bytes now (serialised with other saves). */
  async save(): Promise<void> {
    this.dirty = false;
    const next = this.saveChain.then(() => {
      for (const flush of this.companionFlushes) flush();
      this.flushPending();
      return this.pdb.save();
    });
    this.saveChain = next.catch((error: unknown) => {
      this.dirty = true;
      this.options.logger.error(`Saving the tool index failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    return next;
  }

  /** Marks the database changed by a companion table (the pick log), so the next save writes it. */
  markDirty(): void {
    this.dirty = true;
  }

  /** Saves when something changed since the last save. */
  async saveIfDirty(): Promise<void> {
    if (this.dirty) await this.save();
    else await this.saveChain;
  }

  close(): void {
    this.pdb.close();
  }

  /** Adds a row to the mirror; terms as lists, or counted in the statistics' term ids. */
  private remember(name: string, row: StoredRow, terms: ToolFieldTerms | CountedFields): void {
    this.rows.set(name, row);
    if (row.id > this.maxId) this.maxId = row.id;
    this.fingerprintQueue.push(row);
    this.idToName.set(row.id, name);
    this.terms.set(name, terms);
    for (const observer of this.observers) observer.set(name);
  }

  /** Calls `observer` for every document now and for each later change, until disposed. */
  observeDocuments(observer: DocumentObserver): { dispose(): void } {
    this.observers.add(observer);
    for (const name of this.rows.keys()) observer.set(name);
    return { dispose: () => this.observers.delete(observer) };
  }

  /** Drops a row from the mirror. */
  private forget(name: string): void {
    const row = this.rows.get(name);
    if (row) {
      this.idToName.delete(row.id);
      // XOR-ing the same hash again takes it out of the fingerprint.
      this.fingerprintQueue.push(row);
    }
    this.rows.delete(name);
    this.terms.delete(name);
    for (const observer of this.observers) observer.delete(name);
  }

  private loadMirror({ rows, vocabulary, fingerprint: stored }: StoredMirror): void {
    this.vocabulary.load(vocabulary);
    const intern = (term: string) => this.terms.internTerm(term);
    for (const row of rows) {
      const counted = this.vocabulary.relabel(decodeCounted(row.terms, this.vocabulary, TOOL_FIELDS.length), intern);
      this.remember(row.name, { id: row.id, hash: row.record_hash }, counted);
      this.storedIds.add(row.id);
    }
    if (stored !== undefined && stored !== this.catalogFingerprint()) {
      this.options.logger.warn('Tool index: stored catalog fingerprint does not match its rows; they will be re-checked one by one.');
    }
  }
}

/** What the in-memory mirror is built from: every stored tool row, the term vocabulary and the catalog's fingerprint. */
interface StoredMirror {
  rows: Array<{ id: number; name: string; record_hash: string; terms: Uint8Array }>;
  vocabulary: Array<readonly [number, string]>;
  fingerprint: string | undefined;
}

const metaValue = (db: SqlDatabase, key: string) => db.get<{ value: string }>('SELECT value FROM tool_index_meta WHERE key = ?', [key])?.value;

/**
 * Reads the stored rows and vocabulary, and checks them: a vocabulary whose fingerprint does not
 * match or a term blob that does not decode over it throws (the check on open then rebuilds).
 */
function readMirror(db: SqlDatabase): StoredMirror {
  const vocabulary = db.arrays('SELECT id, term FROM tool_vocab').map((row) => [Number(row[0]), String(row[1])] as const);
  const check = new TermVocabulary();
  check.load(vocabulary);
  const storedPrint = metaValue(db, VOCABULARY_FINGERPRINT_KEY);
  if (vocabulary.length > 0 && storedPrint !== check.fingerprint) throw new Error('the term vocabulary does not match its fingerprint');
  const rows = db.arrays('SELECT id, name, record_hash, terms FROM tools').map((row) => ({
    id: Number(row[0]),
    name: String(row[1]),
    record_hash: String(row[2]),
    terms: row[3] as Uint8Array,
  }));
  for (const row of rows) {
    if (!(row.terms instanceof Uint8Array)) throw new Error(`tool "${row.name}" has no term blob`);
    decodeCounted(row.terms, check, TOOL_FIELDS.length);
  }
  return { rows, vocabulary, fingerprint: metaValue(db, 'catalog_fingerprint') };
}
