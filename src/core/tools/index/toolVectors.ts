import type { Embedder } from '../../search/embedding/embedder';
import { VectorTable } from '../../search/embedding/vectorTable';
import type { SemanticStage } from '../../search/embedding/semanticStage';
import { SEMANTIC_DEFAULTS } from '../../search/embedding/semanticStage';
import type { ToolField } from './toolDocument';
import type { DocumentObserver } from './toolDocument';
import type { ToolIndex } from './toolIndex';

/**
 * Tool vectors of an in-process embedder, kept in step with the index: each document the
 * index gains or changes is embedded from its analysed terms (name counted twice, parameters
 * a little), each one it drops is dropped — incremental, no second analysis of the text.
 */
export const VECTOR_FIELD_WEIGHTS: Readonly<Record<ToolField, number>> = { name: 2, tags: 1, description: 1, paramNames: 0.3, paramDescriptions: 0.3 };

export class ToolTermVectors implements DocumentObserver, SemanticStage {
  readonly table: VectorTable;
  readonly weight: number = SEMANTIC_DEFAULTS.weight;
  readonly neighbours: number = SEMANTIC_DEFAULTS.neighbours;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly index: ToolIndex,
    private readonly embedder: Embedder & Required<Pick<Embedder, 'vectorOfTerms'>>,
    dims: number,
  ) {
    this.table = new VectorTable(dims);
    this.subscription = index.observeDocuments(this);
  }

  set(name: string): void {
    const vector = this.embedder.vectorOfTerms(this.index.stats.documentTerms(name, VECTOR_FIELD_WEIGHTS, false));
    if (vector) this.table.set(name, vector);
    else this.table.delete(name);
  }

  delete(name: string): void {
    this.table.delete(name);
  }

  queryVector(query: string): Float32Array | undefined {
    return this.embedder.vectorNow(query);
  }

  dispose(): void {
    this.subscription.dispose();
    this.table.clear();
  }
}
