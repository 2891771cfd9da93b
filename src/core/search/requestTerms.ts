import type { WeightedTerm } from './bm25f';
import { analyze, withoutContractions } from './textAnalysis';

/**
 * A request's search terms with their weights. Requests are searched whole, however long: a
 * pasted task says what it needs anywhere in its text, and cutting it drops words that count.
 * The weights keep a long paste from being ruled by what is incidental in it:
 *
 * - **Prose counts more than code and data.** A line inside a fenced block, or one that is
 *   mostly symbols and digits (JSON, CSV rows, stack frames, log lines), says what the user
 *   *has*, not what they want done; its words count CODE_LINE_WEIGHT each.
 * - **Saturated repetition.** A word the request repeats is what the request is about, so
 *   query-side frequency counts, saturated with QUERY_K3 (BM25's k3): the 2nd occurrence adds
 *   much, the 10th little.
 */

/** One occurrence of a word on a code or data line, relative to one in prose. */
const CODE_LINE_WEIGHT = 0.35;
/** Saturation of query-side frequency: weight = s·(k3 + 1)/(k3 + s) for summed occurrence weight s. */
const QUERY_K3 = 1.5;
/** A line is data or code when under this share of its non-space characters are letters. */
const PROSE_LETTER_SHARE = 0.6;

export function requestTerms(text: string): WeightedTerm[] {
  const sums = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('```') || trimmed.startsWith('~~~')) {
      fenced = !fenced;
      continue;
    }
    if (trimmed.length === 0) continue;
    const weight = fenced || !looksLikeProse(trimmed) ? CODE_LINE_WEIGHT : 1;
    for (const term of analyze(withoutContractions(trimmed))) sums.set(term, (sums.get(term) ?? 0) + weight);
  }
  const out: WeightedTerm[] = [];
  for (const [term, sum] of sums) out.push({ term, weight: saturate(sum) });
  return out;
}

/**
 * The request's prose sentences, in order: lines outside fenced blocks that read as prose, joined
 * per paragraph and split after `.`, `?` or `!`. What a long paste asks for is said in one or two
 * of them; the code, logs and data around them are what the user has, not what they want done.
 */
export function proseSentences(text: string): string[] {
  const sentences: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) sentences.push(...paragraph.join(' ').split(SENTENCE_END));
    paragraph = [];
  };
  let fenced = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('```') || trimmed.startsWith('~~~')) {
      fenced = !fenced;
      flush();
    } else if (fenced || trimmed.length === 0 || !looksLikeProse(trimmed)) flush();
    else paragraph.push(trimmed);
  }
  flush();
  return sentences.map((sentence) => sentence.trim()).filter((sentence) => sentence.length > 0);
}

/** Where a sentence ends: after `.`, `?` or `!` and before white space. */
const SENTENCE_END = /(?<=[.?!])\s+/;

/** The weight of a term seen once in prose is 1. */
function saturate(sum: number): number {
  return (sum * (QUERY_K3 + 1)) / (QUERY_K3 + sum);
}

function looksLikeProse(line: string): boolean {
  let letters = 0;
  let visible = 0;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code <= 32) continue;
    visible++;
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code > 127) letters++;
  }
  return visible > 0 && letters / visible >= PROSE_LETTER_SHARE;
}
