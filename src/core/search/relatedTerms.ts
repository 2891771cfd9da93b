import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The offline vocabulary bridge: related words per analysed term (synonyms, derivations,
 * hypernyms), from the table `scripts/build-related-terms.ts` generates out of WordNet.
 *
 * Kept as the table's own text plus one offset per line (binary search by term), so the ~10k
 * entries cost about the size of the file in memory instead of a Map of arrays; a lookup parses
 * one line. The file is read on first use, never at activation.
 */

/** s = synonyms, d = derivationally related forms, h = direct hypernyms. */
export type RelationKind = 's' | 'd' | 'h';

const RELATED_TERMS_FILE = 'related-terms.txt';

export class RelatedTerms {
  private loaded: { text: string; starts: Int32Array } | undefined;

  /** `source` is the table text, or a function returning it (read on first lookup). */
  constructor(private readonly source: string | (() => string)) {}

  /** Related terms of `term` of the given kinds, most frequent senses first, without duplicates. */
  lookup(term: string, kinds: readonly RelationKind[]): string[] {
    const line = this.lineOf(term);
    if (line === undefined) return [];
    const out: string[] = [];
    for (const part of line.split('\t').slice(1)) {
      if (!kinds.includes(part[0] as RelationKind) || part[1] !== ':') continue;
      for (const related of part.slice(2).split(',')) if (related.length > 0 && !out.includes(related)) out.push(related);
    }
    return out;
  }

  /** Number of terms in the table (reads it). */
  get size(): number {
    return this.table().starts.length;
  }

  private lineOf(term: string): string | undefined {
    const { text, starts } = this.table();
    let low = 0;
    let high = starts.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const start = starts[mid];
      const tab = text.indexOf('\t', start);
      const key = text.slice(start, tab);
      if (key === term) {
        const end = text.indexOf('\n', tab);
        return text.slice(start, end < 0 ? text.length : end);
      }
      if (key < term) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }

  private table(): { text: string; starts: Int32Array } {
    if (!this.loaded) {
      const text = typeof this.source === 'string' ? this.source : this.source();
      const starts: number[] = [];
      let at = 0;
      while (at < text.length) {
        const end = text.indexOf('\n', at);
        const stop = end < 0 ? text.length : end;
        // Comment lines (the license) and malformed lines carry no entry.
        if (stop > at && text[at] !== '#' && text.indexOf('\t', at) > at && text.indexOf('\t', at) < stop) starts.push(at);
        at = stop + 1;
      }
      // The generator writes sorted lines; sort anyway so a hand-edited table still works.
      const keyAt = (start: number) => text.slice(start, text.indexOf('\t', start));
      const sorted = starts.every((s, i) => i === 0 || keyAt(starts[i - 1]) < keyAt(s)) ? starts : [...starts].sort((a, b) => (keyAt(a) < keyAt(b) ? -1 : 1));
      this.loaded = { text, starts: Int32Array.from(sorted) };
    }
    return this.loaded;
  }
}

/**
 * The table shipped beside the bundle (dist/related-terms.txt), or the generated source file
 * when running from source; undefined when neither exists (expansion is then off).
 */
function locateRelatedTerms(): string | undefined {
  const candidates = [
    path.join(__dirname, RELATED_TERMS_FILE),
    path.join(__dirname, '..', 'dist', RELATED_TERMS_FILE),
    path.join(__dirname, 'vocabulary', RELATED_TERMS_FILE),
  ];
  return candidates.find((candidate) => existsSync(candidate));
}

/** The shipped table, read lazily; an empty table when it is missing. */
export function bundledRelatedTerms(): RelatedTerms {
  return new RelatedTerms(() => {
    const file = locateRelatedTerms();
    return file ? readFileSync(file, 'utf8') : '';
  });
}
