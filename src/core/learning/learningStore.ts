import type { Clock } from '../platform/ports';
import { openStoreDatabase } from '../sql/persistentDatabase';
import type { PersistentDatabase, StoreDatabaseOptions } from '../sql/persistentDatabase';
import type { LearnedCandidate } from './extraction/learnedCandidate';
import type { SkillCounters } from './feedback/effectiveness';

/**
 * Learning's own small sql.js database (`learning.db` in workspace storage), separate from the
 * skill store: proposals never enter the skills search index. It holds proposals (with their
 * status), per-skill feedback counters, failure signatures and, in persisted ingest mode, the
 * queued extraction jobs. Every write is a small delta (insert a row, bump a counter).
 */

export const LEARNING_DB_KEY = 'learning.db';
const SCHEMA = 'learning/1';
/** Pending proposals kept at most; the oldest are dropped first. */
export const MAX_PENDING_PROPOSALS = 500;

export type ProposalStatus = 'proposed' | 'approved' | 'discarded';

export interface Proposal {
  id: string;
  status: ProposalStatus;
  candidate: LearnedCandidate;
  /** How many times the same lesson was proposed (dedup increments, never copies). */
  count: number;
  /** Where it came from: `trace`, `model`, `failure`, `report`, `learn`. */
  origin: string;
  created_at: number;
  updated_at: number;
  /** The stored skill's name once approved. */
  approved_name: string;
  /** Why it is stale (citations), '' when fine. */
  stale_reason: string;
}

export interface FeedbackCounters extends SkillCounters {
  name: string;
  use_count: number;
  last_used: number;
  /** Last validated use (a helpful outcome or approval): renews typed decay. */
  last_validated: number;
}

export interface FailureRecord {
  key: string;
  tool: string;
  error_class: string;
  message: string;
  turns: number;
  last_turn: string;
  keywords: string[];
  recovery: string;
  last_seen: number;
}

