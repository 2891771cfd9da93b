import * as path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { escapeForLine } from '../../core/platform/lineText';
import { MCP_READ_SKILL_FILE_TOOL_NAME, MCP_READ_SKILL_TOOL_NAME, MCP_SEARCH_SKILLS_TOOL_NAME, MCP_SKILL_TOOL_NAMES } from '../../core/platform/toolNames';
import { recordDoorDecision } from '../../core/runtimes/doors/doorDecision';
import type { McpSkillDecision } from '../../mcp/mcpDecisions';
import { createToolshedMcpServer, serveOverStdio } from '../../mcp/toolshedMcpServer';
import type { CliCommand, CliIo } from '../cliCommand';
import { UsageError } from './cliInput';
import { checkPackFolders, cliSkillService, loadPacksReportingErrors, parseSkillArgs } from './skillCliSupport';

const RUNTIMES = ['copilot', 'claude', 'codex', 'vscode'];

/** What a decision did, in the ledger's words: the tool a model called. */
const ACTION_NAMES: Record<McpSkillDecision['action'], string> = {
  search: MCP_SEARCH_SKILLS_TOOL_NAME,
  read: MCP_READ_SKILL_TOOL_NAME,
  read_file: MCP_READ_SKILL_FILE_TOOL_NAME,
};

export const mcpCommand: CliCommand = {
  path: ['mcp'],
  summary: 'Serve skills to an agent runtime over MCP (stdio): search, read, files, skill:// resources',
  usage: [
    'Usage: toolshed mcp --packs DIR… [--workspace DIR] [--runtime copilot|claude|codex|vscode]',
    '',
    'A stdio MCP server (for Copilot CLI, Claude Code, Codex, VS Code): stdin and stdout carry the protocol, stderr',
    `the diagnostics. Tools: ${MCP_SKILL_TOOL_NAMES.join(', ')}; resources: skill://<name>/SKILL.md and skill://<name>/<file>.`,
    'It serves the skills of the pack folders given, with the same search, budgets and redaction as Toolshed, and',
    'stops when the client closes stdin.',
    '--workspace DIR records each search and read in that workspace\'s door journal (what "toolshed ledger" counts and',
    '"toolshed why --door mcp" explains); --runtime names the runtime in that record (default: the name the MCP client gives).',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, { switches: [], values: ['workspace', 'runtime'] });
    if (parsed.positional.length > 0) throw new UsageError(`unexpected argument "${escapeForLine(parsed.positional[0]?.slice(0, 80) ?? '')}"`);
    if (parsed.packs.length === 0) throw new UsageError('--packs DIR… is required (the skill folders to serve)');
    const runtime = parsed.flags.get('runtime');
    if (runtime !== undefined && (typeof runtime !== 'string' || !RUNTIMES.includes(runtime)))
      throw new UsageError(`--runtime is one of ${RUNTIMES.join(', ')}`);
    const workspace = parsed.flags.get('workspace');
    if (workspace === true) throw new UsageError('--workspace needs a folder');
    checkPackFolders(parsed.packs);
    const skills = await cliSkillService();
    try {
      await loadPacksReportingErrors(skills, parsed.packs, io);
      // The recorder names the runtime from the client's initialize, which comes after the server is built.
      const built: { server?: McpServer } = {};
      const clientName = () => runtime ?? built.server?.server.getClientVersion()?.name ?? 'mcp';
      const record = workspace === undefined ? undefined : journalRecorder(path.resolve(workspace), clientName, io);
      // Folders named on the command line are the user's own choice: trusted like the CLI's other commands.
      const server = await createToolshedMcpServer({ skills, requestContext: () => ({ includeWorkspacePacks: true }), ...(record ? { record } : {}) });
      built.server = server;
      await serveOverStdio(server);
    } finally {
      await skills.dispose();
    }
    return 0;
  },
};

/** Each decision into the workspace's door journal; a record that cannot be written is one line on stderr, never a failed answer. */
function journalRecorder(workspace: string, runtime: () => string, io: CliIo): (decision: McpSkillDecision) => void {
  return (decision) => {
    const problem = recordDoorDecision(workspace, {
      door: 'mcp',
      runtime: runtime(),
      at: decision.at,
      action: ACTION_NAMES[decision.action],
      request: decision.query ?? [...decision.skills, decision.file ?? ''].filter(Boolean).join(' '),
      injected: decision.skills,
      searches: decision.action === 'search' ? 1 : 0,
      tokens: decision.tokens,
    });
    if (problem) io.stderr(`toolshed mcp: ${escapeForLine(problem)}\n`);
  };
}
