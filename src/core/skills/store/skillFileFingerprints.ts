import type { SqlValue } from 'sql.js';
import type { HostSlices } from '../../platform/hostSlices';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import { writeKeyedRows, writeKeyedRowsInSlices } from '../../sql/keyedRows';
import type { SkillIdentity } from './skillScope';

/**
 * What the pack loader knew about each skill file it loaded cleanly (`skill_files` in the skill
 * store): the pack settings it was loaded under, its size and modification time, how many
 * skills it defined, and the problems it had. A later load (a warm start) trusts a file whose size and time are the same
 * and skips reading and parsing it: its skills are already in the store. The rules for when the
 * loader may trust a fingerprint are in skillPackLoader's unchanged-file check.
 */

export interface FileFingerprint {
  file: string;
  /**
   * The pack settings the file was loaded under and what it defined (each skill's identity, line
   * and content hash), hashed (unchangedFiles.fileKey): a row damaged or changed since is read again.
   */
  packKey: string;
  size: number;
  mtimeMs: number;
  /** When the fingerprint was taken: a file modified within the clock's resolution of it is not trusted. */
  recordedAt: number;
  skillCount: number;
  /**
   * The file's problems when it was read, reported again while it is unchanged: the loader's, as
   * deflated JSON without their file (keptProblems.ts); empty for none.
   */
  problems: Uint8Array;
  /** False when `problems` hold no error: the skill list then need not read them back (skillTree.ts). */
  errors: boolean;
}

/** A pack skill as stored, with what the unchanged-file check reads. */
export interface StoredPackSkill extends SkillIdentity {
  line: number;
  /** The stored `requires` (JSON): a skill with requirements is re-checked against the environment. */
  requires: string;
  /** The stored `resources` (JSON). */
  resources: string;
  contentHash: string;
}

/** A fingerprint's `problems` when the file had none. */
export const NO_PROBLEMS = new Uint8Array(0);

export class SkillFileFingerprints {
  constructor(private readonly db: () => SqlDatabase) {}

  /** Every fingerprint, by file, read in one statement. */
  all(): Map<string, FileFingerprint> {
    const out = new Map<string, FileFingerprint>();
    for (const r of this.db().arrays(`SELECT ${FINGERPRINT_COLUMNS} FROM skill_files`)) {
      const fingerprint = fingerprintOf(r);
      out.set(fingerprint.file, fingerprint);
    }
    return out;
  }

  /** `all()` read in chunks, the host given its turns between them (`inChunks`): a warm start's check. */
  async allInSlices(slices: Pick<HostSlices, 'pause'>): Promise<Map<string, FileFingerprint>> {
    const out = new Map<string, FileFingerprint>();
    // The table's key is its path (no rowid): in key order, as a whole-table read lists it. A row
    // whose path is not text (only damage writes one) sorts after every text, so the chunk after it
    // starts before it again: past the rows the table held at the start — rows are only removed
    // meanwhile (a reload forgets its file; a load writes them at its end) — the key did not
    // advance, and the table is read in one statement instead.
    const most = Number(this.db().arrays('SELECT COUNT(*) FROM skill_files')[0]?.[0] ?? 0);
    let read = 0;
    const whole = await inChunks(this.db, FINGERPRINT_CHUNKS, slices, (r) => {
      const fingerprint = fingerprintOf(r);
      out.set(fingerprint.file, fingerprint);
      return ++read <= most;
    });
    return whole ? out : this.all();
  }

  /** One file's fingerprint (an answer given before a load's check ends checks a few files, not all). */
  of(file: string): FileFingerprint | undefined {
    const row = this.db().arrays(`SELECT ${FINGERPRINT_COLUMNS} FROM skill_files WHERE file = ?`, [file])[0];
    return row ? fingerprintOf(row) : undefined;
  }

  /**
   * Replaces every fingerprint with one load's view of every file, writing only the rows that
   * changed (a warm start that read a few files rewrites a few rows, not every file's).
   */
  replaceAll(rows: readonly FileFingerprint[], stored: ReadonlyMap<string, FileFingerprint>): void {
    const { gone, changed } = replacement(rows, stored);
    writeKeyedRows(this.db(), FINGERPRINT_TABLE, gone, changed);
  }

