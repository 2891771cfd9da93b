import type { Clock } from '../platform/ports';
import { holdsRedaction, redact } from '../privacy/redaction';
import { openStoreDatabase } from '../sql/persistentDatabase';
import type { PersistentDatabase, StoreDatabaseOptions } from '../sql/persistentDatabase';
import type { SqlDatabase } from '../sql/sqlDatabase';
import type { LedgerTurn } from './ledgerTurn';
import { readLedgerReport, type LedgerReport } from './ledgerReport';
import { DOOR_OFFERS_SQL, DOORS_SQL, importDoorEntries, type DoorLedgerEntry } from './doorJournal';

/**
 * The ledger's own sql.js database (`ledger.db` in workspace storage): what each tool, skill and
 * server cost and gave back, as one row per name and UTC day. Its size is bounded: days older
 * than `LEDGER_RETENTION_DAYS` are dropped, and only the last `RECENT_TURNS_KEPT` turns keep
 * which tools they called (what the learned core set reads). Names are redacted before they are
 * stored, like every store's text; nothing of the request or the answer is kept.
 */

export const LEDGER_DB_KEY = 'ledger.db';
/**
 * Version 2 added `retired_skills`; version 3 `recent_turns.missed` (the called tools round 1 did
 * not offer); version 4 the doors' rows and the journals they were imported from; version 5 the
 * doors' offers, counted apart from what they injected. Rows of older versions are kept.
 */
const SCHEMA = 'ledger/5';
const RETIRED_SKILLS_SQL = 'CREATE TABLE retired_skills (skill TEXT PRIMARY KEY, at INTEGER NOT NULL);';
const MISSED_SQL = "ALTER TABLE recent_turns ADD COLUMN missed TEXT NOT NULL DEFAULT '[]';";
/** Days of per-day rows kept (the view shows at most the last 30). */
export const LEDGER_RETENTION_DAYS = 90;
/** Turns whose called tools are kept, newest first (the learned core set's window is within). */
export const RECENT_TURNS_KEPT = 100;
const DAY_MS = 86_400_000;

/** `2026-11-27` for a time in ms (UTC). */
function ledgerDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

const SCHEMA_SQL = `
  CREATE TABLE tool_days (day TEXT NOT NULL, tool TEXT NOT NULL, server TEXT NOT NULL,
    sent INTEGER NOT NULL DEFAULT 0, sent_tokens INTEGER NOT NULL DEFAULT 0,
    act_request INTEGER NOT NULL DEFAULT 0, act_search INTEGER NOT NULL DEFAULT 0,
    act_first_use INTEGER NOT NULL DEFAULT 0, act_skill INTEGER NOT NULL DEFAULT 0,
    vain INTEGER NOT NULL DEFAULT 0, calls INTEGER NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0,
    turns_called INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (day, tool));
  CREATE TABLE skill_days (day TEXT NOT NULL, skill TEXT NOT NULL,
    injections INTEGER NOT NULL DEFAULT 0, follows INTEGER NOT NULL DEFAULT 0,
    helpful INTEGER NOT NULL DEFAULT 0, harmful INTEGER NOT NULL DEFAULT 0,
    selection_tokens INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (day, skill));
  CREATE TABLE turn_days (day TEXT PRIMARY KEY, turns INTEGER NOT NULL DEFAULT 0, rounds INTEGER NOT NULL DEFAULT 0,
    model_requests INTEGER NOT NULL DEFAULT 0, tools_sent INTEGER NOT NULL DEFAULT 0,
    tool_definition_tokens INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE recent_turns (seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, called TEXT NOT NULL, missed TEXT NOT NULL DEFAULT '[]');
  CREATE TABLE core_set (tool TEXT PRIMARY KEY, promoted_at INTEGER NOT NULL, used_in INTEGER NOT NULL,
    window_turns INTEGER NOT NULL, tokens INTEGER NOT NULL);
  CREATE TABLE core_set_undone (tool TEXT PRIMARY KEY, at INTEGER NOT NULL);
  ${RETIRED_SKILLS_SQL}
  ${DOORS_SQL}
`;

