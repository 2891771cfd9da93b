import { apportion, type LedgerActivation, type LedgerSkillUse, type LedgerToolUse, type LedgerTurn } from '../ledger/ledgerTurn';
import type { PlannerOutcome } from './plannerLoop';

/**
 * A finished turn as the ledger counts it, read from the same outcome the footer is written
 * from: definitions sent per round, their tokens split over the tools of that round (so the
 * shares sum to the footer's total), how each tool became visible, calls and failures, and for
 * each skill whether it was injected and whether a tool it names was then called.
 */

export interface LedgerTurnContext {
  /** When the turn finished (ms). */
  at: number;
  /** Who provides a tool (an MCP server's name, an extension, `built-in`). */
  serverOf(tool: string): string;
  /** Relative size of a tool's definition (its serialised length): its share of a round's tokens. */
  definitionSize(tool: string): number;
  /** The tools a skill names (its steps and `allowed-tools`). */
  skillTools(skill: string): readonly string[];
}

/** Skills injected before the first round carry a reason; skill_get loads do not. */
const CHOSEN_BY_MODEL = 'chosen by the model';

export function ledgerTurnFrom(outcome: Pick<PlannerOutcome, 'rounds' | 'tokens' | 'usedSkills'>, context: LedgerTurnContext): LedgerTurn {
  const { rounds, tokens } = outcome;
  const tools = new Map<string, LedgerToolUse>();
  const entry = (name: string): LedgerToolUse => {
    let use = tools.get(name);
    if (!use) {
      use = { name, server: context.serverOf(name), sent: 0, sentTokens: 0, calls: 0, failures: 0 };
      tools.set(name, use);
    }
    return use;
  };
  const activate = (name: string, by: LedgerActivation) => {
    const use = entry(name);
    use.activatedBy ??= by;
  };
  for (const tool of tokens.requestMatchedTools ?? []) activate(tool.name, 'request');
  for (const name of tokens.preActivatedTools ?? []) activate(name, 'skill');

  rounds.forEach((round, index) => {
    const roundTokens = tokens.perRound[index]?.tokens ?? 0;
    const shares = apportion(
      roundTokens,
      round.toolsSent.map((name) => context.definitionSize(name)),
    );
    round.toolsSent.forEach((name, i) => {
      const use = entry(name);
      use.sent++;
      use.sentTokens += shares[i];
    });
    for (const call of round.toolCalls) {
      // A refused call never ran (and a denied name is never recorded anywhere).
      if (call.outcome === 'denied') continue;
      const use = entry(call.name);
      use.calls++;
      if (call.outcome === 'error') use.failures++;
      if (call.outcome === 'activated') activate(call.name, 'first_use');
    }
    // What the next round offers that this one did not, and nobody else activated, a search found.
    const next = rounds[index + 1];
    if (next) {
      const offered = new Set(round.toolsSent);
      for (const name of next.toolsSent) if (!offered.has(name) && !tools.get(name)?.activatedBy) activate(name, 'search');
    }
  });

  const called = new Set([...tools.values()].filter((use) => use.calls > 0).map((use) => use.name));
  const injected = outcome.usedSkills.filter((skill) => skill.reason);
  const payers = injected.some((skill) => skill.reason === CHOSEN_BY_MODEL) ? injected.filter((skill) => skill.reason === CHOSEN_BY_MODEL) : injected;
  const selectionShares = apportion(
    tokens.selectionTokens,
    payers.map(() => 1),
  );
  const skills = outcome.usedSkills.map((skill): LedgerSkillUse => ({
    name: skill.name,
    injected: Boolean(skill.reason),
    followed: context.skillTools(skill.name).some((tool) => called.has(tool)),
    selectionTokens: selectionShares[payers.indexOf(skill)] ?? 0,
  }));

  return {
    at: context.at,
    rounds: rounds.length,
    modelRequests: (tokens.selectionRequests ?? 0) + tokens.perRound.length,
    toolsSent: tokens.toolsSent,
    toolDefinitionTokens: tokens.toolDefinitionTokens,
    tools: [...tools.values()],
    skills,
  };
}
