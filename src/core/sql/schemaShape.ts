import type { SqlEngine } from './sqlEngine';
import { SqlDatabase } from './sqlDatabase';

/**
 * A database can carry the right version stamp and still lack a table or a column (a tool edited
 * it, a copy went wrong). We compare its shape with the schema a fresh database gets — the same
 * `createSchema`, so there is no second description of the schema to keep in step.
 */

type Shape = Map<string, Set<string>>;

function shapeOf(db: SqlDatabase): Shape {
  const shape: Shape = new Map();
  const tables = db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'");
  for (const { name } of tables) {
    // Shadow tables of a virtual table (e.g. skills_fts_segdir) are created with it.
    const columns = db.all<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [name]).map((c) => c.name);
    shape.set(name, new Set(columns));
  }
  return shape;
}

/** What the stored database lacks compared with a fresh one, or undefined when nothing. */
export function schemaDifference(stored: SqlDatabase, createSchema: (db: SqlDatabase) => void, engine: SqlEngine): string | undefined {
  const fresh = new SqlDatabase(new engine.sql.Database());
  let expected: Shape;
  try {
    createSchema(fresh);
    expected = shapeOf(fresh);
  } finally {
    fresh.close();
  }
  const actual = shapeOf(stored);
  for (const [table, columns] of expected) {
    const have = actual.get(table);
    if (!have) return `table "${table}" is missing`;
    for (const column of columns) if (!have.has(column)) return `column "${table}.${column}" is missing`;
  }
  return undefined;
}
