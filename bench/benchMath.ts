import vocabulary from './data/synthetic-vocabulary.json';

// Small helpers every bench/*Bench.ts uses: a seeded generator (so synthetic corpora are the same
// in every run), percentiles, rounding, and the vocabulary synthetic skills are made from.

/** mulberry32: a tiny seeded PRNG in [0, 1) (the plain-ESM benches use its twin, bench/seededRandom.mjs). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const round = (value: number, digits = 3): number => Number(value.toFixed(digits));

/** The p-th percentile (0–1) of an ascending array. */
export const pct = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** The p-th percentile (0–1) of values in any order. */
export const pctOf = (values: readonly number[], p: number): number =>
  pct(
    [...values].sort((a, b) => a - b),
    p,
  );

export const median = (values: readonly number[]): number => pctOf(values, 0.5);

export const AREAS: string[] = vocabulary.areas;
export const VERBS: string[] = vocabulary.verbs;
export const OBJECTS: string[] = vocabulary.objects;
/** Phrases synthetic triggers end with, so that no two read alike. */
export const FILLER: string[] = [
  'safely',
  'quickly',
  'with retries',
  'in batches',
  'for a team',
  'across regions',
  'without downtime',
  'from the CLI',
  'in production',
  'for staging',
  'using the API',
  'with audit logs',
];
