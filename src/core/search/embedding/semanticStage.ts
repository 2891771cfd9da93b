import { minMax } from '../scoring';
import { fuseCandidates } from './fusion';
import type { FusedCandidate, LexicalCandidate } from './fusion';
import type { VectorLookup } from './vectorTable';
import type { RelevanceCalibration } from './fusedRelevance';

/**
 * The embedding half of hybrid search, shared by tool and skill search: a table of document
 * vectors, the query's vector (when it has one now), and how much the similarity counts.
 */
export interface SemanticStage {
  readonly table: VectorLookup;
  /** The query's vector, or undefined (model unavailable, no known word): lexical order then. */
  queryVector(query: string): Float32Array | undefined;
  /** Weight of the similarity in the fused score. */
  readonly weight: number;
  /** Nearest neighbours united with the lexical candidates when those are few. */
  readonly neighbours: number;
  /** The embedder's similarity → relevance mapping (absent: relevance stays lexical). */
  readonly calibration?: RelevanceCalibration;
}

/**
 * Tuned on the odd half of the BFCL set (scripts/embedding/tune.ts, bundled vectors): weight
 * 1.5 (0.6–2.5 all gained; above 2 exact-name recall fell). Uniting the 20 nearest neighbours
 * with every query's candidates gave no recall over re-ranking the lexical candidates
 * (R@5 0.666 vs 0.668, family 0.869 vs 0.873) and an exhaustive scan costs ≈ 5 ms of CPU at
 * 20,000 tools; so the scan runs only when the lexical stage is short of candidates — the
 * queries that share (almost) no word with any tool, where the neighbours are all there is.
 */
export const SEMANTIC_DEFAULTS = { weight: 1.5, neighbours: 20 } as const;

/** Lexical candidates kept for fusion (the lexical stage ranks at least this many). */
export const LEXICAL_POOL = 20;

/**
 * Lexical candidates (best first) fused with the query's nearest neighbours; without a query
 * vector, the lexical candidates in their own order (each with its lexical evidence).
 */
export function hybridRank(
  lexical: readonly LexicalCandidate[],
  query: string,
  stage: SemanticStage | undefined,
  accept: (name: string) => boolean,
  isExactName: (name: string) => boolean,
  tieBreak?: (a: string, b: string) => number,
): FusedCandidate[] {
  // The query vector first: asking for it may bring the table up to date.
  const vector = stage?.queryVector(query);
  if (!stage || !vector || stage.table.size === 0) return fuseCandidates(lexical, [], () => undefined, { semanticWeight: 0, isExactName, tieBreak });
  const neighbours = lexical.length < LEXICAL_POOL ? stage.table.nearest(vector, stage.neighbours, accept) : [];
  return fuseCandidates(lexical, neighbours, (name) => stage.table.similarity(name, vector), { semanticWeight: stage.weight, isExactName, tieBreak });
}

/**
 * Contract scores in [0, 1] for a fused ranking, in its order: min-max of the fused scores,
 * never rising down the list (a kept exact name scores at least what follows it).
 */
export function fusedScores(ranking: readonly FusedCandidate[]): number[] {
  const scores = minMax(ranking.map((c) => c.fused));
  for (let i = scores.length - 2; i >= 0; i--) if (scores[i] < scores[i + 1]) scores[i] = scores[i + 1];
  return scores;
}

/** True when `name` is what the user typed (case and surrounding blanks aside). */
export function exactNameMatcher(query: string): (name: string) => boolean {
  const wanted = query.trim().toLowerCase();
  return (name) => name.toLowerCase() === wanted;
}

/**
 * `stage` where a query without a vector of its own (an endpoint had no chance to embed it) is
 * ranked by `fallback`'s vector: within one turn, the request the user typed.
 */
export function withFallbackQuery(stage: SemanticStage, fallback: string): SemanticStage {
  return {
    table: stage.table,
    weight: stage.weight,
    neighbours: stage.neighbours,
    calibration: stage.calibration,
    queryVector: (query) => stage.queryVector(query) ?? stage.queryVector(fallback),
  };
}
