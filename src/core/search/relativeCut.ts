/**
 * The relative half of pre-flight's gates. An absolute threshold alone lets a catalog's loose
 * matches through whenever they share one common word with the request ("CI" in "Which tests
 * are flaky on CI this week?" lifts every CI tool just over it); next to a much stronger match
 * they only cost prompt tokens. So a candidate is kept only when its relevance reaches
 * `max(minRelevance, ratio × best)`, where `best` is the strongest candidate's relevance: the
 * best one itself passes exactly when it reaches the absolute minimum, and a close second stays.
 */

/** Candidates whose relevance reaches both the absolute minimum and `ratio` × the best one's, in their order; an unmeasured one (undefined) always passes. */
export function passingRelevance<T>(items: readonly T[], relevanceOf: (item: T) => number | undefined, minRelevance: number, ratio: number): T[] {
  const measured = items.map(relevanceOf).filter((r): r is number => r !== undefined);
  const best = measured.length ? Math.max(...measured) : 0;
  const floor = Math.max(minRelevance, ratio * best);
  return items.filter((item) => {
    const relevance = relevanceOf(item);
    return relevance === undefined || relevance >= floor;
  });
}
