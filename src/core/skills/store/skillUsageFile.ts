import type { ByteStore, Logger } from '../../platform/ports';
import type { PersistentDatabase } from '../../sql/persistentDatabase';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import { identityKey } from './skillScope';
import type { SkillIdentity } from './skillScope';

/** A skill's usage counters, as stored in its row (`use_count`, `last_used`). */
interface SkillUsage extends SkillIdentity {
  use_count: number;
  last_used: number;
}

const FORMAT = 'toolshed-skill-usage/1';

/**
 * The usage counters changed since the skill store was last written whole, in a small file beside
 * it (`<store key>.usage`).
 *
 * Every skill a request uses counts a use (`SkillStore.recordUsage`). Written into the store
 * alone, each use rewrote the whole store: sql.js can only save a database by copying it out
 * whole (25 MB at 10,000 skills, every prompt a pre-flight answered). Nor are the rows updated in
 * memory: any write into sql.js's database can grow its in-memory file, which sql.js grows by
 * copying it into a buffer an eighth larger. The counters noted here are what reads see (they are
 * never below the row's), and they reach the rows just before the store is next written whole for
 * another reason (`saveWith`); this file keeps them across restarts until then, and is then
 * emptied of what that write holds.
 *
 * Values are absolute and applied as maxima (`MAX(use_count, ?)`), so applying the file twice —
 * after a crash between the store's write and this file's — counts nothing twice, and an old file
 * never lowers a newer store's counts. A file that cannot be read costs only those counts.
 */
export class SkillUsageFile {
  private readonly pending = new Map<string, SkillUsage>();
  private dirty = false;
  private onDisk: boolean;

  private constructor(
    private readonly store: ByteStore,
    private readonly key: string,
    onDisk: boolean,
  ) {
    this.onDisk = onDisk;
  }

  /** The file of the store under `storeKey`, and the counters it holds (none when absent or unreadable). */
  static async open(store: ByteStore, storeKey: string, logger: Logger): Promise<SkillUsageFile> {
    const key = `${storeKey}.usage`;
    let bytes: Uint8Array | undefined;
    try {
      bytes = await store.read(key);
    } catch (error) {
      logger.warn(`Skill usage counts "${key}" cannot be read (${error instanceof Error ? error.message : String(error)}); the store's own counts are kept.`);
    }
    const stored = bytes ? parseUsage(bytes) : [];
    if (bytes && stored === undefined) logger.warn(`Skill usage counts "${key}" are not in the expected format; the store's own counts are kept.`);
    const file = new SkillUsageFile(store, key, bytes !== undefined);
    for (const usage of stored ?? []) file.note(usage);
    file.dirty = false;
    return file;
  }

  /** Counters of a skill as they are now in the store's rows. */
  note(usage: SkillUsage): void {
    this.pending.set(identityKey(usage), { ...pick(usage) });
    this.dirty = true;
  }

  /**
   * After open: keeps of the stored counters only those above the row of a skill still stored
   * (`rowOf`: its counters as its row holds them), as the larger of the two, so a file applied
   * twice counts nothing twice. The file is left as it is until the next save that has to write.
   */
  settle(rowOf: (identity: SkillIdentity) => SkillUsage | undefined): void {
    for (const [key, usage] of this.pending) {
      const row = rowOf(usage);
      const counts = row && storedCounts(row, usage);
      if (counts) this.pending.set(key, counts);
      else this.pending.delete(key);
    }
  }

  /** The counters noted for that skill (newer than its row's), if any. */
  countsOf(identity: SkillIdentity): SkillUsage | undefined {
    return this.pending.size === 0 ? undefined : this.pending.get(identityKey(identity));
  }

  /** The skills whose counters are noted. */
  notedSkills(): SkillIdentity[] {
    return [...this.pending.values()];
  }

  /** Whether counters are noted for any skill (reads must then look here). */
  get noting(): boolean {
    return this.pending.size > 0;
  }

  /** Counts one use of the skill of that row (its counters as the row holds them, when none are noted). */
  countUse(row: SkillUsage, now: number): void {
    const counts = this.countsOf(row) ?? row;
    this.note({ ...pick(row), use_count: counts.use_count + 1, last_used: now });
  }

