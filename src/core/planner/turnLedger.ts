import { CORE_SET_RULES, type CoreSetRules } from '../ledger/learnedCoreSet';
import type { CoreSetEntry, LedgerStore } from '../ledger/ledgerStore';
import type { LedgerTurn } from '../ledger/ledgerTurn';
import type { Clock, Logger } from '../platform/ports';
import { TOOLSHED_TOOL_NAMES } from '../platform/toolNames';
import { declaredToolNames } from '../skills/render/skillRendering';
import type { SkillRecord } from '../skills/skillSchema';
import { toolSourceFrom } from '../tools/modes/toolSources';
import type { ToolRecord } from '../tools/toolRecord';
import type { ToolRun } from '../tools/toolRun';
import { applyCoreSet, updateCoreSet } from './coreSetTurn';
import { ledgerTurnFrom } from './ledgerTurnFrom';
import type { PlannerOutcome } from './plannerLoop';

/**
 * The ledger around a @toolshed turn (`TurnLedger`): before round 1 the learned core set is
 * applied, after the turn the turn is recorded from the outcome its footer was written from (so
 * the ledger's numbers are the footer's) and the promotion rule runs. `runToolshedTurn` does all
 * three, so the extension and the session bench run the same envelope.
 */

export interface TurnLedgerSources {
  /** The tool catalog (what the turn's tools are, who provides them, how big their definitions are). */
  registry: ReadonlyMap<string, ToolRecord>;
  /** A skill's record, for the tools it names (absent: the skill names none). */
  skill(name: string): SkillRecord | undefined;
}

/** What the ledger reads of the catalog and the settings when it records a turn or learns the core set. */
export interface LedgerSources extends TurnLedgerSources {
  /** `toolshed.tools.state`: the user's own Always / Deferred / Off. */
  userStates: Readonly<Record<string, unknown>>;
  /** Whether the policy lets the tool be used at all. */
  isPolicyAllowed(tool: string): boolean;
}

const OWN_TOOLS = new Set<string>(TOOLSHED_TOOL_NAMES);
const NO_FACTS = { ownTools: OWN_TOOLS, declaredBy: () => undefined, mcpServers: [] };

/** Who provides a tool, as the ledger groups servers: the MCP server's id in tool names, `Toolshed`, `extension` or `built-in`. */
export function ledgerServerOf(name: string, record: Pick<ToolRecord, 'tags' | 'source'> | undefined): string {
  const source = toolSourceFrom({ name, tags: record?.tags ?? [] }, NO_FACTS);
  if (source.kind === 'mcp') return source.server;
  if (source.kind === 'toolshed') return 'Toolshed';
  return record?.source === 'extension' ? 'extension' : 'built-in';
}

/** Relative size of a tool's definition as the model receives it (name, description, input schema). */
function definitionSize(record: ToolRecord | undefined, name: string): number {
  if (!record) return name.length;
  return name.length + record.description.length + JSON.stringify(record.inputSchema ?? {}).length;
}

function turnLedgerEntry(outcome: Pick<PlannerOutcome, 'rounds' | 'tokens' | 'usedSkills'>, sources: TurnLedgerSources, at: number): LedgerTurn {
  return ledgerTurnFrom(outcome, {
    at,
    serverOf: (name) => ledgerServerOf(name, sources.registry.get(name)),
    definitionSize: (name) => definitionSize(sources.registry.get(name), name),
    skillTools: (name) => {
      const record = sources.skill(name);
      return record ? declaredToolNames(record) : [];
    },
  });
}

/** Adds the turn to the ledger; returns what was recorded. */
export function recordTurn(
  ledger: LedgerStore,
  outcome: Pick<PlannerOutcome, 'rounds' | 'tokens' | 'usedSkills'>,
  sources: TurnLedgerSources,
  at: number,
): LedgerTurn {
  const entry = turnLedgerEntry(outcome, sources, at);
  ledger.record(entry);
  return entry;
}

export interface TurnLedgerDeps {
  store: LedgerStore;
  /** The catalog and the settings as they are now (read at each step). */
  sources(): LedgerSources;
  clock: Clock;
  logger: Logger;
  /** The promotion rule's constants (the defaults; the session bench tunes them). */
  rules?: Readonly<CoreSetRules>;
  /** After each write to the store (the extension tells its views and saves a moment later). */
  wrote?(): void;
}

/** What the ledger kept of a finished turn. */
export interface TurnLedgerWrite {
  /** The turn as recorded (absent: the ledger could not count it, which the log says). */
  recorded?: LedgerTurn;
  /** The core set the promotion rule left after this turn (absent: `learnCoreSet` is off). */
  coreSet?: CoreSetEntry[];
}

/** One ledger's envelope around turns: `runToolshedTurn` calls `applyCoreSet` before round 1 and `finish` after the loop. */
export class TurnLedger {
  private readonly rules: Readonly<CoreSetRules>;

  constructor(private readonly deps: TurnLedgerDeps) {
    this.rules = deps.rules ?? CORE_SET_RULES;
  }

  /** Activates the learned core set's tools in `run` (before round 1), within the budget of this turn's model; returns them with why. */
  applyCoreSet(run: ToolRun, contextTokens: number): CoreSetEntry[] {
    return applyCoreSet(run, this.deps.store, this.deps.sources().userStates, contextTokens, this.rules);
  }

  /** Records the finished turn and, with `learn` (`toolshed.toolSearch.learnCoreSet`), promotes and demotes by the recent turns. */
  finish(outcome: Pick<PlannerOutcome, 'rounds' | 'tokens' | 'usedSkills'>, contextTokens: number, learn: boolean): TurnLedgerWrite {
    const recorded = this.record(outcome);
    return learn ? { recorded, coreSet: this.learn(contextTokens) } : { recorded };
  }

  /** Adds the turn to the ledger; a ledger that cannot count must not fail the turn (the answer is already given). */
  record(outcome: Pick<PlannerOutcome, 'rounds' | 'tokens' | 'usedSkills'>): LedgerTurn | undefined {
    try {
      const entry = recordTurn(this.deps.store, outcome, this.deps.sources(), this.deps.clock.now());
      this.deps.wrote?.();
      return entry;
    } catch (error) {
      this.deps.logger.warn(`Ledger: the turn was not recorded (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    }
  }

  /** The promotion rule over the recent turns, within the budget of `contextTokens`; the log says when the set changed. */
  learn(contextTokens: number): CoreSetEntry[] {
    const { store, logger } = this.deps;
    const before = JSON.stringify(store.coreSet().map((entry) => entry.tool));
    const next = updateCoreSet(store, { ...this.deps.sources(), contextTokens, now: this.deps.clock.now() }, this.rules);
    if (JSON.stringify(next.map((entry) => entry.tool)) !== before) logger.info(`Learned core set: ${next.map((entry) => entry.tool).join(', ') || 'empty'}`);
    this.deps.wrote?.();
    return next;
  }
}
