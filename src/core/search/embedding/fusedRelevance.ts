/**
 * Absolute relevance with both kinds of evidence: the lexical measure (how much of the request's
 * rare words an item contains) or the embedding's similarity mapped onto the same [0, 1] scale,
 * whichever is higher. Pre-flight's gates (`toolshed.skills.minRelevance`,
 * `toolshed.toolSearch.minRelevance`) then let an item through that only the embedding found.
 *
 * A cosine means something only against the model's own spread (how close it puts unrelated
 * texts differs from model to model), so the mapping is per model and measured: a model without
 * a calibration adds nothing to relevance (its similarities still reorder results).
 *
 *   similarityRelevance = clamp((similarity − floor) / (ceiling − floor), 0, 1)
 */
export interface RelevanceCalibration {
  /** Similarity at and below which the embedding is no evidence (relevance 0). */
  floor: number;
  /** Similarity at and above which the embedding alone is full evidence (relevance 1). */
  ceiling: number;
}

export function similarityRelevance(similarity: number, calibration: RelevanceCalibration): number {
  const span = calibration.ceiling - calibration.floor;
  if (!Number.isFinite(similarity) || !(span > 0)) return 0;
  return Math.min(1, Math.max(0, (similarity - calibration.floor) / span));
}

/** max(lexical, calibrated similarity); the lexical relevance alone without a similarity or calibration. */
export function fusedRelevance(lexical: number, similarity: number | undefined, calibration: RelevanceCalibration | undefined): number {
  if (similarity === undefined || !calibration) return lexical;
  return Math.max(lexical, similarityRelevance(similarity, calibration));
}
