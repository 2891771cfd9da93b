import { doorJournalLine, RESET_CORE_SET_ACTION, UNDO_PROMOTION_ACTION } from '../../core/ledger/doorJournal';
import { escapeForLine } from '../../core/platform/lineText';
import { doorFolderFor } from '../../core/runtimes/doors/doorFolder';
import { appendToJournal } from '../../core/runtimes/doors/doorJournalSegments';
import type { CliCommand, CliIo } from '../cliCommand';
import { UsageError } from './cliInput';
import { parseArgs } from './toolCliSupport';

/**
 * The user's word on the MCP gateway's learned core set, as the extension's Undo Promotion and
 * Reset Learned Core Set give it for `@toolshed`. The set is folded from the workspace's door
 * journal by every gateway process, so the word is one more journal line there: each gateway
 * reads it in its place among the calls (a running one at its next call, a new one at its start).
 */

const MAX_TOOL_NAME = 200;

function appendCoreSetLine(workspace: string, action: string, tools: string[]): string {
  const folder = doorFolderFor(workspace);
  appendToJournal(folder, doorJournalLine({ at: Date.now(), door: 'mcp', runtime: 'toolshed-cli', action, skills: tools, searches: 0, tokens: 0 }));
  return folder;
}

function workspaceOf(flags: ReadonlyMap<string, string | true>): string {
  const value = flags.get('workspace');
  if (value === true) throw new UsageError('--workspace needs a folder.');
  return value ?? process.cwd();
}

export const undoPromotionCommand: CliCommand = {
  path: ['gateway', 'undo-promotion'],
  summary: "Stop the MCP gateway listing a tool it learned to list directly (the workspace's learned core set)",
  usage: [
    'Usage: toolshed gateway undo-promotion TOOL [--workspace DIR]',
    '',
    'The MCP gateway (toolshed mcp --upstream) lists a tool directly once the model keeps searching for it in DIR',
    '(default: the current folder). This takes TOOL out of that set and keeps it out until',
    '`toolshed gateway reset-core-set`; it stays findable with find_tools. TOOL is the name the gateway serves',
    '(`toolshed why --door mcp` names the listed ones). A running gateway applies it at its next call.',
    'Exit code: 0 when recorded, 2 on usage errors.',
  ].join('\n'),
  async run(args: string[], io: CliIo) {
    const parsed = parseArgs(args, { switches: [], values: ['workspace'] });
    const [tool, ...rest] = parsed.positional;
    if (!tool || rest.length) throw new UsageError('give exactly one tool name.');
    if (tool.length > MAX_TOOL_NAME || /[\r\n]/.test(tool)) throw new UsageError(`a tool name is one line of at most ${MAX_TOOL_NAME} characters.`);
    const workspace = workspaceOf(parsed.flags);
    appendCoreSetLine(workspace, UNDO_PROMOTION_ACTION, [tool]);
    io.stdout(
      `${escapeForLine(tool)} will not be listed directly by the MCP gateway for ${escapeForLine(workspace)} (until toolshed gateway reset-core-set); find_tools still finds it.\n`,
    );
    return 0;
  },
};

export const resetCoreSetCommand: CliCommand = {
  path: ['gateway', 'reset-core-set'],
  summary: 'Forget what the MCP gateway learned to list directly for a workspace, and the promotions undone',
  usage: [
    'Usage: toolshed gateway reset-core-set [--workspace DIR]',
    '',
    'Forgets the learned core set of the MCP gateway for DIR (default: the current folder): the tools it lists',
    'directly, the promotions undone, and the calls it learned from. Gateways learn again from the calls after it.',
    'Exit code: 0 when recorded, 2 on usage errors.',
  ].join('\n'),
  async run(args: string[], io: CliIo) {
    const parsed = parseArgs(args, { switches: [], values: ['workspace'] });
    if (parsed.positional.length) throw new UsageError(`unexpected "${escapeForLine(parsed.positional.join(' '))}".`);
    const workspace = workspaceOf(parsed.flags);
    appendCoreSetLine(workspace, RESET_CORE_SET_ACTION, []);
    io.stdout(`The MCP gateway's learned core set for ${escapeForLine(workspace)} is forgotten; gateways learn again from the next calls.\n`);
    return 0;
  },
};
