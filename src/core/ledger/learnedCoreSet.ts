import type { CoreSetEntry, RecentTurnCalls } from './ledgerStore';

/**
 * The learned core set (`toolshed.toolSearch.learnCoreSet`): deferred tools the model called in
 * enough recent turns *without round 1 offering them* (a `tool_search` round found them, or the
 * model called them by name) are sent without a search, within a budget; a promoted tool that
 * stays idle is demoted. Only such turns count for a promotion: a tool the request's own words
 * already pre-activate costs no round, and sending it every turn would only add its definition to
 * turns that do not use it. The promotion rule is pure: the caller says which
 * tools are eligible (never the user's own Always / Deferred / Off, never a tool the policy denies)
 * and what each definition costs.
 */

export interface CoreSetRules {
  window: number;
  promoteAt: number;
  keepAt: number;
  maxTools: number;
  maxContextShare: number;
}

/**
 * Tuned on a session the session bench does not report (bench/sessionTuning.ts, seed 7, its first
 * 500 turns): of the candidates that did not raise prompt tokens, the one saving the most rounds
 * with request-match pre-activation off (docs/benchmarks.md, "Session").
 */
export const CORE_SET_RULES: Readonly<CoreSetRules> = {
  /** Recent turns the rule looks at (at most the ledger's RECENT_TURNS_KEPT). */
  window: 100,
  /** Promoted once called without round 1 offering it in this many of them… */
  promoteAt: 6,
  /** …and demoted once called in fewer than this many (a gap, so a tool does not flap). */
  keepAt: 2,
  /** At most this many tools… */
  maxTools: 8,
  /** …whose definitions take at most this share of the model's context. */
  maxContextShare: 0.03,
};

export interface CoreSetInput {
  /** Tools called in each recent turn, newest first, with those round 1 did not offer. */
  recent: readonly RecentTurnCalls[];
  current: readonly CoreSetEntry[];
  /** Promotions the user undid (never promoted again until a reset). */
  undone: ReadonlySet<string>;
  eligible(tool: string): boolean;
  /** Tokens of the tool's definition; undefined = not in the catalog now. */
  tokensOf(tool: string): number | undefined;
  /** The model's context window in tokens. */
  contextTokens: number;
  now: number;
}

/** Per tool, the recent turns that called it and those where round 1 did not offer it; and how many turns that is. */
export interface CoreSetCounts {
  usedIn: ReadonlyMap<string, number>;
  missedIn: ReadonlyMap<string, number>;
  windowTurns: number;
}

/** The core set after the latest turn: kept and newly promoted tools, most used first, within the budget. */
export function nextCoreSet(input: CoreSetInput, rules: Readonly<CoreSetRules> = CORE_SET_RULES): CoreSetEntry[] {
  const window = input.recent.slice(0, rules.window);
  const usedIn = new Map<string, number>();
  const missedIn = new Map<string, number>();
  for (const turn of window) {
    for (const tool of new Set(turn.called)) usedIn.set(tool, (usedIn.get(tool) ?? 0) + 1);
    for (const tool of new Set(turn.missed)) missedIn.set(tool, (missedIn.get(tool) ?? 0) + 1);
  }
  return coreSetFromCounts({ usedIn, missedIn, windowTurns: window.length }, input, rules);
}

/**
 * The same rule over counts kept up to date turn by turn (the gateway folds a long journal with it,
 * without counting the window again at every call).
 */
export function coreSetFromCounts(counts: CoreSetCounts, input: Omit<CoreSetInput, 'recent'>, rules: Readonly<CoreSetRules> = CORE_SET_RULES): CoreSetEntry[] {
  const { usedIn, missedIn, windowTurns } = counts;
  const keep = (tool: string) => !input.undone.has(tool) && input.eligible(tool) && input.tokensOf(tool) !== undefined;
  const promotedAt = new Map(input.current.map((entry) => [entry.tool, entry.promotedAt]));

  const candidates: CoreSetEntry[] = [];
  for (const entry of input.current) {
    const used = usedIn.get(entry.tool) ?? 0;
    if (used >= rules.keepAt && keep(entry.tool)) candidates.push({ ...entry, usedIn: used, windowTurns, tokens: input.tokensOf(entry.tool)! });
  }
  for (const [tool, missed] of missedIn) {
    if (promotedAt.has(tool) || missed < rules.promoteAt || !keep(tool)) continue;
    const used = usedIn.get(tool) ?? missed;
    candidates.push({ tool, promotedAt: input.now, usedIn: used, windowTurns, tokens: input.tokensOf(tool)! });
  }
  candidates.sort((a, b) => b.usedIn - a.usedIn || a.promotedAt - b.promotedAt || a.tool.localeCompare(b.tool));

  const budget = Math.floor(input.contextTokens * rules.maxContextShare);
  const chosen: CoreSetEntry[] = [];
  let tokens = 0;
  for (const entry of candidates) {
    if (chosen.length >= rules.maxTools) break;
    if (tokens + entry.tokens > budget) continue;
    chosen.push(entry);
    tokens += entry.tokens;
  }
  return chosen;
}

/** The footer's sentence for the core-set tools a turn sent (undefined when none). */
export function coreSetFooterLine(entries: readonly Pick<CoreSetEntry, 'tool' | 'usedIn' | 'windowTurns'>[]): string | undefined {
  if (entries.length === 0) return undefined;
  const setting = '(setting `toolshed.toolSearch.learnCoreSet`)';
  if (entries.length === 1) {
    const [entry] = entries;
    return `_Visible without a search because you used it in ${entry.usedIn} of the last ${entry.windowTurns} turns: \`${entry.tool}\` ${setting}._`;
  }
  const list = entries.map((entry) => `\`${entry.tool}\` (${entry.usedIn} of ${entry.windowTurns})`).join(', ');
  return `_Visible without a search because you used them in the last ${entries[0].windowTurns} turns: ${list} ${setting}._`;
}
