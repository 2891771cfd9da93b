/**
 * Which documents hold a term, kept in step with every write: term id (the BM25F statistics'
 * interned ids) → ids of the documents that contain the term in any field. It lists the documents
 * a search scores one by one while the impact postings are out of date (impactPostings.ts: the
 * tool index, whose catalog can change between searches); it holds no weights, so a write costs
 * one append per distinct term.
 *
 * Memory: one growable Int32Array per term (≈ 4–8 bytes per document-term pair). Removal is a
 * batched compaction over all lists (O(postings)), paid only by writes that remove or replace
 * documents.
 */
export class TermPostings {
  private readonly lists: Array<{ ids: Int32Array; length: number } | undefined> = [];
  /** Scratch for `union`: a seen-mark per id (grown on demand, cleared after each call). */
  private seen = new Uint8Array(0);
  private maxId = 0;

  /** Records that document `id` contains the term `termId` (call once per distinct term). */
  add(id: number, termId: number): void {
    if (id > this.maxId) this.maxId = id;
    let list = this.lists[termId];
    if (!list) {
      list = { ids: new Int32Array(4), length: 0 };
      this.lists[termId] = list;
    } else if (list.length === list.ids.length) {
      const grown = new Int32Array(list.ids.length * 2);
      grown.set(list.ids);
      list.ids = grown;
    }
    list.ids[list.length++] = id;
  }

  /** Drops every id in `ids` from every list (one pass). */
  removeAll(ids: ReadonlySet<number>): void {
    if (ids.size === 0) return;
    for (const list of this.lists) {
      if (!list) continue;
      let kept = 0;
      for (let i = 0; i < list.length; i++) {
        const id = list.ids[i];
        if (!ids.has(id)) list.ids[kept++] = id;
      }
      list.length = kept;
    }
  }

  /** Document ids containing any of the terms, ascending. */
  union(termIds: readonly number[]): Int32Array {
    let total = 0;
    const chosen: Array<{ ids: Int32Array; length: number }> = [];
    for (const termId of new Set(termIds)) {
      const list = this.lists[termId];
      if (!list || list.length === 0) continue;
      chosen.push(list);
      total += list.length;
    }
    if (chosen.length === 0) return new Int32Array(0);
    if (chosen.length === 1) return chosen[0].ids.slice(0, chosen[0].length).sort();
    if (this.seen.length <= this.maxId) this.seen = new Uint8Array(Math.max(this.maxId + 1, this.seen.length * 2));
    const seen = this.seen;
    const out = new Int32Array(total);
    let n = 0;
    for (const list of chosen) {
      for (let i = 0; i < list.length; i++) {
        const id = list.ids[i];
        if (seen[id] === 0) {
          seen[id] = 1;
          out[n++] = id;
        }
      }
    }
    for (let i = 0; i < n; i++) seen[out[i]] = 0;
    return out.subarray(0, n).sort();
  }
}
