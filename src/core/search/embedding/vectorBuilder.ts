import type { Embedder, WeightedTerm } from './embedder';

/**
 * Where a search index keeps embedding vectors between sessions, by (model key, content hash):
 * `sql/vectorCache.ts` over the tool index's companion database or the skill store's. A port
 * here, so the embedding stage does not reach down into storage.
 */
export interface VectorStore {
  get(model: string, hashes: readonly string[]): Map<string, Float32Array>;
  /** Every vector of the model, by hash. */
  all(model: string): Map<string, Float32Array>;
  put(model: string, vectors: ReadonlyMap<string, Float32Array>): void;
  /** Drops the model's vectors whose hash is not in `keep`; returns how many went. */
  retain(model: string, keep: Iterable<string>): number;
}

/** What a document's vector is made from: its text, or (an in-process model that reads terms) its analysed terms. */
export type VectorSource = string | (() => Iterable<WeightedTerm>);

/** What `fetch` has for the hashes it was asked: the vectors it got, and why it lacks the rest. */
export interface FetchedVectors {
  /** By hash: from the store, or embedded now and stored. */
  vectors: Map<string, Float32Array>;
  /** How many of `vectors` were embedded now (0: every one came from the store, or the embedder failed). */
  embedded: number;
  /** What went wrong when the embedder failed (the store's vectors are still in `vectors`). */
  failure?: string;
}

/**
 * The one fetch-through-cache step of tool and skill vectors. A document's vector is looked up
 * by the hash of what it is made from, among one model's vectors in the store (the embedder's
 * key names the model: a vector made by another is never used); only the misses are embedded —
 * an endpoint in one call (its client splits it into batches), an in-process model at once —
 * and the new ones are stored, so a later session embeds nothing it embedded before. A store
 * that cannot be read or written costs an embedding, never a search. An embedder that fails is
 * told to the caller (which keeps ranking lexical), never thrown.
 */
export class VectorBuilder {
  constructor(
    /** Absent: nothing is kept between sessions (every vector is embedded). */
    private readonly store?: VectorStore,
    /** Called after new vectors were stored (the owner saves its database with its next write). */
    private readonly stored: () => void = () => undefined,
  ) {}

  /** Whether vectors are kept between sessions (there is a store to prune). */
  get storesVectors(): boolean {
    return this.store !== undefined;
  }

  /**
   * The vectors of `wanted` (hash → text) for any embedder: the store's first, the rest embedded
   * in one call and stored. Never rejects. Undefined when `stillWanted` said no once the
   * embedder answered (the owner was disposed or moved to another model): nothing is stored.
   */
  async fetch(embedder: Embedder, wanted: ReadonlyMap<string, string>, stillWanted: () => boolean = () => true): Promise<FetchedVectors | undefined> {
    const hashes = [...wanted.keys()];
    const vectors = this.read(() => this.store?.get(embedder.key, hashes));
    const missing = hashes.filter((hash) => !vectors.has(hash));
    if (missing.length === 0) return { vectors, embedded: 0 };
    let fresh: Float32Array[];
    try {
      fresh = await embedder.embed(missing.map((hash) => wanted.get(hash)!));
    } catch (error) {
      return { vectors, embedded: 0, failure: error instanceof Error ? error.message : String(error) };
    }
    if (!stillWanted()) return undefined;
    const added = new Map(missing.map((hash, i) => [hash, fresh[i]]));
    this.save(embedder.key, added);
    for (const [hash, vector] of added) vectors.set(hash, vector);
    return { vectors, embedded: added.size };
  }

  /**
   * The vectors of `wanted` (hash → source) now, from an in-process embedder: the store's (the
   * model's whole set in one read, only when something is wanted), the rest embedded and stored.
   * A source without a vector (none of its words known) maps to undefined.
   */
  vectorsNow(embedder: Embedder, wanted: ReadonlyMap<string, VectorSource>): Map<string, Float32Array | undefined> {
    const vectors = new Map<string, Float32Array | undefined>();
    if (wanted.size === 0) return vectors;
    const persisted = this.store ? this.read(() => this.store?.all(embedder.key)) : undefined;
    const added = new Map<string, Float32Array>();
    for (const [hash, source] of wanted) {
      let vector = persisted?.get(hash);
      if (!vector) {
        vector = typeof source === 'string' ? embedder.vectorNow(source) : embedder.vectorOfTerms?.(source());
        if (vector) added.set(hash, vector);
      }
      vectors.set(hash, vector);
    }
    this.save(embedder.key, added);
    return vectors;
  }

  /**
   * Drops the model's stored vectors whose hash is not in `keep` (the hashes of every current
   * document, all of them). Returns how many went; 0 without a store or when it cannot be written.
   */
  retain(model: string, keep: Iterable<string>): number {
    if (!this.store) return 0;
    try {
      return this.store.retain(model, keep);
    } catch {
      // A damaged store only keeps its stale rows.
      return 0;
    }
  }

  private read(get: () => Map<string, Float32Array> | undefined): Map<string, Float32Array> {
    try {
      return get() ?? new Map();
    } catch {
      // A damaged store only costs a new embedding.
      return new Map();
    }
  }

  private save(model: string, vectors: ReadonlyMap<string, Float32Array>): void {
    if (vectors.size === 0 || !this.store) return;
    try {
      this.store.put(model, vectors);
    } catch {
      // A store that cannot be written costs the next session an embedding, nothing more.
      return;
    }
    this.stored();
  }
}
