import type { SkillRecord } from '../skillSchema';

/**
 * Full records recently read, by doc id (bounded: the least recently read goes first). Every
 * `skill_search` reads its hits' records again (suggested tools), and reading a row out of
 * sql.js and parsing its JSON columns was over half of a search's time at 500 skills; a
 * request's few skills now come from memory. The store forgets a row here whenever it writes it
 * (upsert, status, source, usage, delete) and everything on a rollback or reload.
 *
 * Records handed out are the cache's own objects: callers treat records as immutable (every
 * change in this code base builds a new one), as with LearnedRecordCache.
 */
export class RecordReadCache {
  private readonly records = new Map<number, SkillRecord>();

  constructor(private readonly capacity = 2_000) {}

  read(docId: number, load: () => SkillRecord | undefined): SkillRecord | undefined {
    const cached = this.records.get(docId);
    if (cached) {
      // Map order is insertion order: re-inserting marks it most recently read.
      this.records.delete(docId);
      this.records.set(docId, cached);
      return cached;
    }
    const record = load();
    if (record) {
      this.records.set(docId, record);
      if (this.records.size > this.capacity) this.records.delete(this.records.keys().next().value as number);
    }
    return record;
  }

  forget(docId: number): void {
    this.records.delete(docId);
  }

  clear(): void {
    this.records.clear();
  }

  get size(): number {
    return this.records.size;
  }
}
