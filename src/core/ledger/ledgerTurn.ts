/**
 * What one `@toolshed` turn cost and gave back, per tool and per skill: the one input of the
 * ledger. Built from the turn's outcome (planner/ledgerTurnFrom.ts), so the ledger counts exactly
 * what the footer of the same turn reports.
 */

/** How a tool became visible during the turn (absent: it was visible from the start). */
export type LedgerActivation = 'request' | 'search' | 'first_use' | 'skill';

export interface LedgerToolUse {
  name: string;
  /** Who provides it: an MCP server's name, an extension, `built-in` or `Toolshed`. */
  server: string;
  /** Rounds whose request carried its definition. */
  sent: number;
  /** Its share of those rounds' tool-definition tokens (the shares sum to the footer's total). */
  sentTokens: number;
  activatedBy?: LedgerActivation;
  /** Calls that ran (failures included). */
  calls: number;
  failures: number;
}

export interface LedgerSkillUse {
  name: string;
  /** Injected before the first round (pinned, chosen by the model, or best match). */
  injected: boolean;
  /** A tool the skill names was called in the turn. */
  followed: boolean;
  /** Its share of the selection model's tokens (skills the model chose share them). */
  selectionTokens: number;
}

export interface LedgerTurn {
  /** When the turn finished (ms since the epoch). */
  at: number;
  rounds: number;
  /** Skill selection requests plus rounds: the footer's "Model requests". */
  modelRequests: number;
  /** Tool definitions sent over every round (the footer's "sent N of M"). */
  toolsSent: number;
  /** Tokens of those definitions (the footer's "N tokens of tool definitions"). */
  toolDefinitionTokens: number;
  tools: LedgerToolUse[];
  skills: LedgerSkillUse[];
}

/**
 * Splits `total` over `weights` in proportion, in whole numbers that sum to `total` exactly
 * (largest remainder; ties to the earlier entry). Equal shares when every weight is 0.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((a, b) => a + Math.max(0, b), 0);
  const exact = weights.map((weight) => (sum > 0 ? (total * Math.max(0, weight)) / sum : total / weights.length));
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((value, index) => ({ index, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    shares[index]++;
    left--;
  }
  return shares;
}
