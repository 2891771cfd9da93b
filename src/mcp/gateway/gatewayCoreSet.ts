import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseDoorJournal, RESET_CORE_SET_ACTION, UNDO_PROMOTION_ACTION } from '../../core/ledger/doorJournal';
import type { DoorLedgerEntry } from '../../core/ledger/doorJournal';
import { CORE_SET_RULES, coreSetFromCounts } from '../../core/ledger/learnedCoreSet';
import type { CoreSetRules } from '../../core/ledger/learnedCoreSet';
import type { CoreSetEntry, RecentTurnCalls } from '../../core/ledger/ledgerStore';
import { GATEWAY_CALL_TOOL_NAME, GATEWAY_FIND_TOOL_NAME } from '../../core/platform/toolNames';
import { journalSegments } from '../../core/runtimes/doors/doorJournalSegments';
import { ToolStates } from '../../core/tools/modes/toolStates';
import type { ToolRecord } from '../../core/tools/toolRecord';

/**
 * The gateway's learned core set: upstream tools the model keeps having to search for (or name)
 * are listed directly, by the same rule as `@toolshed`'s (`nextCoreSet`, `CORE_SET_RULES`).
 *
 * A turn of the rule's window is one forwarded call (`call_tool`, or a call of a listed tool);
 * it counts as "round 1 did not offer it" when the tool was not listed directly and no earlier
 * call in this session was already counted for the search that found it. The gateway sees no
 * prompts, so a call is the unit it can count; counting each search only once keeps a tool called
 * ten times after one search from counting as ten searches saved.
 *
 * There is no second store: the set is folded from the workspace's door journal, where every
 * gateway call is already one line (appended with one `O_APPEND` write, so any number of gateway
 * processes can write at once). Each process folds the same lines with the same rule, so they
 * agree, and nothing can be lost or half-written by a parallel writer. The fold runs over the
 * whole journal at start (and again when the catalog changes: a tool's eligibility and tokens are
 * judged as they are now), then over the lines appended since, after each call.
 */

/** What the fold needs to know about a tool now (the gateway answers from its catalog, policy and settings). */
export interface CoreSetJudge {
  /** Whether the tool may be promoted: listed by an upstream, permitted, and not given a state by the user. */
  eligible(tool: string): boolean;
  /** Tokens of its definition as served; undefined when no upstream lists it now. */
  tokensOf(tool: string): number | undefined;
  contextTokens: number;
}

/**
 * The gateway does not know its client's model; the budget (`maxContextShare`) is taken of a
 * 128,000-token context, the common size of the models the runtimes send by default.
 */
const GATEWAY_CONTEXT_TOKENS = 128_000;

/** At most this much of the journal is read at once (a longer line is stepped over). */
const READ_CHUNK_BYTES = 8 * 1024 * 1024;

/** One gateway call as the rule's turn, or undefined for any other door decision. */
function coreSetTurnOf(entry: DoorLedgerEntry): (RecentTurnCalls & { at: number }) | undefined {
  if (entry.door !== 'mcp' || entry.action !== GATEWAY_CALL_TOOL_NAME || entry.skills.length === 0) return undefined;
  return { at: entry.at, called: entry.skills, missed: entry.missed ?? [] };
}

/**
 * The rule applied turn by turn: the window of recent turns and the set after the latest. A turn
 * after which the rule cannot change who is in the set (no member called in fewer than `keepAt`
 * turns, no outsider missed in `promoteAt`) only changes the members' counts, which the next turn
 * that runs the rule, or `settle`, computes anyway: such turns are only counted, so folding a
 * long journal costs a count per call, not a run of the rule over the whole window per call.
 */
export class CoreSetFold {
  private recent: RecentTurnCalls[] = [];
  private current: CoreSetEntry[] = [];
  private readonly usedIn = new Map<string, number>();
  private readonly missedIn = new Map<string, number>();
  /** Tools missed in at least `promoteAt` of the window's turns (few: what `mayChange` looks through). */
  private readonly promotable = new Set<string>();
  /** Promotions the user undid (`toolshed gateway undo-promotion`): never listed again until a reset line. */
  private readonly undone = new Set<string>();
  private stale = false;
  private lastAt = 0;

