import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { doorJournalLine, type DoorName } from '../../ledger/doorJournal';
import type { SkillsExplanation, TurnExplanation } from '../../planner/turn/turnExplanation';
import { redact } from '../../privacy/redaction';
import { doorFolderFor, toolshedHome } from './doorFolder';
import { appendToJournal, type JournalLimits } from './doorJournalSegments';

/**
 * One decision of a door (the prompt-submit hook, the MCP server, an `@toolshed` turn): what was
 * asked, each candidate with the gate's verdict (the same `SkillsExplanation` pre-flight's
 * `--explain` and `/why` render), and what the model was handed. `recordDoorDecision` appends it
 * to the workspace's door journal (the ledger imports it) and keeps it as the door's last
 * decision for `toolshed why`.
 */
export interface DoorDecision {
  door: DoorName;
  /** `copilot`, `claude`, `codex`, `vscode`, or the name an MCP client gave. */
  runtime: string;
  /** ms since the epoch; now when absent. */
  at?: number;
  /** What the door did: `inject` for a hook, the MCP tool called (`skill_search`, `skill_get`, …). */
  action: string;
  /** The prompt, query or skill name the door was given (redacted and cut to 300 characters here). */
  request: string;
  /** Skills put in front of the model, in order. */
  injected: readonly string[];
  /** Skills named with their description for the model to load if one fits (a hook's offers; not counted as injected). */
  offered?: readonly string[];
  /** Tools it used that the model had not been offered up front (the gateway's learned core set counts them). */
  missed?: readonly string[];
  /** Searches the door ran (a hook: 1; an MCP search call: 1). */
  searches?: number;
  /** Tokens of what the door handed the model. */
  tokens?: number;
  /** Each skill candidate and the gate's verdict (`explainSkills`), when the door ran pre-flight. */
  skills?: SkillsExplanation;
  /** An `@toolshed` turn's whole explanation. */
  turn?: TurnExplanation;
  /** One line for a person: why nothing was injected (an untrusted workspace, a timeout, …). */
  note?: string;
}

/** A door decision as kept on disk: redacted, with its time. */
export interface StoredDoorDecision extends Omit<DoorDecision, 'at' | 'injected' | 'offered' | 'missed'> {
  version: 1;
  at: number;
  injected: string[];
  offered?: string[];
  missed?: string[];
  /** The workspace folder the decision was made for. */
  workspace: string;
}

const lastDecisionFile = (door: DoorName) => `last-decision.${door}.json`;

/** Every string in `value`, redacted (names, reasons and notes can carry what a user typed). */
function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map(redactDeep) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)])) as T;
  return value;
}

function stored(workspace: string, decision: DoorDecision, now: number): StoredDoorDecision {
  const { at, missed, offered, ...rest } = decision;
  return redactDeep({
    ...rest,
    ...(missed ? { missed: [...missed] } : {}),
    ...(offered?.length ? { offered: [...offered] } : {}),
    version: 1 as const,
    at: at ?? now,
    workspace: path.resolve(workspace),
    request: decision.request.replace(/\s+/g, ' ').slice(0, 300),
    injected: [...decision.injected],
  });
}

/** Writes the door's `last-decision.<door>.json` by temp file + rename: a reader sees the old or the new one, whole. */
function writeLastDecision(folder: string, decision: StoredDoorDecision): void {
  mkdirSync(folder, { recursive: true });
  const target = path.join(folder, lastDecisionFile(decision.door));
  const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(decision, null, 1)}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
}

export interface RecordOptions {
  /** Toolshed's home (`toolshedHome()` when absent; tests pass a temp folder). */
  home?: string;
  now?: number;
  /** False: only the door's last decision is replaced (a notice for `toolshed why`, not a decision the ledger counts). */
  journal?: boolean;
  /** The journal's segment size and the size kept (`JOURNAL_LIMITS` when absent; tests pass small ones). */
  journalLimits?: Readonly<JournalLimits>;
}

/**
 * Records a hook's or the MCP server's decision for `workspace`: one line in the door journal
 * (what the ledger counts) and the door's last decision (what `toolshed why` explains). Never
 * throws: a door must not fail the user's prompt because its record could not be written; the
 * error comes back as one line for stderr. `@toolshed` turns are already in the extension's
 * ledger, so a `chat` decision only replaces the last decision.
 */
export function recordDoorDecision(workspace: string, decision: DoorDecision, options: RecordOptions = {}): string | undefined {
  try {
    const folder = doorFolderFor(workspace, options.home ?? toolshedHome());
    const entry = stored(workspace, decision, options.now ?? Date.now());
    if (decision.door !== 'chat' && options.journal !== false)
      appendToJournal(
        folder,
        doorJournalLine({
          at: entry.at,
          door: entry.door,
          runtime: entry.runtime,
          action: entry.action,
          skills: entry.injected,
          ...(entry.offered?.length ? { offered: entry.offered } : {}),
          searches: decision.searches ?? 0,
          tokens: decision.tokens ?? 0,
          ...(entry.missed ? { missed: entry.missed } : {}),
        }),
        options.journalLimits,
      );
    writeLastDecision(folder, entry);
    return undefined;
  } catch (error) {
    return `Toolshed could not record the ${decision.door} decision: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Each door's last decision kept in `folder`, newest first; a file that cannot be read is named in `problems`. */
export function readLastDecisions(folder: string): { decisions: StoredDoorDecision[]; problems: string[] } {
  const decisions: StoredDoorDecision[] = [];
  const problems: string[] = [];
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return { decisions, problems };
  }
  for (const name of names.filter((n) => /^last-decision\.(hook|mcp|chat)\.json$/.test(n)).sort()) {
    try {
      const value = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as StoredDoorDecision;
      if (value?.version !== 1 || typeof value.at !== 'number' || typeof value.door !== 'string' || !Array.isArray(value.injected))
        throw new Error('not a decision this version of Toolshed wrote');
      decisions.push(value);
    } catch (error) {
      problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { decisions: decisions.sort((a, b) => b.at - a.at), problems };
}
