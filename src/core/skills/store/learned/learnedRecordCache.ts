import type { SkillRecord } from '../../skillSchema';

/**
 * The store's learned records, held in memory once first asked for and kept in step by every
 * write of the store. The learned-skill journal is rewritten after each learned change, and
 * reading 10,000 rows back out of sql.js for it cost more than the change itself (a snapshot
 * import spent ~1 s there). Writes that change a row in place without the full record (status,
 * source, usage counts) mark it stale: it is read again, alone, next time.
 *
 * Records handed out are the cache's own objects: callers treat records as immutable (every
 * change in this code base builds a new one).
 */
export class LearnedRecordCache {
  /** doc id → record; `null` marks a row to read again. Undefined until first asked. */
  private records: Map<number, SkillRecord | null> | undefined;

  /**
   * Every learned record, in the store's `all()` order (name, then scope). `readAll` reads every
   * learned row with its doc id; `readSome` the rows of the given doc ids.
   */
  list(readAll: () => Array<[number, SkillRecord]>, readSome: (docIds: number[]) => Array<[number, SkillRecord]>): SkillRecord[] {
    if (!this.records) {
      this.records = new Map(readAll());
    } else {
      const stale = [...this.records].filter(([, record]) => record === null).map(([docId]) => docId);
      if (stale.length) {
        for (const docId of stale) this.records.delete(docId);
        for (const [docId, record] of readSome(stale)) this.records.set(docId, record);
      }
    }
    return [...this.records.values()].filter((r): r is SkillRecord => r !== null).sort(byNameThenScope);
  }

  /** A row was written with this full record (any origin: a pack skill replacing a learned one drops it). */
  put(docId: number, record: SkillRecord): void {
    if (!this.records) return;
    if (record.origin === 'learned') this.records.set(docId, record);
    else this.records.delete(docId);
  }

  delete(docId: number): void {
    this.records?.delete(docId);
  }

  /** The row changed in place (status, source, usage): read it again next time. */
  stale(docId: number): void {
    if (this.records?.has(docId)) this.records.set(docId, null);
  }

  /** Forget everything (the database was rolled back or reloaded). */
  reset(): void {
    this.records = undefined;
  }
}

function byNameThenScope(a: SkillRecord, b: SkillRecord): number {
  return (
    compare(a.name, b.name) ||
    compare(a.scope_mode, b.scope_mode) ||
    compare(a.scope_tenant_id, b.scope_tenant_id) ||
    compare(a.scope_project_id, b.scope_project_id)
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
