import type { FieldStats } from '../../search/bm25f';
import type { ToolField } from './toolDocument';

/**
 * Tools whose text looks stuffed: a description (with name and tags) whose vocabulary is far
 * broader than its peers'. Tool descriptions are third-party text, and a description listing
 * hundreds of common words shares a word or two with almost any request — enough to clear the
 * relevance gate everywhere. Such a tool stays searchable (`tool_search` still finds it) but is
 * never activated by the gate on its own, and the user is shown why.
 *
 * Broad means more distinct describing terms than STUFFED_FACTOR × the catalog's median and at
 * least MIN_STUFFED_TERMS (a long but honest description — a few paragraphs — stays below both).
 */

const DESCRIBING: Readonly<Record<ToolField, number>> = { name: 1, tags: 1, description: 1, paramNames: 0, paramDescriptions: 0 };
const STUFFED_FACTOR = 5;
const MIN_STUFFED_TERMS = 120;

interface Breadth {
  version: number;
  threshold: number;
  broad: Set<string>;
}

const cache = new WeakMap<object, Breadth>();

/** Why the tool looks stuffed (for the user), or undefined when it does not. */
export function stuffedReason(stats: FieldStats<ToolField>, toolName: string): string | undefined {
  const breadth = breadthOf(stats);
  if (!breadth.broad.has(toolName)) return undefined;
  const terms = stats.documentTerms(toolName, DESCRIBING).length;
  return `its description uses ${terms} different words, over ${STUFFED_FACTOR}× the catalog's usual (${Math.round(breadth.threshold / STUFFED_FACTOR)})`;
}

function breadthOf(stats: FieldStats<ToolField>): Breadth {
  const cached = cache.get(stats);
  if (cached && cached.version === stats.version) return cached;
  const counts = new Map<string, number>();
  for (const name of stats.keys()) counts.set(name, stats.documentTerms(name, DESCRIBING).length);
  const sorted = [...counts.values()].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
  const threshold = Math.max(MIN_STUFFED_TERMS, STUFFED_FACTOR * median);
  const broad = new Set<string>();
  for (const [name, count] of counts) if (count > threshold) broad.add(name);
  const breadth = { version: stats.version, threshold, broad };
  cache.set(stats, breadth);
  return breadth;
}
