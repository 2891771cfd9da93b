import type { SqlDatabase } from '../../sql/sqlDatabase';
import { ftsOrExpression, selectSelectiveTerms } from '../../search/ftsBm25';
import type { SkillEntry, SkillSearchIndex } from './skillSearchIndex';

/**
 * Stage 1 of skill search: candidate doc ids from the SQLite FTS index (one aggregated row per
 * MATCH, no per-row decoding). Stage 2 (filter + BM25F rank) runs in the mirror.
 *
 * Budgets (summed document frequencies of the terms in a MATCH): up to OR_BUDGET postings every
 * document containing any query term is a candidate (exact BM25F top-k); above it, documents
 * containing all of several selective terms (up to AND_BUDGET postings read) are, relaxed when
 * that gives fewer than `limit`.
 */
const OR_BUDGET = 600;
const AND_BUDGET = 12000;
/** Relaxation starts where at least `limit × EXPECTED_MARGIN` documents are expected. */
const EXPECTED_MARGIN = 1.5;
/** At most this many AND MATCHes per search before the rarest-term fallback. */
const MAX_MATCHES = 6;

export interface CandidateSource {
  db: SqlDatabase;
  idColumn: 'rowid' | 'docid';
  index: SkillSearchIndex;
}

export function ftsCandidates(source: CandidateSource, terms: readonly string[], accept: (entry: SkillEntry) => boolean, limit: number): Iterable<number> {
  const { index } = source;
  const df = (term: string) => index.df(term);
  let postings = 0;
  for (const term of terms) postings += df(term);
  if (postings <= OR_BUDGET || terms.length === 1) return matchDocIds(source, ftsOrExpression([...terms]));
  // Documents containing all of k selective terms. Fewer terms give a superset, so we start
  // at the largest k expected to yield enough documents (term independence) and, while fewer
  // than `limit` pass the filter, add the documents of other k-term combinations (rarest
  // first; terms that never co-occur are common), then relax k — at most MAX_MATCHES MATCHes,
  // usually one. Last resort: the rarest term alone.
  const selective = selectSelectiveTerms([...terms], df, AND_BUDGET, 2);
  const total = Math.max(index.size, 1);
  const enough = limit * EXPECTED_MARGIN;
  const expectedWith = (keep: number) => {
    let expected = total;
    for (let i = 0; i < keep; i++) expected *= df(selective[i] as string) / total;
    return expected;
  };
  let k = selective.length;
  while (k > 2 && expectedWith(k) < enough) k--;
  const union = new Set<number>();
  let matches = 0;
  search: for (; k >= 2; k = k > 6 ? Math.ceil(k / 2) : k - 1) {
    for (const combination of combinations(selective.length, k)) {
      if (matches++ >= MAX_MATCHES) break search;
      for (const docId of matchDocIds(source, combination.map((i) => quoteTerm(selective[i] as string)).join(' '))) union.add(docId);
      if (countAccepted(union, index, accept, limit) >= limit) break search;
    }
  }
  if (countAccepted(union, index, accept, limit) < limit) {
    for (const docId of matchDocIds(source, quoteTerm(selective[0] as string))) union.add(docId);
  }
  return union;
}

/** Doc ids matching an FTS expression, as one aggregated row (cheap per match). */
function matchDocIds(source: CandidateSource, match: string): number[] {
  const row = source.db.arrays(`SELECT group_concat(${source.idColumn}) FROM skills_fts WHERE skills_fts MATCH ?`, [match])[0];
  const text = row?.[0];
  if (typeof text !== 'string' || text.length === 0) return typeof text === 'number' ? [text] : [];
  const ids: number[] = [];
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44) {
      ids.push(value);
      value = 0;
    } else {
      value = value * 10 + (code - 48);
    }
  }
  ids.push(value);
  return ids;
}

/** k-index combinations of 0..n−1 in lexicographic order (rarest terms first). */
function* combinations(n: number, k: number): Generator<number[]> {
  const pick = Array.from({ length: k }, (_, i) => i);
  while (true) {
    yield [...pick];
    let i = k - 1;
    while (i >= 0 && pick[i] === n - k + i) i--;
    if (i < 0) return;
    pick[i]++;
    for (let j = i + 1; j < k; j++) pick[j] = (pick[j - 1] as number) + 1;
  }
}

/** How many of `docIds` pass the filter, counting no further than `enough`. */
function countAccepted(docIds: Iterable<number>, index: SkillSearchIndex, accept: (entry: SkillEntry) => boolean, enough: number): number {
  let accepted = 0;
  for (const docId of docIds) {
    const entry = index.byDocId(docId);
    if (entry && accept(entry) && ++accepted >= enough) break;
  }
  return accepted;
}

function quoteTerm(term: string): string {
  return `"${term.replace(/"/g, '')}"`;
}
