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
 * whole (30 MB at 10,000 skills, every prompt a pre-flight answered). The rows are still updated
 * in memory; this file keeps them across restarts until the store is next written for another
 * reason, and is then emptied of what that write holds.
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
  static async open(store: ByteStore, storeKey: string, logger: Logger): Promise<{ file: SkillUsageFile; stored: SkillUsage[] }> {
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
    return { file, stored: stored ?? [] };
  }

  /** Counters of a skill as they are now in the store's rows. */
  note(usage: SkillUsage): void {
    this.pending.set(identityKey(usage), { ...pick(usage) });
    this.dirty = true;
  }

  /** Notes the counters the rows of these doc ids hold now. */
  noteRows(db: SqlDatabase, docIds: readonly number[]): void {
    for (const docId of docIds) {
      const row = db.get<SkillUsage & Record<string, string | number>>(
        'SELECT name, scope_mode, scope_tenant_id, scope_project_id, use_count, last_used FROM skills WHERE doc_id = ?',
        [docId],
      );
      if (row) this.note(row);
    }
  }

  /**
   * Saves the store's database (whole, when a row changed other than by a use) and then this file:
   * what the whole write held is forgotten here (noted before it, unchanged since).
   */
  async saveWith(database: PersistentDatabase, exists: (identity: SkillIdentity) => boolean): Promise<void> {
    const noted = new Map(this.pending);
    const whole = database.unsaved;
    await database.save();
    if (whole)
      for (const [key, usage] of noted)
        if (this.pending.get(key) === usage) {
          this.pending.delete(key);
          this.dirty = true;
        }
    await this.save(exists);
  }

  /** Writes what is noted (of skills that still exist), or removes the file when nothing is. */
  private async save(exists: (identity: SkillIdentity) => boolean): Promise<void> {
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

/** Sets each stored skill's counters to the larger of its row's and the file's. */
export function storedUsageUpdate(db: SqlDatabase, stored: readonly SkillUsage[]): (docId: number, skill: SkillIdentity) => void {
  const byKey = new Map(stored.map((usage) => [identityKey(usage), usage]));
  return (docId, skill) => {
    const usage = byKey.get(identityKey(skill));
    if (usage)
      db.run('UPDATE skills SET use_count = MAX(use_count, ?), last_used = MAX(last_used, ?) WHERE doc_id = ?', [usage.use_count, usage.last_used, docId]);
  };
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
