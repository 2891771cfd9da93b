import { redact } from '../../privacy/redaction';
import { analyze } from '../../search/textAnalysis';
import type { SqlDatabase } from '../../sql/sqlDatabase';
import type { PickRecord } from './pickPrior';

/**
 * The per-workspace record of `tool_search` result lists and what the model then called, in
 * a small capped table of the tool index database. Only tool names and analysed query terms
 * are kept (secrets redacted before analysis, long opaque tokens dropped), never arguments
 * or results. The table is created on first use so the index schema stays as it is.
 */

/** Rows kept; the oldest go first. */
export const PICK_LOG_CAP = 2000;
/** A call counts as a pick of a search shown this long ago at most. */
const PICK_WINDOW_MS = 30 * 60 * 1000;
const MAX_TERMS = 24;
const MAX_SHOWN = 20;

export function queryTermsForLog(query: string): string[] {
  // Redaction markers ([REDACTED_TOKEN]…) are dropped whole, not kept as words.
  const redacted = redact(query).replace(/\[REDACTED_[A-Z]+\]/g, ' ');
  return (
    [...new Set(analyze(redacted))]
      // Redaction markers, and anything that looks like an id or key rather than a word.
      .filter((term) => term.length >= 2 && term.length <= 32 && !/redact/.test(term) && !/\d{4,}/.test(term) && !/^[a-z0-9]{20,}$/.test(term))
      .slice(0, MAX_TERMS)
  );
}

export class ToolPickLog {
  /** The database the table was last ensured in (the index may reopen it). */
  private readyIn: SqlDatabase | undefined;
  /**
   * `picks()` as last read: every tool_search reads the prior, so the table is read again only
   * after a pick, a clear, a trim of old rows or a reopened database.
   */
  private picksCache: PickRecord[] | undefined;
  /**
   * Result lists not yet written: `recordSearch` is on the tool_search path, so its insert waits
   * for the next read of the log or the next save of the index (`flush`), off that path.
   */
  private pending: Array<[at: number, session: string, terms: string, shown: string]> = [];

  constructor(
    private readonly db: () => SqlDatabase,
    private readonly changed: () => void,
  ) {}

  /** Records one result list (written at the next `flush`). */
  recordSearch(session: string, query: string, shown: readonly string[], at: number): void {
    this.recordTerms(session, queryTermsForLog(query), shown, at);
  }

  /** As recordSearch, for a query already reduced by `queryTermsForLog`. */
  recordTerms(session: string, terms: readonly string[], shown: readonly string[], at: number): void {
    if (terms.length === 0 || shown.length === 0) return;
    this.pending.push([at, session, terms.join(' '), JSON.stringify(shown.slice(0, MAX_SHOWN))]);
    this.changed();
  }

  /** Writes the queued result lists in one transaction and trims the table to its cap. */
  flush(): void {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    const db = this.open();
    db.transaction(() => {
      for (const row of rows) db.run('INSERT INTO tool_pick_log (at, session, terms, shown) VALUES (?, ?, ?, ?)', row);
      const id = Number(db.get<{ id: number }>('SELECT last_insert_rowid() AS id')?.id ?? 0);
      if (id > PICK_LOG_CAP) {
        // Trimming may drop old picks: the prior is read again.
        db.run('DELETE FROM tool_pick_log WHERE id <= ?', [id - PICK_LOG_CAP]);
        this.picksCache = undefined;
      }
    });
  }

  /**
   * The model called `tool` (and it succeeded or not): attached to the latest result list of
   * this session, within the pick window, that showed it. A second pick from one list gets its own row.
   */
  recordOutcome(session: string, tool: string, succeeded: boolean, at: number): boolean {
    this.flush();
    const db = this.open();
    const rows = db.all<{ id: number; terms: string; shown: string; picked: string | null }>(
      'SELECT id, terms, shown, picked FROM tool_pick_log WHERE session = ? AND at >= ? ORDER BY id DESC LIMIT 20',
      [session, at - PICK_WINDOW_MS],
    );
    const row = rows.find((r) => safeNames(r.shown).includes(tool));
    if (!row) return false;
    this.picksCache = undefined;
    if (row.picked === null) {
      db.run('UPDATE tool_pick_log SET picked = ?, succeeded = ?, picked_at = ? WHERE id = ?', [tool, succeeded ? 1 : 0, at, row.id]);
    } else if (row.picked !== tool || !succeeded) {
      db.run('INSERT INTO tool_pick_log (at, session, terms, shown, picked, succeeded, picked_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        at,
        session,
        row.terms,
        row.shown,
        tool,
        succeeded ? 1 : 0,
        at,
      ]);
    }
    this.changed();
    return true;
  }

  /** Picks (with an outcome) for the prior. */
  picks(): readonly PickRecord[] {
    // Queued result lists carry no pick, so the prior does not wait for them.
    const db = this.open();
    if (this.picksCache) return this.picksCache;
    this.picksCache = db
      .all<{ terms: string; picked: string; succeeded: number; picked_at: number }>(
        'SELECT terms, picked, succeeded, picked_at FROM tool_pick_log WHERE picked IS NOT NULL',
      )
      .map((row) => ({ terms: String(row.terms).split(' '), tool: String(row.picked), succeeded: Number(row.succeeded) === 1, at: Number(row.picked_at) }));
    return this.picksCache;
  }

  /** Rows stored (searches, with or without a pick). */
  size(): number {
    this.flush();
    return Number(this.open().get<{ n: number }>('SELECT COUNT(*) AS n FROM tool_pick_log')?.n ?? 0);
  }

  clear(): void {
    this.pending = [];
    this.open().run('DELETE FROM tool_pick_log');
    this.picksCache = undefined;
    this.changed();
  }

  private open(): SqlDatabase {
    const db = this.db();
    if (this.readyIn !== db) {
      db.exec(`CREATE TABLE IF NOT EXISTS tool_pick_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        session TEXT NOT NULL,
        terms TEXT NOT NULL,
        shown TEXT NOT NULL,
        picked TEXT,
        succeeded INTEGER,
        picked_at INTEGER
      )`);
      this.readyIn = db;
      this.picksCache = undefined;
    }
    return db;
  }
}

function safeNames(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
