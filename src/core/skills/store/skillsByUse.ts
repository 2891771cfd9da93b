import type { Row, SqlDatabase } from '../../sql/sqlDatabase';

/**
 * The skills' rows, most recently (`recent`) or most often (`top`) used first, then by name: the
 * directory's candidates (SkillStore.top), under a filter's SQL (`filterSql`).
 *
 * A skill's counters noted since the store's last whole write (skillUsageFile.ts) are not in its
 * row, so a skill they move up can stand anywhere in the rows' order: the rows of `noted` (doc
 * ids) are read apart and ordered here with the first `limit + noted` rows — no other skill
 * moves, so no row of the answer lies further down. `counts` gives a row's counters as reads see them.
 */
export function rowsByUse(
  db: SqlDatabase,
  where: { sql: string; params: Record<string, string | number> },
  order: 'recent' | 'top',
  limit: number,
  noted: readonly number[],
  counts: (row: Row) => { use_count: number; last_used: number },
): Row[] {
  const orderBy = order === 'recent' ? 's.last_used DESC, s.use_count DESC' : 's.use_count DESC, s.last_used DESC';
  const rows = db.all(`SELECT * FROM skills s WHERE ${where.sql} ORDER BY ${orderBy}, s.name LIMIT :limit`, {
    ...where.params,
    ':limit': limit + noted.length,
  });
  if (noted.length === 0) return rows;
  for (let i = 0; i < noted.length; i += 500) {
    const chunk = noted.slice(i, i + 500);
    const params = Object.fromEntries(chunk.map((docId, j) => [`:noted${j}`, docId]));
    rows.push(...db.all(`SELECT * FROM skills s WHERE ${where.sql} AND s.doc_id IN (${Object.keys(params).join(', ')})`, { ...where.params, ...params }));
  }
  const keyed = [...new Map(rows.map((row) => [Number(row.doc_id), row])).values()].map((row) => {
    const { use_count, last_used } = counts(row);
    return { row, keys: order === 'recent' ? [last_used, use_count] : [use_count, last_used], name: String(row.name) };
  });
  keyed.sort((a, b) => b.keys[0]! - a.keys[0]! || b.keys[1]! - a.keys[1]! || byCodePoint(a.name, b.name));
  return keyed.slice(0, limit).map((k) => k.row);
}

/** UTF-8 byte order (SQLite's BINARY collation) is code-point order. */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
