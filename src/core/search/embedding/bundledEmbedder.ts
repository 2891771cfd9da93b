import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TextAnalyzer } from '../textAnalysis';
import { normalize } from './embedder';
import type { Embedder, WeightedTerm } from './embedder';
import { decodeWordVectors } from './wordVectorsFormat';
import type { WordVectors } from './wordVectorsFormat';
import type { RelevanceCalibration } from './fusedRelevance';

/**
 * The bundled embedding: a text's vector is the weighted mean of its analysed terms' word
 * vectors (weight = the term's inverse document frequency in the training corpus), unit length.
 * Terms the vocabulary lacks add nothing; a text with none of its terms has no vector.
 * In-process and synchronous, so every query has a vector at once.
 */

export const WORD_VECTORS_FILE = 'word-vectors.bin';

/**
 * Cosine → absolute relevance of the bundled vectors (docs/contracts.md#absolute-relevance-and-the-skill-frame-boost).
 * These vectors put unrelated texts as close as paraphrases (a request no skill applies to
 * reaches 0.73 with some skill; "recruit staff" ↔ a job-openings skill is 0.28), so the mapping
 * is strict. Swept on the skill relevance set's tune half: floor 0.6 let no-skill requests through
 * (9.1 % → 13.6 %), from 0.7 up nothing changed; on BFCL's odd half floor 0.7 moved the gold
 * tool's pre-activation by +0.002 over ranking alone. Rebuilt vectors need a new sweep.
 */
export const BUNDLED_CALIBRATION: RelevanceCalibration = { floor: 0.7, ceiling: 0.9 };

export class BundledEmbedder implements Embedder {
  readonly key: string;
  private readonly ids: Map<string, number>;
  private readonly analyzer = new TextAnalyzer();

  constructor(
    private readonly vectors: WordVectors,
    version = 'bundled',
    readonly calibration: RelevanceCalibration = BUNDLED_CALIBRATION,
  ) {
    this.key = `${version}:${vectors.dims}x${vectors.words.length}`;
    this.ids = new Map(vectors.words.map((word, i) => [word, i]));
  }

  get dims(): number {
    return this.vectors.dims;
  }

  /** Whether an analysed term has a vector. */
  knows(term: string): boolean {
    return this.ids.has(term);
  }

  vectorNow(text: string): Float32Array | undefined {
    return this.vectorOfTerms(this.analyzer.analyze(text).map((term) => ({ term, frequency: 1 })));
  }

  vectorOfTerms(terms: Iterable<WeightedTerm>): Float32Array | undefined {
    const { dims, scales, weights, values } = this.vectors;
    const sum = new Float32Array(dims);
    let found = false;
    for (const { term, frequency } of terms) {
      const id = this.ids.get(term);
      if (id === undefined || !(frequency > 0)) continue;
      found = true;
      const factor = scales[id] * weights[id] * frequency;
      const row = id * dims;
      for (let d = 0; d < dims; d++) sum[d] += values[row + d] * factor;
    }
    return found ? normalize(sum) : undefined;
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((text) => this.vectorNow(text) ?? new Float32Array(this.vectors.dims)));
  }

  prepare(): Promise<void> {
    return Promise.resolve();
  }
}

/** The shipped file beside the bundle (dist/), or the source tree's when running from source. */
export function locateWordVectors(): string | undefined {
  const candidates = [
    path.join(__dirname, WORD_VECTORS_FILE),
    path.join(__dirname, '..', 'dist', WORD_VECTORS_FILE),
    path.join(__dirname, '..', 'vocabulary', WORD_VECTORS_FILE),
  ];
  return candidates.find((candidate) => existsSync(candidate));
}

/** The bundled embedder, or undefined when the file is missing (search stays lexical). */
export function loadBundledEmbedder(file = locateWordVectors(), calibration?: RelevanceCalibration): BundledEmbedder | undefined {
  if (!file) return undefined;
  return new BundledEmbedder(decodeWordVectors(readFileSync(file)), 'bundled', calibration);
}
