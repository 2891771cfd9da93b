import type { LedgerReport } from './ledgerReport';

/**
 * What the Ledger view shows of a report: servers with their tools, then skills, sorted by the
 * column the user picked and narrowed by a filter text (a name, a server or a skill contains it).
 * Plain data, so the sorting and filtering are tested without the host.
 */

export type LedgerSortKey = 'tokens' | 'sent' | 'calls' | 'vain' | 'failures' | 'name';

export const LEDGER_SORT_KEYS: ReadonlyArray<{ key: LedgerSortKey; label: string }> = [
  { key: 'tokens', label: 'Definition tokens (cost)' },
  { key: 'sent', label: 'Definitions sent' },
  { key: 'calls', label: 'Calls (benefit)' },
  { key: 'vain', label: 'Vain activations (waste)' },
  { key: 'failures', label: 'Failures' },
  { key: 'name', label: 'Name' },
];

type Tool = LedgerReport['tools'][number];
type Server = LedgerReport['servers'][number];
type Skill = LedgerReport['skills'][number];

export interface LedgerServerGroup {
  server: Server;
  tools: Tool[];
}

export interface LedgerViewModel {
  servers: LedgerServerGroup[];
  skills: Skill[];
}

interface Sortable {
  name: string;
  tokens: number;
  sent: number;
  calls: number;
  vain: number;
  failures: number;
}

function compare(key: LedgerSortKey) {
  return (a: Sortable, b: Sortable) => (key === 'name' ? a.name.localeCompare(b.name) : b[key] - a[key] || a.name.localeCompare(b.name));
}

const toolSortable = (row: Tool): Sortable => ({
  name: row.tool,
  tokens: row.sentTokens,
  sent: row.sent,
  calls: row.calls,
  vain: row.vain,
  failures: row.failures,
});
const serverSortable = (row: Server): Sortable => ({
  name: row.server,
  tokens: row.sentTokens,
  sent: row.sent,
  calls: row.calls,
  vain: row.vain,
  failures: row.failures,
});
// A skill's cost is its selection tokens, its benefit the turns that followed it.
const skillSortable = (row: Skill): Sortable => ({
  name: row.skill,
  tokens: row.selectionTokens,
  sent: row.injections,
  calls: row.follows,
  vain: row.injections - row.follows,
  failures: row.harmful,
});

export function ledgerViewModel(report: LedgerReport, sort: LedgerSortKey, filter: string): LedgerViewModel {
  const needle = filter.trim().toLowerCase();
  const matches = (...texts: string[]) => !needle || texts.some((text) => text.toLowerCase().includes(needle));
  const by = compare(sort);
  const servers = report.servers
    .map((server) => ({
      server,
      tools: report.tools
        .filter((tool) => tool.server === server.server && matches(tool.tool, server.server))
        .sort((a, b) => by(toolSortable(a), toolSortable(b))),
    }))
    .filter((group) => group.tools.length > 0)
    .sort((a, b) => by(serverSortable(a.server), serverSortable(b.server)));
  const skills = report.skills.filter((skill) => matches(skill.skill)).sort((a, b) => by(skillSortable(a), skillSortable(b)));
  return { servers, skills };
}
