/**
 * Near-copies in one result list: the same skill copied into several packs or repositories
 * (one description, bodies edited here and there) would fill the top k with one answer. The
 * best-ranked copy stands for the others, which it lists by name, so a list of k results holds
 * k different skills and the model still sees that copies exist.
 *
 * Two skills are near-copies when their descriptions are the same text after case, punctuation
 * and spacing are ignored (every script's letters and combining marks kept), and that text has
 * at least MIN_WORDS words (short generic descriptions such as "Helper skill" say too little to
 * call two skills one).
 */

const MIN_WORDS = 4;

export function collapseNearCopies<T extends { name: string; description: string }>(hits: readonly T[]): Array<T & { nearCopies?: string[] }> {
  const kept: Array<T & { nearCopies?: string[] }> = [];
  const byFingerprint = new Map<string, T & { nearCopies?: string[] }>();
  for (const hit of hits) {
    const key = fingerprint(hit.description);
    const first = key === undefined ? undefined : byFingerprint.get(key);
    if (first) {
      (first.nearCopies ??= []).push(hit.name);
      continue;
    }
    const entry: T & { nearCopies?: string[] } = { ...hit };
    kept.push(entry);
    if (key !== undefined) byFingerprint.set(key, entry);
  }
  return kept;
}

/**
 * The description's words, lower-cased, in NFKC form. A word keeps its combining marks: in
 * Devanagari, Thai, Bengali or Arabic a vowel sign or diacritic is a mark (\p{M}), and two words
 * that differ only there are different words.
 */
function fingerprint(description: string): string | undefined {
  const words = description
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((w) => w.length > 0);
  return words.length >= MIN_WORDS ? words.join(' ') : undefined;
}
