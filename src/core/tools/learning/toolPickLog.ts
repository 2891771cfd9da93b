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
  return [...new Set(analyze(redacted))]
    // Redaction markers, and anything that looks like an id or key rather than a word.
    .filter((term) => term.length >= 2 && term.length <= 32 && !/redact/.test(term) && !/\d{4,}/.test(term) && !/^[a-z0-9]{20,}$/.test(term))
    .slice(0, MAX_TERMS);
}

export class ToolPickLog {
  /** The database the table was last ensured in (the index may reopen it). */
  private readyIn: SqlDatabase | undefined;

  constructor(
    private readonly db: () => SqlDatabase,
    private readonly changed: () => void,
  ) {}

  /** Records one result list; returns its row id. */
  recordSearch(session: string, query: string, shown: readonly string[], at: number): void {
    const terms = queryTermsForLog(query);
    if (terms.length === 0 || shown.length === 0) return;
    const db = this.open();
    db.run('INSERT INTO tool_pick_log (at, session, terms, shown) VALUES (?, ?, ?, ?)', [at, session, terms.join(' '), JSON.stringify(shown.slice(0, MAX_SHOWN))]);
    db.run('DELETE FROM tool_pick_log WHERE id <= (SELECT MAX(id) FROM tool_pick_log) - ?', [PICK_LOG_CAP]);
    this.changed();
  }

  /**
   * The model called `tool` (and it succeeded or not): attached to the latest result list of
   * this session, within the pick window, that showed it. A second pick from one list gets its own row.
   */
  recordOutcome(session: string, tool: string, succeeded: boolean, at: number): boolean {
    const db = this.open();
    const rows = db.all<{ id: number; terms: string; shown: string; picked: string | null }>(
      'SELECT id, terms, shown, picked FROM tool_pick_log WHERE session = ? AND at >= ? ORDER BY id DESC LIMIT 20',
      [session, at - PICK_WINDOW_MS],
    );
    const row = rows.find((r) => safeNames(r.shown).includes(tool));
    if (!row) return false;
    if (row.picked === null) {
      db.run('UPDATE tool_pick_log SET picked = ?, succeeded = ?, picked_at = ? WHERE id = ?', [tool, succeeded ? 1 : 0, at, row.id]);
    } else if (row.picked !== tool || !succeeded) {
      db.run('INSERT INTO tool_pick_log (at, session, terms, shown, picked, succeeded, picked_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [at, session, row.terms, row.shown, tool, succeeded ? 1 : 0, at]);
    }
    this.changed();
    return true;
  }

  /** Picks (with an outcome) for the prior. */
  picks(): PickRecord[] {
    const db = this.open();
    return db
      .all<{ terms: string; picked: string; succeeded: number; picked_at: number }>('SELECT terms, picked, succeeded, picked_at FROM tool_pick_log WHERE picked IS NOT NULL')
      .map((row) => ({ terms: String(row.terms).split(' '), tool: String(row.picked), succeeded: Number(row.succeeded) === 1, at: Number(row.picked_at) }));
  }

  /** Rows stored (searches, with or without a pick). */
  size(): number {
    return Number(this.open().get<{ n: number }>('SELECT COUNT(*) AS n FROM tool_pick_log')?.n ?? 0);
  }

  clear(): void {
    this.open().run('DELETE FROM tool_pick_log');
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
