import { analyze } from '../../search/textAnalysis';

/**
 * Near-duplicate detection for learned skills: a weighted Jaccard similarity over the
 * project's own analysed terms (stemmed, stop words dropped — the same terms the skill index
 * uses) of a skill's trigger and steps. Trigger terms weigh more than step terms: two skills
 * that do the same steps for a different purpose are not the same skill. No model, no network.
 */

/** Term → weight (a term in the trigger counts TRIGGER_WEIGHT, each step occurrence 1). */
export interface TermVector {
  readonly terms: ReadonlyMap<string, number>;
  /** Sum of the weights (for the size bound in `similarity`). */
  readonly total: number;
}

const TRIGGER_WEIGHT = 2;

export function termVector(trigger: string, steps: readonly string[]): TermVector {
  const terms = new Map<string, number>();
  const add = (term: string, weight: number) => terms.set(term, (terms.get(term) ?? 0) + weight);
  // Each term counts once per text: repeating a word must not make a skill "more" of it.
  for (const term of new Set(analyze(trigger))) add(term, TRIGGER_WEIGHT);
  for (const step of steps) for (const term of new Set(analyze(step))) add(term, 1);
  let total = 0;
  for (const weight of terms.values()) total += weight;
  return { terms, total };
}

/**
 * Weighted Jaccard: Σ min(a, b) / Σ max(a, b) over all terms, in [0, 1]; 1 = same terms with the
 * same weights. Two empty vectors are not similar (0). `atLeast` lets a caller skip pairs that
 * cannot reach it: the ratio of the smaller to the larger total bounds the result.
 */
export function similarity(a: TermVector, b: TermVector, atLeast = 0): number {
  if (a.total === 0 || b.total === 0) return 0;
  const bound = Math.min(a.total, b.total) / Math.max(a.total, b.total);
  if (bound < atLeast) return 0;
  const [small, large] = a.terms.size <= b.terms.size ? [a, b] : [b, a];
  let shared = 0;
  for (const [term, weight] of small.terms) {
    const other = large.terms.get(term);
    if (other !== undefined) shared += Math.min(weight, other);
  }
  // Σ max = Σ a + Σ b − Σ min.
  return shared / (a.total + b.total - shared);
}