/**
 * The tools one recent turn called, and those of them round 1 did not offer (found by
 * `tool_search`, a round each, or called by name): neither the request's words, a skill nor the
 * core set had made them visible.
 */
export interface RecentTurnCalls {
  called: string[];
  missed: string[];
}

/** A tool the learned core set shows without a search, and why. */
export interface CoreSetEntry {
  tool: string;
  promotedAt: number;
  /** Recent turns that called it, out of `windowTurns`. */
  usedIn: number;
  windowTurns: number;
  /** Its definition's tokens when it was promoted. */
  tokens: number;
}

/**
 * Why a skill of that name cannot be retired, or undefined when it can: a name that reads like a
 * secret is stored redacted, so a retirement could never match it; and a Ledger row shows such a
 * name already redacted, which names no skill at all. Both surfaces (the Skill Directory with the
 * real name, the Ledger with the redacted one) get this same reason; it never repeats the secret.
 */
export function retireRefusal(skill: string): string | undefined {
  const redacted = redact(skill);
  if (redacted === skill && !holdsRedaction(skill)) return undefined;
  return `"${redacted.slice(0, 200)}" cannot be retired: its name reads like a secret, so the ledger keeps it redacted and a retirement could never match the skill. Rename the skill, or remove it from its pack.`;
}

export class LedgerStore {
  private saving: Promise<void> = Promise.resolve();
  private prunedFor = '';
  private readonly names = new Map<string, string>();

  private constructor(
    private readonly persistent: PersistentDatabase,
    private readonly clock: Clock,
  ) {}

  /**
   * Opens `ledger.db`; a damaged file, or one a newer Toolshed wrote, is moved aside and a fresh
   * ledger starts (persistentDatabase.ts). `readOnly` (the CLI's report) moves and writes nothing:
   * `openStatus` says why a file could not be used.
   */
  static async open(options: StoreDatabaseOptions & { clock: Clock }): Promise<LedgerStore> {
    const persistent = await openStoreDatabase(options, LEDGER_DB_KEY, {
      schemaVersion: SCHEMA,
      createSchema: (db) => db.exec(SCHEMA_SQL),
      migrations: [
        { from: 'ledger/1', migrate: (db) => db.exec(`${RETIRED_SKILLS_SQL} ${MISSED_SQL} ${DOORS_SQL}`) },
        { from: 'ledger/2', migrate: (db) => db.exec(`${MISSED_SQL} ${DOORS_SQL}`) },
        { from: 'ledger/3', migrate: (db) => db.exec(DOORS_SQL) },
        { from: 'ledger/4', migrate: (db) => db.exec(DOOR_OFFERS_SQL) },
      ],
      verify: (db) => {
        db.all('SELECT * FROM tool_days LIMIT 1');
        db.all('SELECT * FROM core_set');
        db.all('SELECT * FROM retired_skills');
        db.all('SELECT * FROM door_journals');
      },
    });
    return new LedgerStore(persistent, options.clock);
  }

  /** `created`, `loaded`, `migrated` or `rebuilt` (with why), for the log. */
  get openStatus(): { status: PersistentDatabase['status']; reason?: string; backupKey?: string } {
    return { status: this.persistent.status, reason: this.persistent.rebuildReason, backupKey: this.persistent.backupKey };
  }

  private get db(): SqlDatabase {
    return this.persistent.db;
  }

