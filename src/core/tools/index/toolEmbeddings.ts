import type { Logger } from '../../platform/ports';
import type { Embedder } from '../../search/embedding/embedder';
import type { SemanticStage } from '../../search/embedding/semanticStage';
import { VectorCache } from '../../sql/vectorCache';
import { EndpointToolVectors } from './endpointToolVectors';
import { ToolTermVectors } from './toolVectors';
import type { ToolIndex } from './toolIndex';
import type { ToolRecord } from '../toolRecord';

/**
 * Which embedder tool search uses now (none, the bundled model, or an endpoint) and the tool
 * vectors that go with it; swapping the embedder drops the old vectors and builds new ones.
 */
export class ToolEmbeddings {
  private current: (SemanticStage & { dispose(): void; settled?(): Promise<void> }) | undefined;
  private readonly cache: VectorCache;
  private embedder: Embedder | undefined;

  constructor(
    private readonly index: ToolIndex,
    private readonly records: () => ReadonlyMap<string, ToolRecord>,
    private readonly logger: Logger,
  ) {
    this.cache = new VectorCache(() => index.companionDb);
  }

  get stage(): SemanticStage | undefined {
    return this.current;
  }

  use(embedder: Embedder | undefined): void {
    this.current?.dispose();
    this.current = undefined;
    this.embedder = embedder;
    if (!embedder) return;
    const termEmbedder = embedder.vectorOfTerms ? (embedder as Embedder & Required<Pick<Embedder, 'vectorOfTerms'>>) : undefined;
    this.current =
      termEmbedder && embedder.dims
        ? new ToolTermVectors(this.index, termEmbedder, embedder.dims)
        : new EndpointToolVectors(this.index, this.records, embedder, this.cache, this.logger);
  }

  /** True when the embedder is not in-process (an endpoint): a query needs `prepare` before it has a vector. */
  get remote(): boolean {
    return Boolean(this.embedder && !this.embedder.vectorOfTerms);
  }

  /** Why the embedder gives no vectors now (an endpoint within its back-off after a failure), or undefined. */
  unavailableReason(): string | undefined {
    return this.embedder?.unavailableReason?.();
  }

  /** Embeds `query` ahead of a search when the model is not in-process; never rejects. */
  prepare(query: string): Promise<void> {
    return this.embedder?.prepare(query) ?? Promise.resolve();
  }

  /** Resolves once background embedding has nothing left to do or has failed. */
  async settled(): Promise<void> {
    await this.current?.settled?.();
  }
}
