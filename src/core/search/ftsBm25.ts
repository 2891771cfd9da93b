/**
 * Full-text helpers over SQLite FTS (generic: the tool index uses them, the skill store may).
 *
 * Exports:
 * - `parseMatchinfoPcnalx(blob)` — decodes FTS4 `matchinfo(t, 'pcnalx')`.
 * - `bm25FromMatchinfo(info, weights, params?)` — weighted BM25 relevance (higher = better)
 *   computed from that matchinfo, as the published sql.js build has FTS4 but no FTS5 `bm25()`.
 * - `ftsOrExpression(terms)` — a MATCH expression OR-ing already-analysed terms (quoted).
 */

export interface Matchinfo {
  phrases: number;
  columns: number;
  rows: number;
  /** Average tokens per column over the table. */
  avgLength: number[];
  /** Tokens per column in this row. */
  length: number[];
  /** hits[phrase][column] in this row. */
  hitsThisRow: number[][];
  /** documents[phrase][column]: rows with at least one hit. */
  docsWithHits: number[][];
}

/** Decodes `matchinfo(table, 'pcnalx')`: 32-bit little-endian unsigned integers. */
export function parseMatchinfoPcnalx(blob: Uint8Array): Matchinfo {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const at = (index: number) => view.getUint32(index * 4, true);
  const phrases = at(0);
  const columns = at(1);
  const rows = at(2);
  const avgLength: number[] = [];
  const length: number[] = [];
  for (let c = 0; c < columns; c++) avgLength.push(at(3 + c));
  for (let c = 0; c < columns; c++) length.push(at(3 + columns + c));
  const base = 3 + 2 * columns;
  const hitsThisRow: number[][] = [];
  const docsWithHits: number[][] = [];
  for (let p = 0; p < phrases; p++) {
    const hits: number[] = [];
    const docs: number[] = [];
    for (let c = 0; c < columns; c++) {
      const offset = base + 3 * (p * columns + c);
      hits.push(at(offset));
      docs.push(at(offset + 2));
    }
    hitsThisRow.push(hits);
    docsWithHits.push(docs);
  }
  return { phrases, columns, rows, avgLength, length, hitsThisRow, docsWithHits };
}

export interface Bm25Params {
  k1: number;
  b: number;
}

const DEFAULT_BM25: Bm25Params = { k1: 1.2, b: 0.75 };

/** Non-negative BM25 IDF (Lucene form), so very common terms never subtract. */
export function bm25Idf(totalDocs: number, docFreq: number): number {
  return Math.log(1 + (totalDocs - docFreq + 0.5) / (docFreq + 0.5));
}

/**
 * Weighted BM25 from matchinfo: Σ over phrases and columns of
 * `weight[c] · idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avg))`.
 * `phraseWeights` optionally scales each query phrase (e.g. expansion terms < 1).
 */
export function bm25FromMatchinfo(
  info: Matchinfo,
  columnWeights: readonly number[],
  params: Bm25Params = DEFAULT_BM25,
  phraseWeights?: readonly number[],
): number {
  let score = 0;
  for (let p = 0; p < info.phrases; p++) {
    const phraseWeight = phraseWeights?.[p] ?? 1;
    for (let c = 0; c < info.columns; c++) {
      const weight = columnWeights[c] ?? 0;
      const tf = info.hitsThisRow[p][c];
      if (weight === 0 || tf === 0) continue;
      const idf = bm25Idf(info.rows, info.docsWithHits[p][c]);
      const norm = 1 - params.b + (params.b * info.length[c]) / Math.max(info.avgLength[c], 1);
      score += phraseWeight * weight * idf * ((tf * (params.k1 + 1)) / (tf + params.k1 * norm));
    }
  }
  return score;
}

/**
 * The same BM25 as `bm25FromMatchinfo`, read straight from the `pcnalx` blob without building
 * intermediate arrays (the per-row hot path of FTS4 candidate generation).
 */
export function bm25FromMatchinfoBlob(blob: Uint8Array, columnWeights: readonly number[], params: Bm25Params = DEFAULT_BM25): number {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const at = (index: number) => view.getUint32(index * 4, true);
  const phrases = at(0);
  const columns = at(1);
  const rows = at(2);
  const base = 3 + 2 * columns;
  let score = 0;
  for (let c = 0; c < columns; c++) {
    const weight = columnWeights[c] ?? 0;
    if (weight === 0) continue;
    const norm = 1 - params.b + (params.b * at(3 + columns + c)) / Math.max(at(3 + c), 1);
    for (let p = 0; p < phrases; p++) {
      const offset = base + 3 * (p * columns + c);
      const tf = at(offset);
      if (tf === 0) continue;
      const idf = bm25Idf(rows, at(offset + 2));
      score += weight * idf * ((tf * (params.k1 + 1)) / (tf + params.k1 * norm));
    }
  }
  return score;
}

/** `"a" OR "b"` from analysed terms (letters/digits only after analysis; quotes keep it literal). */
export function ftsOrExpression(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replace(/"/g, '')}"`).join(' OR ');
}