  constructor(private readonly rules: Readonly<CoreSetRules> = CORE_SET_RULES) {}

  /** The set after the latest turn (call `settle` first for up-to-date counts). */
  get entries(): readonly CoreSetEntry[] {
    return this.current;
  }

  step(turn: RecentTurnCalls & { at: number }, judge: CoreSetJudge): void {
    const calls = { called: turn.called, missed: turn.missed };
    // Oldest first here (a queue); the counts, not the order, are what the rule reads.
    this.recent.push(calls);
    this.count(calls, 1);
    if (this.recent.length > this.rules.window) this.count(this.recent.shift()!, -1);
    this.lastAt = turn.at;
    if (this.mayChange()) this.apply(judge);
    else this.stale = true;
  }

  /** The user undid `tool`'s promotion: it leaves the set now and is not promoted again. */
  undo(tool: string, judge: CoreSetJudge): void {
    this.undone.add(tool);
    this.apply(judge);
  }

  /** Runs the rule if turns were only counted since it last ran (the members' counts; nobody enters or leaves). */
  settle(judge: CoreSetJudge): void {
    if (this.stale) this.apply(judge);
  }

  private apply(judge: CoreSetJudge): void {
    this.stale = false;
    this.current = coreSetFromCounts(
      { usedIn: this.usedIn, missedIn: this.missedIn, windowTurns: this.recent.length },
      {
        current: this.current,
        undone: this.undone,
        eligible: (tool) => judge.eligible(tool),
        tokensOf: (tool) => judge.tokensOf(tool),
        contextTokens: judge.contextTokens,
        now: this.lastAt,
      },
      this.rules,
    );
  }

  /** Whether the rule could promote or demote now (a cheap over-estimate: the rule itself decides). */
  private mayChange(): boolean {
    for (const entry of this.current) if ((this.usedIn.get(entry.tool) ?? 0) < this.rules.keepAt) return true;
    for (const tool of this.promotable) if (!this.undone.has(tool) && !this.current.some((entry) => entry.tool === tool)) return true;
    return false;
  }

  private count(turn: RecentTurnCalls, by: 1 | -1): void {
    // A call names one tool almost always: no set to build for it.
    for (const tool of turn.called.length === 1 ? turn.called : new Set(turn.called)) bump(this.usedIn, tool, by);
    for (const tool of turn.missed.length === 1 ? turn.missed : new Set(turn.missed)) {
      const missed = bump(this.missedIn, tool, by);
      if (missed >= this.rules.promoteAt) this.promotable.add(tool);
      else this.promotable.delete(tool);
    }
  }
}

/** Adds `by` to `tool`'s count (absent at zero); the new count. */
function bump(counts: Map<string, number>, tool: string, by: 1 | -1): number {
  const n = (counts.get(tool) ?? 0) + by;
  if (n > 0) counts.set(tool, n);
  else counts.delete(tool);
  return n;
}

/** The fold over one workspace's door journal, read incrementally, segment by segment. */
export class JournalCoreSet {
  private fold: CoreSetFold;
  /** Bytes folded of each segment (by path: a segment is never renamed). */
  private offsets = new Map<string, number>();

  constructor(
    private readonly folder: string,
    private readonly rules: Readonly<CoreSetRules> = CORE_SET_RULES,
  ) {
    this.fold = new CoreSetFold(rules);
  }

  get entries(): readonly CoreSetEntry[] {
    return this.fold.entries;
  }

  /** Folds the whole journal again (the catalog or the policy changed what is eligible). */
  reset(): void {
    this.fold = new CoreSetFold(this.rules);
    this.offsets = new Map();
  }

  /**
   * Folds the lines appended since the last read, by any gateway process, segment by segment,
   * oldest first. A segment shorter than what was read of it was replaced: the whole journal is
   * folded again. A missing journal is an empty one; a damaged line is skipped. Segments the
   * journal deleted (it keeps its newest) leave what they taught in the fold until it is reset.
   */
  refresh(judge: CoreSetJudge): void {
    // A second pass only when a segment was replaced while it was read.
    for (let pass = 0; pass < 2 && !this.foldSegments(judge); pass++) this.reset();
    this.fold.settle(judge);
  }

