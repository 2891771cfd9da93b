import { CORE_SET_RULES, nextCoreSet, type CoreSetRules } from '../ledger/learnedCoreSet';
import type { CoreSetEntry, LedgerStore } from '../ledger/ledgerStore';
import { TOOLSHED_TOOL_NAMES } from '../platform/toolNames';
import { ToolStates } from '../tools/modes/toolStates';
import type { ToolRecord } from '../tools/toolRecord';
import type { ToolRun } from '../tools/toolRun';
import { serializeDefinitions } from './plannerLoop';

/**
 * The learned core set around one turn: before it, the promoted tools are activated in the run
 * (so round 1 sends them without a search); after it, the promotion rule runs over the ledger's
 * recent turns. The extension and the session bench call these same two functions.
 *
 * Who wins: the user's own state for a tool (`toolshed.tools.state`: Always, Deferred or Off) is
 * never overridden, a tool the run may not use (policy, visibility) is never sent, and in
 * Restricted Mode (no tool runs) the set is not applied at all.
 */

const OWN_TOOLS = new Set<string>(TOOLSHED_TOOL_NAMES);

/**
 * Activates the promoted tools this run defers; returns those it activated, with why. The budget
 * is checked again here, every turn, against this turn's model (`contextTokens`) and each
 * definition as it is now: a promotion made for a larger model, or for a definition that has
 * grown since, is not sent beyond `rules.maxContextShare` (it stays findable by search).
 */
export function applyCoreSet(
  run: ToolRun,
  ledger: LedgerStore,
  userStates: Readonly<Record<string, unknown>>,
  contextTokens: number,
  rules: Readonly<CoreSetRules> = CORE_SET_RULES,
): CoreSetEntry[] {
  const states = new ToolStates(userStates);
  const entries = ledger.coreSet().filter((entry) => states.stateOf(entry.tool) === undefined && run.isPermitted(entry.tool));
  const wanted = new Set(entries.map((entry) => entry.tool));
  const records = new Map(run.permittedTools().flatMap((record) => (wanted.has(record.name) ? [[record.name, record] as const] : [])));
  const budget = Math.floor(contextTokens * rules.maxContextShare);
  const applied: CoreSetEntry[] = [];
  let spent = 0;
  for (const entry of entries) {
    const record = records.get(entry.tool);
    if (!record || applied.length >= rules.maxTools) continue;
    const tokens = sentTokens(run, record);
    if (spent + tokens > budget) continue;
    const reason = `used in ${entry.usedIn} of the last ${entry.windowTurns} turns (learned core set)`;
    if (run.preActivate([entry.tool], 1, reason, 'request').length) {
      applied.push({ ...entry, tokens });
      spent += tokens;
    }
  }
  return applied;
}

/** A definition's tokens as this run would send it (examples rendered), by the core estimate. */
function sentTokens(run: ToolRun, record: ToolRecord): number {
  return Math.ceil(serializeDefinitions(run.toolDefinitions([record])).length / 4);
}

export interface CoreSetUpdate {
  registry: ReadonlyMap<string, ToolRecord>;
  userStates: Readonly<Record<string, unknown>>;
  /** Whether the policy lets the tool be used at all. */
  isPolicyAllowed(tool: string): boolean;
  contextTokens: number;
  now: number;
}

/** A definition's tokens as the model receives it, by the core estimate (docs/contracts.md#token-estimate). */
function definitionTokens(record: ToolRecord): number {
  return Math.ceil(serializeDefinitions([{ name: record.name, description: record.description, inputSchema: record.inputSchema }]).length / 4);
}

/** Runs the promotion rule over the ledger's recent turns and stores the result (`rules`: the defaults; the session bench tunes them). */
export function updateCoreSet(ledger: LedgerStore, update: CoreSetUpdate, rules: Readonly<CoreSetRules> = CORE_SET_RULES): CoreSetEntry[] {
  const states = new ToolStates(update.userStates);
  const next = nextCoreSet(
    {
      recent: ledger.recentCalls(rules.window),
      current: ledger.coreSet(),
      undone: ledger.undoneTools(),
      eligible: (tool) => {
        const record = update.registry.get(tool);
        // Already always visible (pinned by a pattern or the user) or Toolshed's own: nothing to learn.
        return (
          Boolean(record) && record!.loadingMode !== 'always' && !OWN_TOOLS.has(tool) && states.stateOf(tool) === undefined && update.isPolicyAllowed(tool)
        );
      },
      tokensOf: (tool) => {
        const record = update.registry.get(tool);
        return record ? definitionTokens(record) : undefined;
      },
      contextTokens: update.contextTokens,
      now: update.now,
    },
    rules,
  );
  ledger.setCoreSet(next);
  return next;
}
