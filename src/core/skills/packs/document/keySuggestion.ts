import { ownedString } from '../../../platform/ownedText';
import { KNOWN_SKILL_KEYS } from '../../skillSchema';

/** The known keys as compared (lower case, `-` as `_`), in KNOWN_SKILL_KEYS order. */
let comparable: Array<[known: string, compared: string]> | undefined;
/**
 * Suggestions already made: real libraries repeat the same few unknown fields (`version`,
 * `author`, `license`) tens of thousands of times, and each suggestion compares the key with
 * every known one. Bounded: cleared when full, short keys only.
 */
const suggested = new Map<string, string | undefined>();
const SUGGESTED_MAX = 4096;
const SUGGESTED_KEY_MAX = 64;

/** "Did you mean …?" for a misspelt skill field: the nearest known key within a third of its length. */
export function closestKnownKey(key: string): string | undefined {
  if (suggested.has(key)) return suggested.get(key);
  const lower = key.toLowerCase().replace(/-/g, '_');
  const within = Math.max(1, Math.floor(key.length / 3));
  comparable ??= KNOWN_SKILL_KEYS.map((known) => [known, known.toLowerCase().replace(/-/g, '_')]);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const [known, compared] of comparable) {
    // The distance is at least the difference in length: a key farther than `within` is never suggested.
    if (Math.abs(compared.length - lower.length) > within) continue;
    const d = editDistance(lower, compared);
    if (d < bestDistance) {
      bestDistance = d;
      best = known;
    }
  }
  const suggestion = best !== undefined && bestDistance <= within ? best : undefined;
  if (key.length <= SUGGESTED_KEY_MAX) {
    if (suggested.size >= SUGGESTED_MAX) suggested.clear();
    // A copy: the key is a slice of its file's text, which it would otherwise keep alive.
    suggested.set(ownedString(key), suggestion);
  }
  return suggestion;
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