  /** Folds every segment from its offset; false when one was replaced (shorter than what was read of it). */
  private foldSegments(judge: CoreSetJudge): boolean {
    const segments = journalSegments(this.folder);
    for (const file of this.offsets.keys()) if (!segments.includes(file)) this.offsets.delete(file);
    for (const file of segments) {
      let fd: number;
      try {
        fd = openSync(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        continue;
      }
      try {
        if (!this.readFrom(file, fd, judge)) return false;
      } finally {
        closeSync(fd);
      }
    }
    return true;
  }

  /** One journal line: a gateway call is a turn of the rule; the user's undo or reset of the set applies in its place in the journal. */
  private foldEntry(entry: DoorLedgerEntry, judge: CoreSetJudge): void {
    if (entry.door === 'mcp' && entry.action === RESET_CORE_SET_ACTION) this.fold = new CoreSetFold(this.rules);
    else if (entry.door === 'mcp' && entry.action === UNDO_PROMOTION_ACTION) for (const tool of entry.skills) this.fold.undo(tool, judge);
    else {
      const turn = coreSetTurnOf(entry);
      if (turn) this.fold.step(turn, judge);
    }
  }

  /** Folds `file` from its offset; false when it is shorter than what was read of it. */
  private readFrom(file: string, fd: number, judge: CoreSetJudge): boolean {
    const size = fstatSync(fd).size;
    let offset = this.offsets.get(file) ?? 0;
    if (size < offset) return false;
    while (offset < size) {
      const bytes = Buffer.alloc(Math.min(size - offset, READ_CHUNK_BYTES));
      const read = readSync(fd, bytes, 0, bytes.length, offset);
      const parsed = parseDoorJournal(bytes.subarray(0, read), 0);
      if (parsed.next === 0) {
        // Nothing complete: a write still under way (wait for it), or one line longer than a read (step over it).
        if (read < READ_CHUNK_BYTES) break;
        offset += read;
        continue;
      }
      for (const entry of parsed.entries) this.foldEntry(entry, judge);
      offset += parsed.next;
    }
    this.offsets.set(file, offset);
    return true;
  }
}

/**
 * The entries listed now: still eligible, within `maxTools` and the budget at today's tokens (a
 * definition that has grown since its promotion is not listed beyond the budget; it stays findable).
 */
function listedCoreSet(entries: readonly CoreSetEntry[], judge: CoreSetJudge, rules: Readonly<CoreSetRules> = CORE_SET_RULES): CoreSetEntry[] {
  const budget = Math.floor(judge.contextTokens * rules.maxContextShare);
  const listed: CoreSetEntry[] = [];
  let spent = 0;
  for (const entry of entries) {
    const tokens = judge.eligible(entry.tool) ? judge.tokensOf(entry.tool) : undefined;
    if (tokens === undefined || listed.length >= rules.maxTools || spent + tokens > budget) continue;
    listed.push({ ...entry, tokens });
    spent += tokens;
  }
  return listed;
}

/** Why a tool is listed without a search, for the log and `toolshed why`. */
function coreSetReason(entry: Pick<CoreSetEntry, 'tool' | 'usedIn' | 'windowTurns' | 'promotedAt'>, rules: Readonly<CoreSetRules> = CORE_SET_RULES): string {
  return (
    `${entry.tool} is listed directly since ${new Date(entry.promotedAt).toISOString()} (learned core set): it was called without being listed ` +
    `(found by ${GATEWAY_FIND_TOOL_NAME}, or called by name) in ${rules.promoteAt} of the last ${rules.window} gateway calls in this workspace, ` +
    `and is called in ${entry.usedIn} of the last ${entry.windowTurns} now.`
  );
}

/** What the learned core set asks of the gateway's catalog. */
interface CoreSetCatalog {
  registry(): ReadonlyMap<string, ToolRecord>;
  catalogVersion(): number;
  /** Permitted by the policy and served by a running upstream. */
  isUsable(tool: string): boolean;
  /** Tokens of the definition as the gateway serves it (examples rendered, third-party text scrubbed). */
  definitionTokens(record: ToolRecord): number;
  /** `toolshed.tools.state`: a tool the user gave a state is never promoted (their state wins). */
  userStates: Readonly<Record<string, unknown>>;
  log(line: string): void;
}

/** One gateway session's view of the workspace's learned core set. */
export class GatewayCoreSet {
  private readonly journal: JournalCoreSet;
  private listed: CoreSetEntry[] = [];
  private live = false;
  /** Unlisted tools whose use this session already counted for the search that found them (or for being named). */
  private readonly counted = new Set<string>();
  private tokens: { version: number; byTool: Map<string, number | undefined> } | undefined;
  /** The user's states (fixed for the gateway's life), compiled once: the fold asks about a tool at every call. */
  private readonly states: ToolStates;