  /** Adds one turn: a handful of upserts in one transaction (the bench's "ledger write" row). */
  record(turn: LedgerTurn): void {
    const day = ledgerDay(turn.at);
    const db = this.db;
    db.transaction(() => {
      db.run(
        `INSERT INTO turn_days (day, turns, rounds, model_requests, tools_sent, tool_definition_tokens) VALUES (?, 1, ?, ?, ?, ?)
         ON CONFLICT(day) DO UPDATE SET turns = turns + 1, rounds = rounds + excluded.rounds, model_requests = model_requests + excluded.model_requests,
           tools_sent = tools_sent + excluded.tools_sent, tool_definition_tokens = tool_definition_tokens + excluded.tool_definition_tokens`,
        [day, turn.rounds, turn.modelRequests, turn.toolsSent, turn.toolDefinitionTokens],
      );
      const called: string[] = [];
      const missed: string[] = [];
      for (const tool of turn.tools) {
        const name = this.safe(tool.name);
        const by = tool.activatedBy;
        if (tool.calls > 0) called.push(name);
        // Not offered in round 1: a search had to find it, or the model called it by name.
        if (tool.calls > 0 && (by === 'search' || by === 'first_use')) missed.push(name);
        db.run(
          `INSERT INTO tool_days (day, tool, server, sent, sent_tokens, act_request, act_search, act_first_use, act_skill, vain, calls, failures, turns_called)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(day, tool) DO UPDATE SET server = excluded.server, sent = sent + excluded.sent, sent_tokens = sent_tokens + excluded.sent_tokens,
             act_request = act_request + excluded.act_request, act_search = act_search + excluded.act_search,
             act_first_use = act_first_use + excluded.act_first_use, act_skill = act_skill + excluded.act_skill,
             vain = vain + excluded.vain, calls = calls + excluded.calls, failures = failures + excluded.failures,
             turns_called = turns_called + excluded.turns_called`,
          [
            day,
            name,
            this.safe(tool.server),
            tool.sent,
            tool.sentTokens,
            by === 'request' ? 1 : 0,
            by === 'search' ? 1 : 0,
            by === 'first_use' ? 1 : 0,
            by === 'skill' ? 1 : 0,
            by && tool.calls === 0 ? 1 : 0,
            tool.calls,
            tool.failures,
            tool.calls > 0 ? 1 : 0,
          ],
        );
      }
      for (const skill of turn.skills) {
        db.run(
          `INSERT INTO skill_days (day, skill, injections, follows, selection_tokens) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(day, skill) DO UPDATE SET injections = injections + excluded.injections, follows = follows + excluded.follows,
             selection_tokens = selection_tokens + excluded.selection_tokens`,
          [day, this.safe(skill.name), skill.injected ? 1 : 0, skill.followed ? 1 : 0, skill.selectionTokens],
        );
      }
      db.run('INSERT INTO recent_turns (at, called, missed) VALUES (?, ?, ?)', [turn.at, JSON.stringify(called), JSON.stringify(missed)]);
      db.run('DELETE FROM recent_turns WHERE seq <= (SELECT MAX(seq) FROM recent_turns) - ?', [RECENT_TURNS_KEPT]);
      if (this.prunedFor !== day) this.prune(turn.at, day);
    });
  }

  /** The byte offset of `journal` (a door journal's path) imported so far: where the next import reads from. */
  doorJournalOffset(journal: string): number {
    return this.db.get<{ n: number }>('SELECT byte_offset AS n FROM door_journals WHERE journal = ?', [journal])?.n ?? 0;
  }

  /**
   * Counts door decisions read from `journal` and moves its offset to `next`, in one
   * transaction: the rows and the offset that says they were counted are saved together, so a
   * ledger file of any age re-imports exactly what it has not counted.
   */
  importDoorEntries(journal: string, entries: readonly DoorLedgerEntry[], next: number): void {
    this.db.transaction(() => importDoorEntries(this.db, journal, entries, next, (name) => this.safe(name)));
  }

  /** A 👍 or 👎 on an answer, counted for each skill that was active in it. */
  recordFeedback(skills: readonly string[], helpful: boolean, at = this.clock.now()): void {
    const day = ledgerDay(at);
    const column = helpful ? 'helpful' : 'harmful';
    this.db.transaction(() => {
      for (const skill of skills) {
        this.db.run(`INSERT INTO skill_days (day, skill, ${column}) VALUES (?, ?, 1) ON CONFLICT(day, skill) DO UPDATE SET ${column} = ${column} + 1`, [
          day,
          this.safe(skill),
        ]);
      }
    });
  }

  /** The ledger of the last `days` days (today included), per tool, skill and server; `shown` leaves out tools that may not be named. */
  report(days: number, shown?: (tool: string) => boolean): LedgerReport {
    const now = this.clock.now();
    return readLedgerReport(this.db, ledgerDay(now - (Math.max(1, Math.floor(days)) - 1) * DAY_MS), days, shown);
  }

