import type { FieldStats } from './bm25f';

/**
 * Documents whose describing vocabulary is far broader than their peers' — the text of a tool or
 * a skill stuffed with common words. Such a text shares a word or two with almost any request,
 * enough to clear a relevance gate everywhere, while an honest description (even a few
 * paragraphs) names what it is for. Tools (tools/index/stuffedTools.ts) and skills
 * (skills/store/skillSearchIndex.ts) apply the same rule: broad means more distinct describing
 * terms than STUFFED_FACTOR × the collection's median and at least MIN_STUFFED_TERMS. A broad
 * document stays searchable but is never activated or injected by a gate on its own.
 */

export const STUFFED_FACTOR = 5;
const MIN_STUFFED_TERMS = 120;

/** How broad one document is, and what is usual in its collection. */
export interface Breadth {
  /** Distinct describing terms of the document. */
  terms: number;
  /** The collection's median. */
  usual: number;
}

interface CollectionBreadth {
  version: number;
  median: number;
  threshold: number;
  broad: Map<unknown, number>;
}

/** Per statistics object, per describing-field weights (each caller passes one constant object). */
const cache = new WeakMap<object, WeakMap<object, CollectionBreadth>>();

/** The document's breadth when it looks stuffed, or undefined when it does not. */
export function broadVocabulary<F extends string, K extends string | number>(
  stats: FieldStats<F, K>,
  key: K,
  describing: Readonly<Record<F, number>>,
): Breadth | undefined {
  const collection = collectionBreadth(stats, describing);
  const terms = collection.broad.get(key);
  return terms === undefined ? undefined : { terms, usual: collection.median };
}

function collectionBreadth<F extends string, K extends string | number>(stats: FieldStats<F, K>, describing: Readonly<Record<F, number>>): CollectionBreadth {
  let byFields = cache.get(stats);
  if (!byFields) {
    byFields = new WeakMap();
    cache.set(stats, byFields);
  }
  const cached = byFields.get(describing);
  if (cached && cached.version === stats.version) return cached;
  // Counted into a typed array and sorted natively: a first search over 10,000 skills asks this.
  const keys = [...stats.keys()];
  const counts = new Uint32Array(keys.length);
  for (let i = 0; i < keys.length; i++) counts[i] = stats.distinctTerms(keys[i] as K, describing);
  const sorted = counts.slice().sort();
  const median = sorted.length ? (sorted[Math.floor(sorted.length / 2)] as number) : 0;
  const threshold = Math.max(MIN_STUFFED_TERMS, STUFFED_FACTOR * median);
  const broad = new Map<unknown, number>();
  for (let i = 0; i < keys.length; i++) if ((counts[i] as number) > threshold) broad.set(keys[i], counts[i] as number);
  const breadth = { version: stats.version, median, threshold, broad };
  byFields.set(describing, breadth);
  return breadth;
}
