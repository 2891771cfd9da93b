import type { BindParams, Database, SqlValue, Statement } from 'sql.js';

export type Row = Record<string, SqlValue>;

const BOM = 0xfeff;

/**
 * A text value as bound, so that it reads back as it was written. sql.js decodes the text it
 * reads with a `TextDecoder` that drops a leading U+FEFF (its default), so a value that starts
 * with one is bound with one more, which the read drops again (SQL sees the extra character:
 * `length()` counts it, and an equal value bound here matches). UTF-8 cannot hold a lone UTF-16
 * surrogate: sql.js would store invalid bytes that read back as three U+FFFD each. Such a value is
 * bound well-formed (each lone surrogate one U+FFFD, as `toWellFormed` makes it), which reads back
 * as bound.
 */
function storableText(text: string): string {
  const wellFormed = unicode(text).isWellFormed() ? text : unicode(text).toWellFormed();
  return wellFormed.charCodeAt(0) === BOM ? `\uFEFF${wellFormed}` : wellFormed;
}

/** ES2024's string methods (Node 20 has them; the compiled library is ES2022). */
interface WellFormedText {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

const unicode = (text: string) => text as unknown as WellFormedText;

const needsRewrite = (value: unknown): value is string => typeof value === 'string' && (value.charCodeAt(0) === BOM || !unicode(value).isWellFormed());

/** Parameters with every text made `storableText`; the same object when none needs it (the common case: no copy). */
function storable(params: BindParams): BindParams {
  if (Array.isArray(params)) {
    if (!params.some(needsRewrite)) return params;
    return params.map((value) => (typeof value === 'string' ? storableText(value) : value));
  }
  if (params === null || typeof params !== 'object') return params;
  const values = Object.values(params);
  if (!values.some(needsRewrite)) return params;
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, typeof value === 'string' ? storableText(value) : value]));
}

/**
 * A thin, typed wrapper over a sql.js Database with a prepared-statement cache.
 *
 * Why the wrapper: sql.js's `export()` frees every prepared statement, so a cache that
 * outlives an export would hand out dead statements. All exports go through `export()` here,
 * which clears the cache first.
 */
export class SqlDatabase {
  private readonly statements = new Map<string, Statement>();
  private transactionDepth = 0;

  constructor(readonly raw: Database) {}

  run(sql: string, params?: BindParams): void {
    if (params === undefined) {
      this.raw.run(sql);
      return;
    }
    const statement = this.prepare(sql);
    statement.run(storable(params));
    statement.reset();
  }

  /** Runs several `;`-separated statements (schema scripts). */
  exec(sql: string): void {
    this.raw.exec(sql);
  }

  all<T extends Row = Row>(sql: string, params?: BindParams): T[] {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) statement.bind(storable(params));
      const rows: T[] = [];
      while (statement.step()) rows.push(statement.getAsObject() as T);
      return rows;
    } finally {
      statement.reset();
    }
  }

  /** Rows as positional arrays (faster than objects on hot paths). */
  arrays(sql: string, params?: BindParams): SqlValue[][] {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) statement.bind(storable(params));
      const rows: SqlValue[][] = [];
      while (statement.step()) rows.push(statement.get());
      return rows;
    } finally {
      statement.reset();
    }
  }

  /** Calls `fn` with each row as a positional array, one at a time (a large table is never held whole). */
  each(sql: string, fn: (row: SqlValue[]) => void): void {
    const statement = this.prepare(sql);
    try {
      while (statement.step()) fn(statement.get());
    } finally {
      statement.reset();
    }
  }

  /**
   * The rows as positional arrays, one at a time, for a caller that pauses between them (a large
   * table read in slices): the statement stays open until the iteration ends or is left, so no
   * other call may run the same SQL meanwhile.
   */
  *iterate(sql: string): Generator<SqlValue[], void, undefined> {
    const statement = this.prepare(sql);
    try {
      while (statement.step()) yield statement.get();
    } finally {
      statement.reset();
    }
  }

  get<T extends Row = Row>(sql: string, params?: BindParams): T | undefined {
    const statement = this.prepare(sql);
    try {
      if (params !== undefined) statement.bind(storable(params));
      return statement.step() ? (statement.getAsObject() as T) : undefined;
    } finally {
      statement.reset();
    }
  }

  /**
   * Runs `fn` in a transaction; rolls back on throw. A nested call runs in a savepoint: when it
   * throws, only its own writes are undone (the caller may catch and go on with the rest).
   */
  transaction<T>(fn: () => T): T {
    if (this.transactionDepth > 0) {
      const savepoint = `sp_${this.transactionDepth}`;
      this.raw.run(`SAVEPOINT ${savepoint}`);
      this.transactionDepth++;
      try {
        const result = fn();
        this.raw.run(`RELEASE ${savepoint}`);
        return result;
      } catch (error) {
        this.raw.run(`ROLLBACK TO ${savepoint}`);
        this.raw.run(`RELEASE ${savepoint}`);
        throw error;
      } finally {
        this.transactionDepth--;
      }
    }
    this.raw.run('BEGIN');
    this.transactionDepth++;
    try {
      const result = fn();
      this.raw.run('COMMIT');
      return result;
    } catch (error) {
      this.raw.run('ROLLBACK');
      throw error;
    } finally {
      this.transactionDepth--;
    }
  }

  /** Serialises the database. Clears the statement cache first (see class comment). */
  export(): Uint8Array {
    this.clearStatements();
    return this.raw.export();
  }

  close(): void {
    this.clearStatements();
    this.raw.close();
  }

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.raw.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private clearStatements(): void {
    for (const statement of this.statements.values()) {
      try {
        statement.free();
      } catch {
        // Already freed by sql.js.
      }
    }
    this.statements.clear();
  }
}