export class LearningStore {
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly persistent: PersistentDatabase,
    private readonly clock: Clock,
  ) {}

  static async open(options: StoreDatabaseOptions & { clock: Clock }): Promise<LearningStore> {
    const persistent = await openStoreDatabase(options, LEARNING_DB_KEY, {
      schemaVersion: SCHEMA,
      createSchema: (db) =>
        db.exec(`
        CREATE TABLE proposals (id TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL, name TEXT NOT NULL,
          candidate TEXT NOT NULL, source_hash TEXT NOT NULL, count INTEGER NOT NULL DEFAULT 1, origin TEXT NOT NULL,
          created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, approved_name TEXT NOT NULL DEFAULT '', stale_reason TEXT NOT NULL DEFAULT '');
        CREATE INDEX idx_proposals_hash ON proposals(source_hash);
        CREATE INDEX idx_proposals_status ON proposals(status, kind);
        CREATE INDEX idx_proposals_approved ON proposals(approved_name);
        CREATE TABLE counters (name TEXT PRIMARY KEY, helpful INTEGER NOT NULL DEFAULT 0, harmful INTEGER NOT NULL DEFAULT 0,
          use_count INTEGER NOT NULL DEFAULT 0, last_used INTEGER NOT NULL DEFAULT 0, last_validated INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE failures (key TEXT PRIMARY KEY, tool TEXT NOT NULL, error_class TEXT NOT NULL, message TEXT NOT NULL,
          turns INTEGER NOT NULL DEFAULT 0, last_turn TEXT NOT NULL DEFAULT '', keywords TEXT NOT NULL DEFAULT '[]',
          recovery TEXT NOT NULL DEFAULT '', last_seen INTEGER NOT NULL);
        CREATE TABLE jobs (id TEXT PRIMARY KEY, payload TEXT NOT NULL, created_at INTEGER NOT NULL);
      `),
    });
    return new LearningStore(persistent, options.clock);
  }

  private get db() {
    return this.persistent.db;
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

  // ── proposals ─────────────────────────────────────────────────────────

  /** Inserts a proposal, or increments the one with the same source hash (any status). */
  propose(id: string, candidate: LearnedCandidate, origin: string): { proposal: Proposal; action: 'created' | 'incremented' } {
    const now = this.clock.now();
    const existing = this.db.get<{ id: string }>('SELECT id FROM proposals WHERE source_hash = ? ORDER BY created_at LIMIT 1', [candidate.source_hash]);
    if (existing) {
      this.db.run('UPDATE proposals SET count = count + 1, updated_at = ? WHERE id = ?', [now, existing.id]);
      return { proposal: this.proposal(existing.id)!, action: 'incremented' };
    }
    this.db.run(
      "INSERT INTO proposals (id, kind, status, name, candidate, source_hash, origin, created_at, updated_at) VALUES (?, ?, 'proposed', ?, ?, ?, ?, ?, ?)",
      [id, candidate.kind, candidate.name, JSON.stringify(candidate), candidate.source_hash, origin, now, now],
    );
    const pending = this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM proposals WHERE status = 'proposed'")?.n ?? 0;
    if (pending > MAX_PENDING_PROPOSALS) {
      this.db.run("DELETE FROM proposals WHERE id IN (SELECT id FROM proposals WHERE status = 'proposed' ORDER BY updated_at LIMIT ?)", [
        pending - MAX_PENDING_PROPOSALS,
      ]);
    }
    return { proposal: this.proposal(id)!, action: 'created' };
  }

  proposal(id: string): Proposal | undefined {
    const row = this.db.get('SELECT * FROM proposals WHERE id = ?', [id]);
    return row ? toProposal(row) : undefined;
  }

  proposals(status: ProposalStatus, kind?: LearnedCandidate['kind']): Proposal[] {
    const rows = kind
      ? this.db.all('SELECT * FROM proposals WHERE status = ? AND kind = ? ORDER BY updated_at DESC', [status, kind])
      : this.db.all('SELECT * FROM proposals WHERE status = ? ORDER BY updated_at DESC', [status]);
    return rows.map(toProposal);
  }

  /** Whether any proposal (any status) has this source hash. */
  hasSourceHash(sourceHash: string): boolean {
    return Boolean(this.db.get('SELECT 1 AS x FROM proposals WHERE source_hash = ? LIMIT 1', [sourceHash]));
  }

  /** Stores a proposal exactly as given (an imported snapshot line); an existing id is kept. */
  insertProposal(proposal: Proposal): boolean {
    if (this.proposal(proposal.id)) return false;
    this.db.run(
      'INSERT INTO proposals (id, kind, status, name, candidate, source_hash, count, origin, created_at, updated_at, approved_name, stale_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        proposal.id,
        proposal.candidate.kind,
        proposal.status,
        proposal.candidate.name,
        JSON.stringify(proposal.candidate),
        proposal.candidate.source_hash,
        proposal.count,
        proposal.origin,
        proposal.created_at,
        proposal.updated_at,
        proposal.approved_name,
        proposal.stale_reason,
      ],
    );
    return true;
  }

  /** The approved proposal behind a stored learned skill. */
  approvedAs(name: string): Proposal | undefined {
    const row = this.db.get("SELECT * FROM proposals WHERE approved_name = ? AND status = 'approved'", [name]);
    return row ? toProposal(row) : undefined;
  }

  setCandidate(id: string, candidate: LearnedCandidate): void {
    this.db.run('UPDATE proposals SET candidate = ?, name = ?, updated_at = ? WHERE id = ?', [JSON.stringify(candidate), candidate.name, this.clock.now(), id]);
  }

  setStatus(id: string, status: ProposalStatus, approvedName = ''): void {
    this.db.run('UPDATE proposals SET status = ?, approved_name = ?, updated_at = ? WHERE id = ?', [status, approvedName, this.clock.now(), id]);
  }

  setStale(id: string, reason: string): void {
    this.db.run('UPDATE proposals SET stale_reason = ? WHERE id = ?', [reason, id]);
  }

  // ── feedback counters ─────────────────────────────────────────────────

  counters(name: string): FeedbackCounters | undefined {
    const row = this.db.get('SELECT * FROM counters WHERE name = ?', [name]);
    return row ? toCounters(row) : undefined;
  }

  allCounters(): FeedbackCounters[] {
    return this.db.all('SELECT * FROM counters').map(toCounters);
  }

  /** +1 helpful or harmful (and a use); a helpful outcome is a validated use. */
  recordOutcome(name: string, outcome: 'helpful' | 'harmful'): void {
    const now = this.clock.now();
    this.db.run('INSERT OR IGNORE INTO counters (name) VALUES (?)', [name]);
    this.db.run(
      `UPDATE counters SET ${outcome} = ${outcome} + 1, use_count = use_count + 1, last_used = ?${outcome === 'helpful' ? ', last_validated = ?' : ''} WHERE name = ?`,
      outcome === 'helpful' ? [now, now, name] : [now, name],
    );
  }

  /**
   * Adds (or, negative, takes back) counters merged from another skill; never below zero. The
   * timestamps move forward only.
   */
  addCounters(name: string, delta: { helpful: number; harmful: number; use_count: number; last_used?: number; last_validated?: number }): void {
    this.db.run('INSERT OR IGNORE INTO counters (name) VALUES (?)', [name]);
    this.db.run(
      `UPDATE counters SET helpful = MAX(0, helpful + ?), harmful = MAX(0, harmful + ?), use_count = MAX(0, use_count + ?),
      last_used = MAX(last_used, ?), last_validated = MAX(last_validated, ?) WHERE name = ?`,
      [delta.helpful, delta.harmful, delta.use_count, delta.last_used ?? 0, delta.last_validated ?? 0, name],
    );
  }

  /**
   * `addCounters` for many skills (an import), many rows per statement: the same sums as one
   * call per entry in order (a name given twice adds twice). A negative delta (taking a merge
   * back) goes through `addCounters`, which clamps at zero at every step.
   */
  addCountersMany(
    deltas: ReadonlyArray<{ name: string; helpful: number; harmful: number; use_count: number; last_used?: number; last_validated?: number }>,
  ): void {
    if (deltas.some((d) => d.helpful < 0 || d.harmful < 0 || d.use_count < 0)) {
      for (const delta of deltas) this.addCounters(delta.name, delta);
      return;
    }
    const ROWS = 100;
    for (let i = 0; i < deltas.length; i += ROWS) {
      const chunk = deltas.slice(i, i + ROWS);
      this.db.run(
        `INSERT INTO counters (name, helpful, harmful, use_count, last_used, last_validated) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}
        ON CONFLICT(name) DO UPDATE SET helpful = helpful + excluded.helpful, harmful = harmful + excluded.harmful, use_count = use_count + excluded.use_count,
          last_used = MAX(last_used, excluded.last_used), last_validated = MAX(last_validated, excluded.last_validated)`,
        chunk.flatMap((d) => [d.name, d.helpful, d.harmful, d.use_count, d.last_used ?? 0, d.last_validated ?? 0]),
      );
    }
  }

  /** Marks a validated use without a rating (approval renews decay). */
  validate(name: string): void {
    const now = this.clock.now();
    this.db.run('INSERT OR IGNORE INTO counters (name) VALUES (?)', [name]);
    this.db.run('UPDATE counters SET last_validated = ? WHERE name = ?', [now, name]);
  }

  // ── failure signatures ────────────────────────────────────────────────

  /** Counts one turn's occurrence of a signature (once per turn); returns the record. */
  recordFailure(record: Omit<FailureRecord, 'turns' | 'last_seen'>, turnId: string): FailureRecord {
    const now = this.clock.now();
    const existing = this.failure(record.key);
    if (!existing) {
      this.db.run(
        'INSERT INTO failures (key, tool, error_class, message, turns, last_turn, keywords, recovery, last_seen) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)',
        [record.key, record.tool, record.error_class, record.message, turnId, JSON.stringify(record.keywords), record.recovery, now],
      );
    } else if (existing.last_turn !== turnId) {
      const keywords = [...new Set([...existing.keywords, ...record.keywords])].slice(0, 12);
      this.db.run('UPDATE failures SET turns = turns + 1, last_turn = ?, keywords = ?, recovery = ?, last_seen = ? WHERE key = ?', [
        turnId,
        JSON.stringify(keywords),
        record.recovery || existing.recovery,
        now,
        record.key,
      ]);
    }
    return this.failure(record.key)!;
  }

  failure(key: string): FailureRecord | undefined {
    const row = this.db.get<Record<string, string | number>>('SELECT * FROM failures WHERE key = ?', [key]);
    if (!row) return undefined;
    return {
      key: String(row.key),
      tool: String(row.tool),
      error_class: String(row.error_class),
      message: String(row.message),
      turns: Number(row.turns),
      last_turn: String(row.last_turn),
      keywords: parseList(row.keywords),
      recovery: String(row.recovery),
      last_seen: Number(row.last_seen),
    };
  }

  // ── persisted ingest jobs ─────────────────────────────────────────────

  addJob(id: string, payload: string): void {
    this.db.run('INSERT OR REPLACE INTO jobs (id, payload, created_at) VALUES (?, ?, ?)', [id, payload, this.clock.now()]);
  }

  removeJob(id: string): void {
    this.db.run('DELETE FROM jobs WHERE id = ?', [id]);
  }

  jobs(): Array<{ id: string; payload: string }> {
    return this.db.all<{ id: string; payload: string }>('SELECT id, payload FROM jobs ORDER BY created_at');
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }
}

function parseList(value: unknown): string[] {
  try {
    const parsed = JSON.parse(String(value)) as unknown;
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

function toCounters(row: Record<string, unknown>): FeedbackCounters {
  return {
    name: String(row.name),
    helpful: Number(row.helpful),
    harmful: Number(row.harmful),
    use_count: Number(row.use_count),
    last_used: Number(row.last_used),
    last_validated: Number(row.last_validated),
  };
}

function toProposal(row: Record<string, unknown>): Proposal {
  return {
    id: String(row.id),
    status: String(row.status) as ProposalStatus,
    candidate: JSON.parse(String(row.candidate)) as LearnedCandidate,
    count: Number(row.count),
    origin: String(row.origin),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    approved_name: String(row.approved_name ?? ''),
    stale_reason: String(row.stale_reason ?? ''),
  };
}
