import type { SqlDatabase } from '../sql/sqlDatabase';
import { redact } from '../privacy/redaction';
import { GATEWAY_TOOL_NAMES } from '../platform/toolNames';

/**
 * The journal of door decisions (`doors.jsonl` in a workspace's door folder): one JSON line per
 * decision a door outside the extension made — the prompt-submit hook, the MCP server. Each line
 * is appended with one `O_APPEND` write by the process that decided, so any number of hook
 * processes and MCP servers can write at once without a lock; the ledger imports the lines it
 * has not seen (it keeps the byte offset it read up to) when it is opened or reported. Only
 * counts and names are kept, redacted, never the request.
 */

/** Which door decided: the prompt-submit hook, the MCP server, or an `@toolshed` turn. */
export type DoorName = 'hook' | 'mcp' | 'chat';

export interface DoorLedgerEntry {
  at: number;
  door: DoorName;
  /** The agent runtime that asked (`copilot`, `claude`, `codex`, `vscode`, or what an MCP client called itself). */
  runtime: string;
  /** What the door did: `inject` (a hook's context), or the MCP tool that was called (`skill_search`, …). */
  action: string;
  /**
   * Skills put in front of the model (injected by a hook, or fetched through the MCP server) — or,
   * on the MCP gateway's lines (`action` = one of its tools), the upstream tools a search found or a
   * call ran, which the ledger does not count as skills.
   */
  skills: string[];
  /**
   * Skills a hook named with their descriptions for the model to load if one fits (offered, not
   * injected): counted apart from `skills`, as the door's offers.
   */
  offered?: string[];
  /** Searches the door ran. */
  searches: number;
  /** Tokens of what the door handed the model. */
  tokens: number;
  /**
   * Tools the decision used that the model had not been offered up front (the MCP gateway: a tool
   * called after a search found it, or by name): what the gateway's learned core set counts.
   */
  missed?: string[];
}

/**
 * Journal lines that are not decisions but the user's word on the MCP gateway's learned core set
 * (`toolshed gateway undo-promotion`, `reset-core-set`): the gateway's fold reads them in order
 * with the calls; the ledger counts nothing for them.
 */
export const UNDO_PROMOTION_ACTION = 'undo_promotion';
export const RESET_CORE_SET_ACTION = 'reset_core_set';
const CORE_SET_ACTIONS: ReadonlySet<string> = new Set([UNDO_PROMOTION_ACTION, RESET_CORE_SET_ACTION]);

const DOORS: readonly DoorName[] = ['hook', 'mcp', 'chat'];
/** A line longer than this is not one of ours (a decision line is a few hundred bytes). */
const MAX_LINE_BYTES = 64 * 1024;
const MAX_SKILLS = 50;

/** Names repeat on almost every line (runtimes, actions, the same tools): each distinct one is redacted once per process. */
const safeNames = new Map<string, string>();
const SAFE_NAMES_KEPT = 10_000;

function safeName(name: string): string {
  let safe = safeNames.get(name);
  if (safe === undefined) {
    safe = redact(name)
      .replace(/[\r\n]/g, ' ')
      .slice(0, 200);
    if (safeNames.size >= SAFE_NAMES_KEPT) safeNames.clear();
    if (name.length <= 200) safeNames.set(name, safe);
  }
  return safe;
}

/** The entry as one journal line (redacted, ending in a newline), ready for one append. */
export function doorJournalLine(entry: DoorLedgerEntry): string {
  const line: DoorLedgerEntry = {
    at: Math.floor(entry.at),
    door: entry.door,
    runtime: safeName(entry.runtime).slice(0, 40),
    action: safeName(entry.action).slice(0, 60),
    skills: entry.skills.slice(0, MAX_SKILLS).map(safeName),
    searches: Math.max(0, Math.floor(entry.searches)),
    tokens: Math.max(0, Math.floor(entry.tokens)),
    ...(entry.offered?.length ? { offered: entry.offered.slice(0, MAX_SKILLS).map(safeName) } : {}),
    ...(entry.missed?.length ? { missed: entry.missed.slice(0, MAX_SKILLS).map(safeName) } : {}),
  };
  return `${JSON.stringify(line)}\n`;
}

function asEntry(value: unknown): DoorLedgerEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const count = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  if (!count(v.at) || !DOORS.includes(v.door as DoorName) || typeof v.runtime !== 'string' || typeof v.action !== 'string') return undefined;
  if (!Array.isArray(v.skills) || !v.skills.every((s) => typeof s === 'string') || !count(v.searches) || !count(v.tokens)) return undefined;
  return {
    at: v.at as number,
    door: v.door as DoorName,
    runtime: safeName(v.runtime),
    action: safeName(v.action),
    skills: (v.skills as string[]).slice(0, MAX_SKILLS).map(safeName),
    searches: Math.floor(v.searches as number),
    tokens: Math.floor(v.tokens as number),
    // Optional and newer than the other fields: a bad value drops the field, not the decision.
    ...(Array.isArray(v.offered) && v.offered.length > 0 && v.offered.every((s) => typeof s === 'string')
      ? { offered: (v.offered as string[]).slice(0, MAX_SKILLS).map(safeName) }
      : {}),
    ...(Array.isArray(v.missed) && v.missed.length > 0 && v.missed.every((s) => typeof s === 'string')
      ? { missed: (v.missed as string[]).slice(0, MAX_SKILLS).map(safeName) }
      : {}),
  };
}

