import type { Logger } from '../../platform/ports';
import type { Embedder } from '../../search/embedding/embedder';
import { VectorTable } from '../../search/embedding/vectorTable';
import { SEMANTIC_DEFAULTS } from '../../search/embedding/semanticStage';
import type { SemanticStage } from '../../search/embedding/semanticStage';
import type { RelevanceCalibration } from '../../search/embedding/fusedRelevance';
import { VectorBuilder } from '../../search/embedding/vectorBuilder';
import type { VectorStore } from '../../search/embedding/vectorBuilder';
import type { DocumentObserver } from './toolDocument';
import type { ToolIndex } from './toolIndex';
import type { ToolRecord } from '../toolRecord';

/**
 * Tool vectors from an embedding endpoint, kept in step with the index off the search path:
 * a changed tool is queued, and the queue is embedded in the background — vectors already in
 * the cache (same model, same record hash) are reused, the rest are sent in batches and cached.
 * Until every tool has a vector the stage gives no query vector, so ranking stays lexical
 * (never a half-embedded catalog where the tools without vectors would sink); the same while
 * the endpoint is down. A failed batch stays queued and is retried on the next change or query.
 * Once the queue is empty every current tool has its cached vector, so the cache then drops
 * the model's other rows (tools edited or gone) — at the first such point after a change, not
 * per search.
 */

const RETRY_MS = 30_000;

/** The text a model embeds for a tool: its name and description. */
function toolEmbeddingText(record: ToolRecord): string {
  return `${record.name}: ${record.description}`;
}

export class EndpointToolVectors implements DocumentObserver, SemanticStage {
  private tableOf: VectorTable | undefined;
  private readonly pending = new Set<string>();
  private running: Promise<void> | undefined;
  readonly weight: number = SEMANTIC_DEFAULTS.weight;
  readonly neighbours: number = SEMANTIC_DEFAULTS.neighbours;
  readonly calibration: RelevanceCalibration | undefined;
  private readonly subscription: { dispose(): void };
  private readonly builder: VectorBuilder;
  private disposed = false;
  /** After a failed batch, the queue waits this long before the next try (ms since epoch). */
  private retryAt = 0;
  /** True when the cache may hold rows of tools that are gone or changed (from the start: tools may have changed while closed). */
  private pruneDue = true;

  constructor(
    private readonly index: ToolIndex,
    private readonly records: () => ReadonlyMap<string, ToolRecord>,
    private readonly embedder: Embedder,
    cache: VectorStore,
    private readonly logger: Logger,
  ) {
    this.calibration = embedder.calibration;
    this.builder = new VectorBuilder(cache, () => index.markDirty());
    this.subscription = index.observeDocuments(this);
  }

  get table(): VectorTable {
    return (this.tableOf ??= new VectorTable(this.embedder.dims ?? 1));
  }

  /** Tools still waiting for a vector. */
  get waiting(): number {
    return this.pending.size;
  }

  set(name: string): void {
    this.pending.add(name);
    this.tableOf?.delete(name);
    this.schedule();
  }

  delete(name: string): void {
    this.pending.delete(name);
    this.tableOf?.delete(name);
    this.pruneDue = true;
  }

  queryVector(query: string): Float32Array | undefined {
    if (this.pending.size > 0) {
      this.schedule();
      return undefined;
    }
    return this.embedder.vectorNow(query);
  }

  /**
   * Settles when the queue is empty, a batch failed, or what is left waits on tools the registry
   * lacks (for benches and tests). A drain that began before the registry filled is followed by
   * one more pass.
   */
  async settled(): Promise<void> {
    await this.idle();
    this.schedule();
    await this.idle();
  }

  private async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
    this.pending.clear();
  }

  private schedule(): void {
    if (this.running || this.disposed || this.pending.size === 0 || Date.now() < this.retryAt) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    await Promise.resolve();
    const registry = this.records();
    // A queued tool not in the registry yet (a warm start: the index's stored tools come before
    // the host's list) stays queued; the index's `delete` takes it off if the list lacks it.
    const names = [...this.pending].filter((name) => registry.has(name));
    if (names.length === 0) return;
    const hashes = names.map((name) => registry.get(name)!.recordHash);
    const wanted = new Map(names.map((name, i) => [hashes[i], toolEmbeddingText(registry.get(name)!)]));
    const fetched = await this.builder.fetch(this.embedder, wanted, () => !this.disposed);
    if (!fetched) return;
    this.store(names, hashes, fetched.vectors);
    if (fetched.failure !== undefined) {
      this.retryAt = Date.now() + RETRY_MS;
      // Said once per outage by whoever made the embedder (its onStateChange), not per batch.
      this.logger.debug(`Embedding endpoint: ${fetched.failure}; tool vectors wait until it answers.`);
      return;
    }
    if (fetched.embedded > 0) this.pruneDue = true;
    this.prune();
  }

  /** With every current tool embedded, drops the model's cached vectors of any other record hash. */
  private prune(): void {
    if (!this.pruneDue || this.pending.size > 0 || this.disposed) return;
    this.pruneDue = false;
    const current = Array.from(this.records().values(), (record) => record.recordHash);
    if (this.builder.retain(this.embedder.key, current) > 0) this.index.markDirty();
  }

  /** Moves the tools whose vector is known (by hash) from the queue into the table. */
  private store(names: readonly string[], hashes: readonly string[], vectors: ReadonlyMap<string, Float32Array>): void {
    names.forEach((name, i) => {
      const vector = vectors.get(hashes[i]);
      // Only if the tool did not change again while the batch was out.
      if (!vector || this.records().get(name)?.recordHash !== hashes[i]) return;
      // The table takes the vectors' own size: from the cache alone the embedder may not know it yet.
      if (this.tableOf?.dims !== vector.length) this.tableOf = new VectorTable(vector.length);
      this.tableOf.set(name, vector);
      this.pending.delete(name);
    });
  }
}