  /** Tools called in each of the last `turns` turns, newest first, and those of them round 1 did not offer. */
  recentCalls(turns: number): RecentTurnCalls[] {
    const names = (text: string) => (JSON.parse(text) as unknown[]).filter((name): name is string => typeof name === 'string');
    return this.db
      .all<{ called: string; missed: string }>('SELECT called, missed FROM recent_turns ORDER BY seq DESC LIMIT ?', [turns])
      .map((row) => ({ called: names(row.called), missed: names(row.missed) }));
  }

  coreSet(): CoreSetEntry[] {
    return this.db
      .all<{ tool: string; promoted_at: number; used_in: number; window_turns: number; tokens: number }>('SELECT * FROM core_set ORDER BY promoted_at, tool')
      .map((row) => ({ tool: row.tool, promotedAt: row.promoted_at, usedIn: row.used_in, windowTurns: row.window_turns, tokens: row.tokens }));
  }

  /** Replaces the learned core set (the promotion rule decides; this only stores). */
  setCoreSet(entries: readonly CoreSetEntry[]): void {
    this.db.transaction(() => {
      this.db.run('DELETE FROM core_set');
      for (const entry of entries) {
        this.db.run('INSERT INTO core_set (tool, promoted_at, used_in, window_turns, tokens) VALUES (?, ?, ?, ?, ?)', [
          this.safe(entry.tool),
          entry.promotedAt,
          entry.usedIn,
          entry.windowTurns,
          entry.tokens,
        ]);
      }
    });
  }

  /** Undo of one promotion: the tool leaves the core set and is not promoted again until a reset. */
  undoPromotion(tool: string): void {
    this.db.transaction(() => {
      this.db.run('DELETE FROM core_set WHERE tool = ?', [tool]);
      this.db.run('INSERT OR REPLACE INTO core_set_undone (tool, at) VALUES (?, ?)', [tool, this.clock.now()]);
    });
  }

  undoneTools(): Set<string> {
    return new Set(this.db.all<{ tool: string }>('SELECT tool FROM core_set_undone').map((row) => row.tool));
  }

  /** Forgets the learned core set: promotions, undos and the recent turns it learned from. */
  resetCoreSet(): void {
    this.db.exec('DELETE FROM core_set; DELETE FROM core_set_undone; DELETE FROM recent_turns;');
  }

  /**
   * Retires a skill in this workspace (kept out of every skill answer and pre-flight until
   * restored). False when `retireRefusal` refuses the name.
   */
  retireSkill(skill: string): boolean {
    if (retireRefusal(skill) !== undefined || this.safe(skill) !== skill) return false;
    this.db.run('INSERT OR IGNORE INTO retired_skills (skill, at) VALUES (?, ?)', [skill, this.clock.now()]);
    return true;
  }

  /** Brings a retired skill back; false when it was not retired. */
  restoreSkill(skill: string): boolean {
    const was = this.db.get('SELECT 1 AS n FROM retired_skills WHERE skill = ?', [skill]) !== undefined;
    this.db.run('DELETE FROM retired_skills WHERE skill = ?', [skill]);
    return was;
  }

  /** Saves are serialised: two writes of the file never overlap (each exports the latest state). */
  save(): Promise<void> {
    const next = this.saving.then(() => this.persistent.save());
    this.saving = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.persistent.close();
  }

  /** Size of the database in bytes (the bench's size row). */
  byteSize(): number {
    const row = this.db.get<{ n: number }>('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()');
    return row?.n ?? 0;
  }

  private prune(at: number, day: string): void {
    const cutoff = ledgerDay(at - (LEDGER_RETENTION_DAYS - 1) * DAY_MS);
    for (const table of ['tool_days', 'skill_days', 'turn_days', 'door_days']) this.db.run(`DELETE FROM ${table} WHERE day < ?`, [cutoff]);
    this.prunedFor = day;
  }

  /** Redacted once per name (a turn sends the same names again and again). */
  private safe(name: string): string {
    let safe = this.names.get(name);
    if (safe === undefined) {
      if (this.names.size > 10_000) this.names.clear();
      safe = redact(name).slice(0, 200);
      this.names.set(name, safe);
    }
    return safe;
  }
}
