import type { SqlEngine } from './sqlEngine';
import { SqlDatabase } from './sqlDatabase';

/**
 * A database can carry the right version stamp and still lack a table or a column (a tool edited
 * it, a copy went wrong). We compare its shape with the schema a fresh database gets — the same
 * `createSchema`, so there is no second description of the schema to keep in step.
 */

/**
 * Per table, each column's declared type and primary-key position: a flipped byte in a stored
 * `CREATE TABLE` can leave valid SQL that means something else (`doc_id INTEGER PRIMARY KEY`
 * becoming `INTEGEZ PRIMARY KEY` is no longer the row id, so every stored id reads as NULL).
 */
type Shape = Map<string, Map<string, string>>;

function shapeOf(db: SqlDatabase): Shape {
  const shape: Shape = new Map();
  const tables = db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'");
  for (const { name } of tables) {
    // Shadow tables of a virtual table (e.g. skills_fts_segdir) are created with it.
    const columns = db.all<{ name: string; type: string; pk: number }>(`SELECT name, type, pk FROM pragma_table_info(?)`, [name]);
    shape.set(name, new Map(columns.map((c) => [c.name, `${String(c.type).toUpperCase()}${c.pk ? ` PRIMARY KEY ${c.pk}` : ''}`])));
  }
  return shape;
}

/** What the stored database lacks compared with a fresh one, or undefined when nothing. */
export function schemaDifference(stored: SqlDatabase, createSchema: (db: SqlDatabase) => void, engine: SqlEngine): string | undefined {
  const fresh = new SqlDatabase(new engine.sql.Database());
  let expected: Shape;
  try {
    // One transaction: each statement on its own would commit (and journal) separately.
    fresh.transaction(() => createSchema(fresh));
    expected = shapeOf(fresh);
  } finally {
    fresh.close();
  }
  const actual = shapeOf(stored);
  for (const [table, columns] of expected) {
    const have = actual.get(table);
    if (!have) return `table "${table}" is missing`;
    for (const [column, declared] of columns) {
      const stored = have.get(column);
      if (stored === undefined) return `column "${table}.${column}" is missing`;
      if (stored !== declared) return `column "${table}.${column}" is declared "${stored}", not "${declared}"`;
    }
  }
  return undefined;
}
