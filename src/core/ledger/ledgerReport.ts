import type { SqlDatabase } from '../sql/sqlDatabase';

/**
 * The ledger over a period, as the view, `/tools` and `toolshed ledger` show it: per tool, per
 * skill and per server, cost (definitions sent, their tokens) beside benefit (calls, follows,
 * feedback) and waste (vain activations, failures).
 */

interface LedgerToolRow {
  tool: string;
  server: string;
  sent: number;
  sentTokens: number;
  activations: { request: number; search: number; firstUse: number; skill: number };
  /** Activated in a turn and never called in it. */
  vain: number;
  calls: number;
  failures: number;
  /** Turns that called it at least once. */
  turnsCalled: number;
}

interface LedgerSkillRow {
  skill: string;
  injections: number;
  /** Turns in which one of the tools it names was called. */
  follows: number;
  helpful: number;
  harmful: number;
  selectionTokens: number;
  /** Retired in this workspace (kept out of use until restored). */
  retired: boolean;
}

interface LedgerServerRow {
  server: string;
  tools: number;
  sent: number;
  sentTokens: number;
  activations: number;
  vain: number;
  calls: number;
  failures: number;
}

/** Decisions of one door (hook, MCP server) for one runtime, from the door journal. */
interface LedgerDoorRow {
  door: string;
  runtime: string;
  decisions: number;
  /** Decisions that put at least one skill in front of the model. */
  withSkills: number;
  /** Skills injected or fetched, over all decisions. */
  injections: number;
  searches: number;
  tokens: number;
  /** Decisions that offered at least one skill by name and description (a hook's offers: not injected). */
  withOffers: number;
  /** Skills offered, over all decisions. */
  offers: number;
}

interface LedgerTotals {
  turns: number;
  rounds: number;
  modelRequests: number;
  toolsSent: number;
  toolDefinitionTokens: number;
}

export interface LedgerReport {
  days: number;
  /** First day counted (UTC, `YYYY-MM-DD`). */
  since: string;
  totals: LedgerTotals;
  tools: LedgerToolRow[];
  skills: LedgerSkillRow[];
  servers: LedgerServerRow[];
  /** The hook's and the MCP server's decisions, per door and runtime. */
  doors: LedgerDoorRow[];
  /** Every retired skill, whatever the period, with when it was retired (ms). */
  retiredSkills: Array<{ skill: string; at: number }>;
}

type Num = number;

/** `shown`: which tools may be named (a tool the policy denies now is left out of the rows; the totals keep its numbers, unnamed). */
export function readLedgerReport(db: SqlDatabase, since: string, days: number, shown: (tool: string) => boolean = () => true): LedgerReport {
  const totals = db.get<{ turns: Num; rounds: Num; requests: Num; sent: Num; tokens: Num }>(
    `SELECT COALESCE(SUM(turns), 0) AS turns, COALESCE(SUM(rounds), 0) AS rounds, COALESCE(SUM(model_requests), 0) AS requests,
       COALESCE(SUM(tools_sent), 0) AS sent, COALESCE(SUM(tool_definition_tokens), 0) AS tokens FROM turn_days WHERE day >= ?`,
    [since],
  );
  const tools = db
    .all<{
      tool: string;
      server: string;
      sent: Num;
      tokens: Num;
      req: Num;
      search: Num;
      first: Num;
      skill: Num;
      vain: Num;
      calls: Num;
      failures: Num;
      turns: Num;
    }>(
      `SELECT tool, MAX(server) AS server, SUM(sent) AS sent, SUM(sent_tokens) AS tokens, SUM(act_request) AS req, SUM(act_search) AS search,
         SUM(act_first_use) AS first, SUM(act_skill) AS skill, SUM(vain) AS vain, SUM(calls) AS calls, SUM(failures) AS failures,
         SUM(turns_called) AS turns
       FROM tool_days WHERE day >= ? GROUP BY tool ORDER BY tokens DESC, tool`,
      [since],
    )
    .filter((row) => shown(row.tool))
    .map((row): LedgerToolRow => ({
      tool: row.tool,
      server: row.server,
      sent: row.sent,
      sentTokens: row.tokens,
      activations: { request: row.req, search: row.search, firstUse: row.first, skill: row.skill },
      vain: row.vain,
      calls: row.calls,
      failures: row.failures,
      turnsCalled: row.turns,
    }));
  const skills = db
    .all<{ skill: string; injections: Num; follows: Num; helpful: Num; harmful: Num; tokens: Num }>(
      `SELECT skill, SUM(injections) AS injections, SUM(follows) AS follows, SUM(helpful) AS helpful, SUM(harmful) AS harmful,
         SUM(selection_tokens) AS tokens FROM skill_days WHERE day >= ? GROUP BY skill ORDER BY injections DESC, skill`,
      [since],
    )
    .map((row) => ({
      skill: row.skill,
      injections: row.injections,
      follows: row.follows,
      helpful: row.helpful,
      harmful: row.harmful,
      selectionTokens: row.tokens,
    }));
  const doors = db.all<{ [K in keyof LedgerDoorRow]: LedgerDoorRow[K] }>(
    `SELECT door, runtime, SUM(decisions) AS decisions, SUM(with_skills) AS withSkills, SUM(injections) AS injections,
       SUM(searches) AS searches, SUM(tokens) AS tokens, SUM(with_offers) AS withOffers, SUM(offers) AS offers
       FROM door_days WHERE day >= ? GROUP BY door, runtime ORDER BY decisions DESC, door, runtime`,
    [since],
  );
  const retiredSkills = db.all<{ skill: string; at: Num }>('SELECT skill, at FROM retired_skills ORDER BY at, skill');
  const retired = new Set(retiredSkills.map((row) => row.skill));
  return {
    days,
    since,
    totals: {
      turns: totals?.turns ?? 0,
      rounds: totals?.rounds ?? 0,
      modelRequests: totals?.requests ?? 0,
      toolsSent: totals?.sent ?? 0,
      toolDefinitionTokens: totals?.tokens ?? 0,
    },
    tools,
    skills: skills.map((row): LedgerSkillRow => ({ ...row, retired: retired.has(row.skill) })),
    servers: serverTotals(tools),
    doors,
    retiredSkills,
  };
}

function serverTotals(tools: readonly LedgerToolRow[]): LedgerServerRow[] {
  const byServer = new Map<string, LedgerServerRow>();
  for (const tool of tools) {
    const row = byServer.get(tool.server) ?? { server: tool.server, tools: 0, sent: 0, sentTokens: 0, activations: 0, vain: 0, calls: 0, failures: 0 };
    row.tools++;
    row.sent += tool.sent;
    row.sentTokens += tool.sentTokens;
    row.activations += activationCount(tool);
    row.vain += tool.vain;
    row.calls += tool.calls;
    row.failures += tool.failures;
    byServer.set(tool.server, row);
  }
  return [...byServer.values()].sort((a, b) => b.sentTokens - a.sentTokens || a.server.localeCompare(b.server));
}

function activationCount(row: LedgerToolRow): number {
  return row.activations.request + row.activations.search + row.activations.firstUse + row.activations.skill;
}