export interface ParsedDoorJournal {
  entries: DoorLedgerEntry[];
  /** Byte offset after the last complete line read: where the next import starts. */
  next: number;
  /** One line per line skipped (not JSON, not a decision), for the log. */
  skipped: string[];
}

/**
 * The complete lines of `bytes` from byte `from` on. A last line without its newline is a write
 * still under way (or cut short by a crash): it is left for the next import, unless a later
 * append proves it was cut (then it is skipped like any damaged line). Never throws.
 */
export function parseDoorJournal(bytes: Uint8Array, from: number): ParsedDoorJournal {
  const entries: DoorLedgerEntry[] = [];
  const skipped: string[] = [];
  const begin = from > bytes.length || from < 0 ? 0 : from;
  const last = bytes.lastIndexOf(0x0a);
  if (last < begin) return { entries, next: begin, skipped };
  // One decode for all the complete lines: a newline byte is never part of a multi-byte character,
  // so the decoded text has one "\n" per newline byte and the two walks stay in step.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(begin, last + 1));
  let start = begin;
  let at = 0;
  while (start <= last) {
    const end = bytes.indexOf(0x0a, start);
    const stop = text.indexOf('\n', at);
    const length = end - start;
    if (length > 0) {
      if (length > MAX_LINE_BYTES) skipped.push(`byte ${start}: a line of ${length} bytes is not a door decision`);
      else {
        const line = text.slice(at, stop);
        let entry: DoorLedgerEntry | undefined;
        try {
          entry = asEntry(JSON.parse(line));
        } catch {
          entry = undefined;
        }
        if (entry) entries.push(entry);
        else skipped.push(`byte ${start}: not a door decision (${JSON.stringify(line.slice(0, 40))})`);
      }
    }
    start = end + 1;
    at = stop + 1;
  }
  return { entries, next: start, skipped };
}

export const DOORS_SQL = `CREATE TABLE door_days (day TEXT NOT NULL, door TEXT NOT NULL, runtime TEXT NOT NULL,
    decisions INTEGER NOT NULL DEFAULT 0, with_skills INTEGER NOT NULL DEFAULT 0, injections INTEGER NOT NULL DEFAULT 0,
    searches INTEGER NOT NULL DEFAULT 0, tokens INTEGER NOT NULL DEFAULT 0,
    with_offers INTEGER NOT NULL DEFAULT 0, offers INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (day, door, runtime));
  CREATE TABLE door_journals (journal TEXT PRIMARY KEY, byte_offset INTEGER NOT NULL);`;
/** The door rows of a ledger from before offers were counted apart (version 4) get their columns. */
export const DOOR_OFFERS_SQL = `ALTER TABLE door_days ADD COLUMN with_offers INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE door_days ADD COLUMN offers INTEGER NOT NULL DEFAULT 0;`;

const GATEWAY_ACTIONS: ReadonlySet<string> = new Set(GATEWAY_TOOL_NAMES);

/** The skills a decision put in front of the model (none for a gateway line: its names are tools). */
function skillsOf(entry: DoorLedgerEntry): readonly string[] {
  return GATEWAY_ACTIONS.has(entry.action) ? [] : entry.skills;
}

/**
 * Adds door decisions to the per-day rows (a skill a door injected counts as an injection of that
 * skill; one it only offered counts as the door's offer, not as an injection) and stores the offset.
 */
export function importDoorEntries(db: SqlDatabase, journal: string, entries: readonly DoorLedgerEntry[], next: number, safe: (name: string) => string): void {
  for (const entry of entries) {
    if (entry.door === 'mcp' && CORE_SET_ACTIONS.has(entry.action)) continue;
    const day = new Date(entry.at).toISOString().slice(0, 10);
    const skills = skillsOf(entry);
    const offers = GATEWAY_ACTIONS.has(entry.action) ? 0 : new Set(entry.offered ?? []).size;
    db.run(
      `INSERT INTO door_days (day, door, runtime, decisions, with_skills, injections, searches, tokens, with_offers, offers) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(day, door, runtime) DO UPDATE SET decisions = decisions + 1, with_skills = with_skills + excluded.with_skills,
         injections = injections + excluded.injections, searches = searches + excluded.searches, tokens = tokens + excluded.tokens,
         with_offers = with_offers + excluded.with_offers, offers = offers + excluded.offers`,
      [day, entry.door, safe(entry.runtime), skills.length > 0 ? 1 : 0, skills.length, entry.searches, entry.tokens, offers > 0 ? 1 : 0, offers],
    );
    for (const skill of new Set(skills))
      db.run(`INSERT INTO skill_days (day, skill, injections) VALUES (?, ?, 1) ON CONFLICT(day, skill) DO UPDATE SET injections = injections + 1`, [
        day,
        safe(skill),
      ]);
  }
  db.run('INSERT INTO door_journals (journal, byte_offset) VALUES (?, ?) ON CONFLICT(journal) DO UPDATE SET byte_offset = excluded.byte_offset', [
    journal,
    next,
  ]);
}
