/**
 * A plain Okapi BM25 (k1 1.2, b 0.75) over whole documents, the baseline the skills-at-scale
 * bench prints beside Toolshed in the same run: lower-cased `[a-z0-9]+` tokens, no stemming, no
 * stop words, each distinct query term counted once, IDF ln(1 + (N − n + 0.5) / (n + 0.5)).
 * Deliberately self-contained: it must not move when Toolshed's own ranking changes.
 */

const K1 = 1.2;
const B = 0.75;

function plainTokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

export class PlainBm25 {
  /** term → parallel arrays of document index and term frequency. */
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private readonly lengths: number[] = [];
  private readonly averageLength: number;

  constructor(documents: readonly string[]) {
    documents.forEach((text, doc) => {
      const counts = new Map<string, number>();
      const tokens = plainTokens(text);
      for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
      this.lengths.push(tokens.length);
      for (const [term, tf] of counts) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = { docs: [], tfs: [] }));
        list.docs.push(doc);
        list.tfs.push(tf);
      }
    });
    this.averageLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  /** Indexes of the `k` best-scoring documents for `query` (every document scored), best first. */
  top(query: string, k: number): number[] {
    const n = this.lengths.length;
    const scores = new Float64Array(n);
    for (const term of new Set(plainTokens(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.docs.length + 0.5) / (list.docs.length + 0.5));
      for (let i = 0; i < list.docs.length; i++) {
        const doc = list.docs[i] as number;
        const tf = list.tfs[i] as number;
        const norm = K1 * (1 - B + (B * (this.lengths[doc] as number)) / this.averageLength);
        scores[doc] = (scores[doc] as number) + (idf * (tf * (K1 + 1))) / (tf + norm);
      }
    }
    const best: number[] = [];
    for (let doc = 0; doc < n; doc++) {
      const score = scores[doc] as number;
      if (score <= 0) continue;
      if (best.length < k || score > (scores[best[best.length - 1] as number] as number)) {
        let at = best.length < k ? best.length : best.length - 1;
        best[at] = doc;
        while (at > 0 && (scores[best[at - 1] as number] as number) < score) {
          best[at] = best[at - 1] as number;
          best[at - 1] = doc;
          at--;
        }
      }
    }
    return best;
  }
}