  /** Forgets the counters of a skill that is gone (they left with its row). */
  forget(identity: SkillIdentity): void {
    if (this.pending.delete(identityKey(identity))) this.dirty = true;
  }

  /**
   * Saves the store's database (whole, when a row changed other than by a use: the noted counters
   * are written into the rows first) and then this file: what the whole write held is forgotten
   * here (noted before it, unchanged since).
   */
  async saveWith(database: PersistentDatabase, docIdOf: (identity: SkillIdentity) => number | undefined): Promise<void> {
    const whole = database.unsaved;
    if (whole) writeCounts(database.db, this.pending.values(), docIdOf);
    const noted = new Map(this.pending);
    await database.save();
    if (whole)
      for (const [key, usage] of noted)
        if (this.pending.get(key) === usage) {
          this.pending.delete(key);
          this.dirty = true;
        }
    await this.saveNoted((identity) => docIdOf(identity) !== undefined);
  }

  /**
   * Writes what is noted (of skills that still exist), or removes the file when nothing is: alone,
   * for a store whose other changes are not to be kept (SkillStore.saveUsage).
   */
  async saveNoted(exists: (identity: SkillIdentity) => boolean): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    for (const [key, usage] of this.pending) if (!exists(usage)) this.pending.delete(key);
    try {
      if (this.pending.size > 0) {
        const usage = [...this.pending.values()].map((u) => [u.scope_mode, u.scope_tenant_id, u.scope_project_id, u.name, u.use_count, u.last_used]);
        await this.store.write(this.key, new TextEncoder().encode(JSON.stringify({ format: FORMAT, usage })));
        this.onDisk = true;
      } else if (this.onDisk) {
        await this.store.delete(this.key);
        this.onDisk = false;
      }
    } catch (error) {
      this.dirty = true;
      throw error;
    }
  }
}

/** Writes the noted counters into the rows of the skills that still exist, in one transaction. */
function writeCounts(db: SqlDatabase, noted: Iterable<SkillUsage>, docIdOf: (identity: SkillIdentity) => number | undefined): void {
  db.transaction(() => {
    for (const usage of noted) {
      const docId = docIdOf(usage);
      if (docId !== undefined)
        db.run('UPDATE skills SET use_count = MAX(use_count, ?), last_used = MAX(last_used, ?) WHERE doc_id = ?', [usage.use_count, usage.last_used, docId]);
    }
  });
}

/**
 * The counters a stored usage file gives a skill whose row holds `row`: the larger of the two
 * (`undefined` when the row's are not smaller), so a file applied twice counts nothing twice.
 */
function storedCounts(row: SkillUsage, stored: SkillUsage): SkillUsage | undefined {
  if (stored.use_count <= row.use_count && stored.last_used <= row.last_used) return undefined;
  return { ...pick(row), use_count: Math.max(row.use_count, stored.use_count), last_used: Math.max(row.last_used, stored.last_used) };
}

function pick(usage: SkillUsage): SkillUsage {
  const { scope_mode, scope_tenant_id, scope_project_id, name, use_count, last_used } = usage;
  return { scope_mode, scope_tenant_id, scope_project_id, name, use_count, last_used };
}

/** The counters in a usage file, or undefined when it is not one. */
function parseUsage(bytes: Uint8Array): SkillUsage[] | undefined {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { format?: unknown; usage?: unknown };
    if (parsed.format !== FORMAT || !Array.isArray(parsed.usage)) return undefined;
    const out: SkillUsage[] = [];
    for (const row of parsed.usage as unknown[]) {
      if (!Array.isArray(row) || row.length !== 6) return undefined;
      const [scope_mode, scope_tenant_id, scope_project_id, name, use_count, last_used] = row as unknown[];
      if (scope_mode !== 'global' && scope_mode !== 'tenant' && scope_mode !== 'project') return undefined;
      if (typeof scope_tenant_id !== 'string' || typeof scope_project_id !== 'string' || typeof name !== 'string') return undefined;
      if (!Number.isSafeInteger(use_count) || !Number.isFinite(last_used) || (use_count as number) < 0) return undefined;
      out.push({ scope_mode, scope_tenant_id, scope_project_id, name, use_count: use_count as number, last_used: last_used as number });
    }
    return out;
  } catch {
    return undefined;
  }
}
