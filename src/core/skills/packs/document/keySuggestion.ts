import { KNOWN_SKILL_KEYS } from '../../skillSchema';

/** "Did you mean …?" for a misspelt skill field: the nearest known key within a third of its length. */
export function closestKnownKey(key: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = key.toLowerCase().replace(/-/g, '_');
  for (const known of KNOWN_SKILL_KEYS) {
    const d = editDistance(lower, known.toLowerCase().replace(/-/g, '_'));
    if (d < bestDistance) {
      bestDistance = d;
      best = known;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(key.length / 3)) ? best : undefined;
}

/** Levenshtein distance (one row of the table at a time). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const temp = prev[j] ?? 0;
      prev[j] = Math.min((prev[j] ?? 0) + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = temp;
    }
  }
  return prev[b.length] ?? 0;
}
