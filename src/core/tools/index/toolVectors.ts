import type { Embedder } from '../../search/embedding/embedder';
import { VectorTable } from '../../search/embedding/vectorTable';
import { VectorBuilder } from '../../search/embedding/vectorBuilder';
import type { VectorSource } from '../../search/embedding/vectorBuilder';
import type { SemanticStage } from '../../search/embedding/semanticStage';
import { SEMANTIC_DEFAULTS } from '../../search/embedding/semanticStage';
import type { RelevanceCalibration } from '../../search/embedding/fusedRelevance';
import type { DocumentObserver, ToolField } from './toolDocument';
import type { ToolIndex } from './toolIndex';

/**
 * Tool vectors of an in-process embedder, kept in step with the index: each document the
 * index gains or changes is embedded from its analysed terms (name counted twice, parameters
 * a little), each one it drops is dropped — incremental, no second analysis of the text. They
 * are not stored: the terms are at hand and the bundled model embeds them in microseconds.
 *
 * The index is searchable before its vectors exist: a few changed tools are embedded at the
 * next search, a whole catalog (a cold start) in the background in slices, and until then the
 * stage gives no query vector, so ranking stays lexical rather than the cold index growing.
 */
const VECTOR_FIELD_WEIGHTS: Readonly<Record<ToolField, number>> = { name: 2, tags: 1, description: 1, paramNames: 0.3, paramDescriptions: 0.3 };

/** Pending tools embedded at a search rather than in the background. */
const EMBED_AT_SEARCH = 256;
/** Tools embedded per background slice (a few milliseconds). */
const SLICE = 500;

export class ToolTermVectors implements DocumentObserver, SemanticStage {
  readonly table: VectorTable;
  readonly weight: number = SEMANTIC_DEFAULTS.weight;
  readonly neighbours: number = SEMANTIC_DEFAULTS.neighbours;
  readonly calibration: RelevanceCalibration | undefined;
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waiters: Array<() => void> = [];
  private readonly subscription: { dispose(): void };
  private readonly builder = new VectorBuilder();

  constructor(
    private readonly index: ToolIndex,
    private readonly embedder: Embedder & Required<Pick<Embedder, 'vectorOfTerms'>>,
    dims: number,
  ) {
    this.table = new VectorTable(dims);
    this.calibration = embedder.calibration;
    this.subscription = index.observeDocuments(this);
  }

  set(name: string): void {
    this.pending.add(name);
    this.schedule();
  }

  delete(name: string): void {
    this.pending.delete(name);
    this.table.delete(name);
  }

  queryVector(query: string): Float32Array | undefined {
    if (this.pending.size > EMBED_AT_SEARCH) return undefined;
    this.embedPending(this.pending.size);
    return this.embedder.vectorNow(query);
  }

  /** Resolves once every indexed tool has its vector. */
  settled(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  dispose(): void {
    this.subscription.dispose();
    if (this.timer) clearTimeout(this.timer);
    this.pending.clear();
    this.table.clear();
    this.wake();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.embedPending(SLICE);
      if (this.pending.size > 0) this.schedule();
    }, 0);
  }

  private embedPending(count: number): void {
    const slice = new Map<string, VectorSource>();
    for (const name of this.pending) {
      if (count-- <= 0) break;
      this.pending.delete(name);
      slice.set(name, () => this.index.stats.documentTerms(name, VECTOR_FIELD_WEIGHTS, false));
    }
    for (const [name, vector] of this.builder.vectorsNow(this.embedder, slice)) {
      if (vector) this.table.set(name, vector);
      else this.table.delete(name);
    }
    if (this.pending.size === 0) this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
