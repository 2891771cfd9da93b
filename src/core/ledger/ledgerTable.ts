import type { LedgerReport } from './ledgerReport';

/**
 * The ledger as plain-text tables (`toolshed ledger`): one per tools, skills and servers, each
 * column a number a person can check against the footers of the same turns.
 */

const number = (value: number) => value.toLocaleString('en-US');

/** Keeps a stored name on one line of the table (control characters would break it). */
function cell(text: string, width: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat.padEnd(width);
}

function table(header: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>, firstWidth: number): string[] {
  const widths = header.map((title, i) =>
    i === 0 ? firstWidth : Math.max(title.length, ...rows.map((row) => String(typeof row[i] === 'number' ? number(row[i]) : row[i]).length)),
  );
  const line = (row: readonly (string | number)[]) =>
    row
      .map((value, i) => (i === 0 ? cell(String(value), widths[i]) : typeof value === 'number' ? number(value).padStart(widths[i]) : cell(value, widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

export function ledgerTableText(report: LedgerReport): string {
  const t = report.totals;
  const lines = [
    `Ledger of the last ${report.days} days (since ${report.since}): ${number(t.turns)} turns, ${number(t.rounds)} rounds, ${number(t.modelRequests)} model requests, ${number(t.toolsSent)} tool definitions sent (${number(t.toolDefinitionTokens)} tokens)`,
    '',
  ];
  // Retired skills are listed whatever the period: they stay out of use until restored.
  if (report.retiredSkills.length) {
    lines.push(`Retired skills (kept out of use in this workspace): ${report.retiredSkills.map((row) => cell(row.skill, 200).trimEnd()).join(', ')}`, '');
  }
  if (report.doors.length) {
    lines.push(
      'Doors (decisions of the prompt-submit hook and the MCP server; with skills = decisions that handed the model a skill; offered = skills only named, with their descriptions)',
      ...table(
        ['door', 'runtime', 'decisions', 'with skills', 'skills', 'with offers', 'offered', 'searches', 'tokens'],
        report.doors.map((row) => [row.door, row.runtime, row.decisions, row.withSkills, row.injections, row.withOffers, row.offers, row.searches, row.tokens]),
        6,
      ),
      '',
    );
  }
  if (report.tools.length === 0) return [...lines, 'No @toolshed turn recorded in this period.', ''].join('\n');
  const toolWidth = Math.min(48, Math.max(4, ...report.tools.map((row) => row.tool.length)));
  lines.push(
    'Tools (activations: by request match, search, first use, skill; vain = activated, never called)',
    ...table(
      ['tool', 'server', 'sent', 'tokens', 'request', 'search', 'first use', 'skill', 'vain', 'calls', 'failures'],
      report.tools.map((row) => [
        row.tool,
        row.server,
        row.sent,
        row.sentTokens,
        row.activations.request,
        row.activations.search,
        row.activations.firstUse,
        row.activations.skill,
        row.vain,
        row.calls,
        row.failures,
      ]),
      toolWidth,
    ),
    '',
  );
  if (report.skills.length) {
    lines.push(
      'Skills (follows = turns that called a tool the skill names)',
      ...table(
        ['skill', 'injections', 'follows', 'helpful', 'not helpful', 'selection tokens'],
        report.skills.map((row) => [
          row.retired ? `${row.skill} (retired)` : row.skill,
          row.injections,
          row.follows,
          row.helpful,
          row.harmful,
          row.selectionTokens,
        ]),
        Math.min(48, Math.max(5, ...report.skills.map((row) => row.skill.length))),
      ),
      '',
    );
  }
  lines.push(
    'Servers',
    ...table(
      ['server', 'tools', 'sent', 'tokens', 'activations', 'vain', 'calls', 'failures'],
      report.servers.map((row) => [row.server, row.tools, row.sent, row.sentTokens, row.activations, row.vain, row.calls, row.failures]),
      Math.min(40, Math.max(6, ...report.servers.map((row) => row.server.length))),
    ),
    '',
  );
  return lines.join('\n');
}