  constructor(
    folder: string,
    private readonly catalog: CoreSetCatalog,
  ) {
    this.journal = new JournalCoreSet(folder);
    this.states = new ToolStates(catalog.userStates);
  }

  /** The tools listed directly now, most used first. */
  get tools(): string[] {
    return this.listed.map((entry) => entry.tool);
  }

  /** A search answered with these tools: the next use of each is one the model had to search for again. */
  searched(found: readonly string[]): void {
    for (const tool of found) this.counted.delete(tool);
  }

  /**
   * A call of `tool`: whether it counts as a use round 1 did not offer (not pinned, not listed by
   * the core set, and the first use since a search found it), and why it was listed if it was.
   */
  called(tool: string, pinned: boolean): { missed: boolean; reason?: string } {
    const entry = this.listed.find((e) => e.tool === tool);
    if (entry) return { missed: false, reason: coreSetReason(entry) };
    if (pinned || this.counted.has(tool)) return { missed: false };
    this.counted.add(tool);
    return { missed: true };
  }

  /** Once the upstreams' first listing is in: folds the whole journal. Returns the lines saying what is listed. */
  start(): string[] {
    this.live = true;
    return this.refresh();
  }

  /** The catalog changed (what may be promoted, what a definition costs): the journal is folded again. */
  catalogChanged(): string[] {
    if (!this.live) return [];
    this.journal.reset();
    return this.refresh();
  }

  /** Folds what was appended to the journal since; returns one line per tool that entered or left the listed set. */
  refresh(): string[] {
    if (!this.live) return [];
    const judge = this.judge();
    try {
      this.journal.refresh(judge);
    } catch (error) {
      this.catalog.log(`toolshed gateway: the learned core set was not read: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
    const before = new Set(this.listed.map((entry) => entry.tool));
    this.listed = listedCoreSet(this.journal.entries, judge);
    const after = new Set(this.listed.map((entry) => entry.tool));
    return [
      ...this.listed.filter((entry) => !before.has(entry.tool)).map((entry) => coreSetReason(entry)),
      ...[...before]
        .filter((tool) => !after.has(tool))
        .map((tool) => `${tool} is no longer listed directly (learned core set): called in too few recent gateway calls, or no longer eligible.`),
    ];
  }

  private judge(): CoreSetJudge {
    const registry = this.catalog.registry();
    const states = this.states;
    const version = this.catalog.catalogVersion();
    if (this.tokens?.version !== version) this.tokens = { version, byTool: new Map() };
    const byTool = this.tokens.byTool;
    return {
      eligible: (tool) => {
        const record = registry.get(tool);
        // Pinned (by the user or a pattern) is already listed; a user's Deferred or Off is theirs to keep.
        return record !== undefined && record.loadingMode !== 'always' && states.stateOf(tool) === undefined && this.catalog.isUsable(tool);
      },
      tokensOf: (tool) => {
        if (!byTool.has(tool)) {
          const record = registry.get(tool);
          byTool.set(tool, record ? this.catalog.definitionTokens(record) : undefined);
        }
        return byTool.get(tool);
      },
      contextTokens: GATEWAY_CONTEXT_TOKENS,
    };
  }
}
