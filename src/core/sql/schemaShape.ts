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
  if (storedAsCreated(stored, createSchema)) return undefined;
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

/**
 * Whether every table `createSchema` makes is stored with exactly the statement it makes it with.
 * SQLite keeps a table's statement as `CREATE TABLE ` plus its text from the table's name on, and
 * derives every column's name, type and key from that text, so the same text is the same shape:
 * no fresh database is made (its statements, run once in the process, cost more than the rest of
 * the check). Anything else — a view, a virtual table, an ALTER, a statement `createSchema` runs
 * some other way, a table stored with other text (migrated, renamed, damaged) — answers false, and
 * the shapes are compared.
 */
export function storedAsCreated(stored: SqlDatabase, createSchema: (db: SqlDatabase) => void): boolean {
  const statements: string[] = [];
  const record = (sql: string) => {
    for (const statement of splitStatements(sql)) statements.push(statement);
  };
  try {
    createSchema({ exec: record, run: record } as unknown as SqlDatabase);
  } catch {
    return false;
  }
  const expected = new Map<string, string>();
  for (const statement of statements) {
    if (/^CREATE\s+(UNIQUE\s+)?INDEX\s/i.test(statement)) continue;
    const head = /^CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?/i.exec(statement);
    const rest = head ? statement.slice(head[0].length) : '';
    const name = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(/.exec(rest)?.[1];
    if (!name) return false;
    expected.set(name, `CREATE TABLE ${rest}`);
  }
  if (expected.size === 0) return false;
  const tables = new Map(stored.arrays("SELECT name, sql FROM sqlite_master WHERE type = 'table'").map((r) => [String(r[0]), r[1]]));
  for (const [name, sql] of expected) if (tables.get(name) !== sql) return false;
  return true;
}

/** `;`-separated statements, trimmed, empty ones dropped (a `;` inside quotes does not end one). */
function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') {
      quote = c;
    } else if (c === '[') {
      quote = ']';
    } else if (c === ';') {
      out.push(sql.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(sql.slice(start).trim());
  return out.filter((statement) => statement.length > 0);
}