  /**
   * `replaceAll` a few hundred rows at a time, the host given its turns between them (a cold
   * load's end writes every file's). Each fingerprint holds on its own: a file whose fingerprint a
   * save between two of them missed is read again by the next load.
   */
  async replaceAllInSlices(rows: readonly FileFingerprint[], stored: ReadonlyMap<string, FileFingerprint>, slices: Pick<HostSlices, 'pause'>): Promise<void> {
    const { gone, changed } = replacement(rows, stored);
    await writeKeyedRowsInSlices(this.db, FINGERPRINT_TABLE, gone, changed, slices);
  }

  /** Forgets a file (or every file under a folder): it is read again on the next load. */
  forget(path: string): void {
    this.db().run("DELETE FROM skill_files WHERE file = ? OR substr(file, 1, length(?) + 1) IN (? || '/', ? || '\\')", [path, path, path, path]);
  }

  /** Every pack skill, grouped by its source file (one query). */
  packSkillsByFile(): Map<string, StoredPackSkill[]> {
    const out = new Map<string, StoredPackSkill[]>();
    for (const r of this.db().arrays(`SELECT ${PACK_SKILL_COLUMNS} FROM skills WHERE origin = 'pack'`)) addPackSkill(out, r);
    return out;
  }

  /** `packSkillsByFile()` read in chunks, the host given its turns between them (`inChunks`): a warm start's check. */
  async packSkillsByFileInSlices(slices: Pick<HostSlices, 'pause'>): Promise<Map<string, StoredPackSkill[]>> {
    const out = new Map<string, StoredPackSkill[]>();
    // In rowid order, as the whole-table read lists them (each file's skills in the same order).
    await inChunks(this.db, PACK_SKILL_CHUNKS, slices, (r) => {
      addPackSkill(out, r);
      return true;
    });
    return out;
  }

  /** The pack skills one file defined, as `packSkillsByFile` lists them. */
  packSkillsOf(file: string): StoredPackSkill[] {
    return this.db().arrays(`SELECT ${PACK_SKILL_COLUMNS} FROM skills WHERE origin = 'pack' AND source_file = ?`, [file]).map(packSkillOf);
  }
}

const FINGERPRINT_TABLE = {
  name: 'skill_files',
  key: 'file',
  columns: ['file', 'pack_key', 'size', 'mtime_ms', 'recorded_at', 'skill_count', 'problems', 'errors'],
} as const;

const FINGERPRINT_COLUMNS = FINGERPRINT_TABLE.columns.join(', ');

/** What replacing `stored` with `rows` writes: the files gone, and the rows new or changed. */
function replacement(rows: readonly FileFingerprint[], stored: ReadonlyMap<string, FileFingerprint>): { gone: string[]; changed: SqlValue[][] } {
  const kept = new Set(rows.map((row) => row.file));
  return {
    gone: [...stored.keys()].filter((file) => !kept.has(file)),
    changed: rows
      .filter((row) => !sameFingerprint(row, stored.get(row.file)))
      .map((f) => [f.file, f.packKey, f.size, f.mtimeMs, f.recordedAt, f.skillCount, f.problems, f.errors ? 1 : 0]),
  };
}

/**
 * Rows per chunk of a read in slices: one chunk is a short stretch (a row costs a few
 * microseconds; 10,000 fingerprints and 10,000 pack skills read whole took ≈ 120 ms in the
 * extension host), and a chunk re-finds its place by the table's key.
 */
const CHUNK_ROWS = 256;

/** A table read in chunks: `first` and `next` select the rows in key order, `next` those after the key bound to `?` (a row's `keyOf`). */
interface ChunkedRead {
  first: string;
  next: string;
  keyOf: (row: readonly SqlValue[]) => SqlValue;
}

