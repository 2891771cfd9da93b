import { escapeForLine } from '../../core/platform/lineText';
import { readLastDecisions } from '../../core/runtimes/doors/doorDecision';
import { doorFolderFor } from '../../core/runtimes/doors/doorFolder';
import { explainDoorDecisionMarkdown } from '../../core/runtimes/doors/explainDoorDecision';
import type { CliCommand } from '../cliCommand';
import { UsageError } from './cliInput';
import { parseArgs } from './toolCliSupport';

const DOORS = ['hook', 'mcp', 'chat'];

export const whyCommand: CliCommand = {
  path: ['why'],
  summary: 'Explain the last decision of a door (the hook, the MCP server, an @toolshed turn) in a workspace',
  usage: [
    'Usage: toolshed why [--workspace DIR] [--door hook|mcp|chat] [--json] [--door-folder]',
    '',
    'Explains the newest decision any door made for the workspace DIR (default: the current folder): the request',
    "(redacted), each skill candidate with its relevance and the gate's verdict, and what was handed to the model.",
    '--door picks one door: hook (the prompt-submit hook of Copilot CLI, Claude Code or Codex), mcp (the MCP',
    'server), chat (the last @toolshed turn in VS Code). --json prints the stored decision as JSON.',
    "--door-folder prints only the path of DIR's door folder (~/.toolshed/workspaces/<name>-<hash>; TOOLSHED_HOME moves",
    'it), where the doors keep their journal, their last decisions and their stores, and the extension its learned and',
    'retired skills for them.',
    'Exit code: 0 when a decision was explained, 1 when there is none yet, 2 on usage errors.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseArgs(args, { switches: ['json', 'door-folder'], values: ['workspace', 'door'] });
    const text = (name: string) => {
      const value = parsed.flags.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    const workspace = text('workspace');
    const door = text('door');
    if (door !== undefined && !DOORS.includes(door)) throw new UsageError('--door is one of hook, mcp, chat.');
    if (parsed.positional.length) throw new UsageError(`unexpected "${escapeForLine(parsed.positional.join(' '))}".`);
    const folder = doorFolderFor(workspace ?? process.cwd());
    if (parsed.flags.has('door-folder')) {
      io.stdout(`${folder}\n`);
      return 0;
    }
    const { decisions, problems } = readLastDecisions(folder);
    for (const problem of problems) io.stderr(`toolshed why: skipped ${escapeForLine(problem)}\n`);
    const chosen = decisions.find((decision) => door === undefined || decision.door === door);
    if (!chosen) {
      io.stdout(`No ${door ? `${door} ` : ''}decision recorded for ${escapeForLine(workspace ?? process.cwd())} yet (looked in ${escapeForLine(folder)}).\n`);
      return 1;
    }
    if (parsed.flags.get('json') === true) {
      io.stdout(`${JSON.stringify(chosen, null, 2)}\n`);
      return 0;
    }
    io.stdout(`${explainDoorDecisionMarkdown(chosen).split('\n').map(escapeForLine).join('\n')}\n`);
    const others = decisions.filter((decision) => decision !== chosen);
    if (door === undefined && others.length)
      io.stdout(`\nOther doors' last decisions: ${others.map((d) => `${d.door} at ${new Date(d.at).toISOString()}`).join(', ')} (see --door).\n`);
    return 0;
  },
};
