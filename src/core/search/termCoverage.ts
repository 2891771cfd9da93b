/**
 * Absolute relevance: how much of a request one document covers, on a scale that does not
 * depend on which other documents a search returned (unlike the min-max normalised `score`).
 *
 * It is the share of the request's IDF mass the document matches: every distinct request term
 * weighs its IDF (a rare word says more about the request than a common one, and a word no
 * document has weighs the most — "weather" in "what's the weather in Paris" is what the request
 * is about, so a skill that only shares "what" covers little of it), and counts in full when the
 * document has it where it says what it is for (name, title, trigger, description, tags), and
 * only partly when it appears just in the body. A document covering every term scores 1; one
 * covering none scores 0.
 */

import type { FieldStats } from './bm25f';

export interface CoverageTerms {
  /** The request's analysed terms (duplicates count once). */
  terms: readonly string[];
  /** IDF of a term in the collection (a term no document has gets the highest). */
  idf(term: string): number;
  /** How fully the document matches a term, in [0, 1]: 1 in its describing fields, less in its body only, 0 absent. */
  match(term: string): number;
}

export function idfCoverage(input: CoverageTerms): number {
  let total = 0;
  let covered = 0;
  for (const term of new Set(input.terms)) {
    const weight = finiteNonNegative(input.idf(term));
    total += weight;
    covered += weight * Math.min(1, finiteNonNegative(input.match(term)));
  }
  return total > 0 ? Math.min(1, covered / total) : 0;
}

function finiteNonNegative(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * IDF mass added to a document's describing vocabulary in `describingFocus`: a description of
 * three words is not "fully asked for" by any request that happens to contain them (about two
 * typical words' worth). On the skills-at-scale tuning half, 0 let 10 % of long no-skill requests
 * through pre-flight's gate and 10 none.
 */
const FOCUS_PRIOR_MASS = 10;

/**
 * Focus, the other direction of absolute relevance: the share of a document's own describing
 * vocabulary (the terms of the fields weighted non-zero in `fields`, each weighing its IDF over
 * `docs` documents) that the request contains, shrunk by FOCUS_PRIOR_MASS. Breadth cannot buy it:
 * a description listing every common word has a large vocabulary of which any request covers little.
 * Skills and tools both read it here (skills/store/skillSearchIndex.ts, tools/index/absoluteRelevance.ts).
 */
export function describingFocus<F extends string, K extends string | number>(
  stats: FieldStats<F, K>,
  key: K,
  fields: Readonly<Record<F, number>>,
  docs: number,
  inRequest: (termId: number) => boolean,
): number {
  const { total, covered } = stats.fieldIdfMass(key, fields, docs, inRequest);
  return total > 0 ? covered / (total + FOCUS_PRIOR_MASS) : 0;
}
