import { boundedRelevance, minMax } from '../scoring';

/**
 * Hybrid ranking: the lexical (BM25F) candidates united with the embedding's nearest
 * neighbours, fused on calibrated scores:
 *
 *   fused = lexical + semanticWeight × (similarity − best similarity)
 *
 * `lexical` is the BM25 relevance on the contract's bounded scale, min-max normalised over the
 * lexical candidates (a neighbour the lexical stage did not find has 0); `similarity` is the
 * cosine of the query and candidate vectors (a candidate without a vector has the lowest
 * similarity seen). Calibrated scores beat reciprocal-rank fusion on the tuning half of the
 * BFCL set: the lexical stage's confidence (how far ahead its first hit is) survives.
 *
 * A candidate whose name is the query itself keeps at least its lexical place: the embedding
 * adds evidence, it never demotes an exact name. Each fused candidate keeps its
 * separate evidence so another stage (a pre-flight relevance gate) can weigh it later.
 */

export interface LexicalCandidate {
  name: string;
  /** BM25 relevance (higher is better, ≥ 0). */
  relevance: number;
}

export interface SemanticCandidate {
  name: string;
  /** Cosine similarity to the query, in [−1, 1]. */
  similarity: number;
}

export interface FusionOptions {
  /** Weight of the similarity term; 0 = lexical order. */
  semanticWeight: number;
  /** True for a candidate whose name is the query (never demoted). */
  isExactName?: (name: string) => boolean;
  /** Order of candidates with equal fused scores (default: by name). */
  tieBreak?: (a: string, b: string) => number;
}

export interface FusedCandidate {
  name: string;
  /** The fused score (higher is better; only comparable within one ranking). */
  fused: number;
  /** Lexical evidence in [0, 1] (0 = not found lexically). */
  lexical: number;
  /** Cosine similarity, or undefined when the candidate has no vector. */
  similarity: number | undefined;
  exactName: boolean;
}

/**
 * Fuses the two candidate lists; `similarityOf` answers for lexical candidates the
 * neighbours list does not contain. Deterministic: ties break by name.
 */
export function fuseCandidates(
  lexical: readonly LexicalCandidate[],
  neighbours: readonly SemanticCandidate[],
  similarityOf: (name: string) => number | undefined,
  options: FusionOptions,
): FusedCandidate[] {
  const lexicalScores = minMax(lexical.map((c) => boundedRelevance(c.relevance)));
  const byName = new Map<string, FusedCandidate>();
  const exact = options.isExactName ?? (() => false);
  lexical.forEach((c, i) => {
    if (!byName.has(c.name))
      byName.set(c.name, { name: c.name, fused: 0, lexical: lexicalScores[i], similarity: similarityOf(c.name), exactName: exact(c.name) });
  });
  for (const n of neighbours) {
    const known = byName.get(n.name);
    if (known) known.similarity ??= n.similarity;
    else byName.set(n.name, { name: n.name, fused: 0, lexical: 0, similarity: n.similarity, exactName: exact(n.name) });
  }
  const all = [...byName.values()];
  const similarities = all.map((c) => c.similarity).filter((s): s is number => s !== undefined && Number.isFinite(s));
  const best = similarities.length > 0 ? Math.max(...similarities) : 0;
  const worst = similarities.length > 0 ? Math.min(...similarities) : 0;
  const weight = Number.isFinite(options.semanticWeight) ? Math.max(0, options.semanticWeight) : 0;
  for (const c of all) {
    const similarity = c.similarity !== undefined && Number.isFinite(c.similarity) ? c.similarity : worst;
    c.fused = c.lexical + weight * (similarity - best);
  }
  const tieBreak = options.tieBreak ?? ((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0));
  const order = all.sort((a, b) => b.fused - a.fused || tieBreak(a.name, b.name));
  return keepExactNamesInPlace(order, lexical);
}

/** Moves each exact-name candidate up to its lexical place when fusion put it lower. */
function keepExactNamesInPlace(order: FusedCandidate[], lexical: readonly LexicalCandidate[]): FusedCandidate[] {
  if (!order.some((c) => c.exactName)) return order;
  const lexicalPlace = new Map<string, number>();
  lexical.forEach((c, i) => {
    if (!lexicalPlace.has(c.name)) lexicalPlace.set(c.name, i);
  });
  const pinned = order
    .map((c, i) => ({ c, place: Math.min(i, lexicalPlace.get(c.name) ?? i), lexicalPlace: lexicalPlace.get(c.name) ?? Infinity }))
    .filter((p) => p.c.exactName)
    // On a shared place the one inserted last takes it: the lowest lexical place.
    .sort((a, b) => a.place - b.place || b.lexicalPlace - a.lexicalPlace);
  const rest = order.filter((c) => !c.exactName);
  for (const { c, place } of pinned) rest.splice(Math.min(place, rest.length), 0, c);
  return rest;
}