// The path's stored bytes are the key bound again, not the text read back: sql.js reads a path
// that was not valid UTF-8 (a lone surrogate in a JS string) back as other text, which sorts elsewhere.
const FINGERPRINT_CHUNKS: ChunkedRead = {
  first: `SELECT ${FINGERPRINT_COLUMNS}, CAST(file AS BLOB) FROM skill_files ORDER BY file LIMIT ${CHUNK_ROWS}`,
  next: `SELECT ${FINGERPRINT_COLUMNS}, CAST(file AS BLOB) FROM skill_files WHERE file > CAST(? AS TEXT) ORDER BY file LIMIT ${CHUNK_ROWS}`,
  keyOf: (row) => row[row.length - 1] as SqlValue,
};

/**
 * Calls `add` with each row of `read`, a chunk at a time, pausing for the host (`slices`) between
 * chunks; false when `add` asked to stop (false for a row). Each chunk is its own statement, run
 * to its end before the pause: sql.js frees every prepared statement when the database is
 * exported, and a save may export it during a pause, so no statement stays open across one (the
 * next chunk is prepared again). The key is bound as it was read, so a value of another type keeps
 * its place in SQLite's order. Rows written during a pause (a file reloaded meanwhile) may make a
 * file's rows a mix of before and after, which its fingerprint does not match: such a file is
 * read again, as a changed one.
 */
async function inChunks(db: () => SqlDatabase, read: ChunkedRead, slices: Pick<HostSlices, 'pause'>, add: (row: SqlValue[]) => boolean): Promise<boolean> {
  let rows = db().arrays(read.first);
  for (;;) {
    for (const row of rows) if (!add(row)) return false;
    const last = rows[rows.length - 1];
    if (rows.length < CHUNK_ROWS || !last) return true;
    await slices.pause();
    rows = db().arrays(read.next, [read.keyOf(last)]);
  }
}

function fingerprintOf(r: readonly unknown[]): FileFingerprint {
  return {
    file: String(r[0]),
    packKey: String(r[1]),
    size: Number(r[2]),
    mtimeMs: Number(r[3]),
    recordedAt: Number(r[4]),
    skillCount: Number(r[5]),
    problems: r[6] instanceof Uint8Array ? r[6] : NO_PROBLEMS,
    errors: r[7] !== 0,
  };
}

// Usually-empty values as NULL, read back as that value (sql.js decodes every text value it returns).
const PACK_SKILL_COLUMNS =
  "source_file, name, scope_mode, NULLIF(scope_tenant_id, ''), NULLIF(scope_project_id, ''), source_line, NULLIF(requires, '[]'), NULLIF(resources, '[]'), content_hash";

const PACK_SKILL_CHUNKS: ChunkedRead = {
  first: `SELECT ${PACK_SKILL_COLUMNS}, rowid FROM skills WHERE origin = 'pack' ORDER BY rowid LIMIT ${CHUNK_ROWS}`,
  next: `SELECT ${PACK_SKILL_COLUMNS}, rowid FROM skills WHERE origin = 'pack' AND rowid > ? ORDER BY rowid LIMIT ${CHUNK_ROWS}`,
  keyOf: (row) => row[row.length - 1] as SqlValue,
};

/** Adds a row of PACK_SKILL_COLUMNS to its file's list. */
function addPackSkill(out: Map<string, StoredPackSkill[]>, r: readonly unknown[]): void {
  const file = String(r[0]);
  const skill = packSkillOf(r);
  const list = out.get(file);
  if (list) list.push(skill);
  else out.set(file, [skill]);
}

function packSkillOf(r: readonly unknown[]): StoredPackSkill {
  return {
    name: String(r[1]),
    scope_mode: String(r[2]) as StoredPackSkill['scope_mode'],
    scope_tenant_id: String(r[3] ?? ''),
    scope_project_id: String(r[4] ?? ''),
    line: Number(r[5]),
    requires: String(r[6] ?? '[]'),
    resources: String(r[7] ?? '[]'),
    contentHash: String(r[8] ?? ''),
  };
}

function sameFingerprint(a: FileFingerprint, b: FileFingerprint | undefined): boolean {
  return (
    b !== undefined &&
    a.packKey === b.packKey &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.recordedAt === b.recordedAt &&
    a.skillCount === b.skillCount &&
    a.errors === b.errors &&
    (a.problems === b.problems || sameBytes(a.problems, b.problems))
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
