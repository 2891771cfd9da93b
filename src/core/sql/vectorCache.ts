import type { SqlDatabase } from './sqlDatabase';

/**
 * Embedding vectors of a model, cached in a search index's sql.js database by (model key,
 * content hash) — the `VectorStore` that `search/embedding/vectorBuilder.ts` reads and writes:
 * an unchanged tool or skill is never sent to the model again, and a changed one (new hash) is.
 * The table is created on first use; rows of records that are gone or changed are dropped by
 * `retain`, which the owner calls when it knows the whole set of current records (never from
 * one search's view of them).
 */
export class VectorCache {
  private readyIn: SqlDatabase | undefined;

  constructor(private readonly db: () => SqlDatabase) {}

  get(model: string, hashes: readonly string[]): Map<string, Float32Array> {
    const db = this.ready();
    const found = new Map<string, Float32Array>();
    for (const hash of hashes) {
      const row = db.get<{ vector: Uint8Array }>('SELECT vector FROM embedding_vectors WHERE model = ? AND record_hash = ?', [model, hash]);
      if (row?.vector instanceof Uint8Array && row.vector.byteLength % 4 === 0) found.set(hash, new Float32Array(row.vector.slice().buffer));
    }
    return found;
  }

  /** Every cached vector of the model, by record hash (one read: a warm start's whole catalog). */
  all(model: string): Map<string, Float32Array> {
    const found = new Map<string, Float32Array>();
    for (const [hash, vector] of this.ready().arrays('SELECT record_hash, vector FROM embedding_vectors WHERE model = ?', [model])) {
      if (vector instanceof Uint8Array && vector.byteLength % 4 === 0) found.set(String(hash), new Float32Array(vector.slice().buffer));
    }
    return found;
  }

  put(model: string, vectors: ReadonlyMap<string, Float32Array>): void {
    if (vectors.size === 0) return;
    const db = this.ready();
    db.transaction(() => {
      for (const [hash, vector] of vectors) {
        db.run('INSERT OR REPLACE INTO embedding_vectors (model, record_hash, vector) VALUES (?, ?, ?)', [
          model,
          hash,
          new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength),
        ]);
      }
    });
  }

  /**
   * Drops the model's rows whose record hash is not in `keep` (the hashes of every current
   * record, all of them: a record left out loses its vector). One DELETE, however many rows.
   * Returns how many rows went.
   */
  retain(model: string, keep: Iterable<string>): number {
    const db = this.ready();
    db.run('DELETE FROM embedding_vectors WHERE model = ? AND record_hash NOT IN (SELECT value FROM json_each(?))', [model, JSON.stringify([...keep])]);
    return db.raw.getRowsModified();
  }

  private ready(): SqlDatabase {
    const db = this.db();
    if (this.readyIn !== db) {
      db.exec(
        'CREATE TABLE IF NOT EXISTS embedding_vectors (model TEXT NOT NULL, record_hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, record_hash))',
      );
      this.readyIn = db;
    }
    return db;
  }
}
