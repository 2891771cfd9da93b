import { MCP_SKILL_TOOL_NAMES } from '../../core/platform/toolNames';
import { createToolshedMcpServer, serveOverStdio } from '../../mcp/toolshedMcpServer';
import type { CliCommand } from '../cliCommand';
import { UsageError } from './cliInput';
import { checkPackFolders, cliSkillService, loadPacksReportingErrors, parseSkillArgs } from './skillCliSupport';

export const mcpCommand: CliCommand = {
  path: ['mcp'],
  summary: 'Serve skills to an agent runtime over MCP (stdio): search, read, files, skill:// resources',
  usage: [
    'Usage: toolshed mcp --packs DIR…',
    '',
    'A stdio MCP server (for Copilot CLI, Claude Code, Codex, VS Code): stdin and stdout carry the protocol, stderr',
    `the diagnostics. Tools: ${MCP_SKILL_TOOL_NAMES.join(', ')}; resources: skill://<name>/SKILL.md and skill://<name>/<file>.`,
    'It serves the skills of the pack folders given, with the same search, budgets and redaction as Toolshed, and',
    'stops when the client closes stdin.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, { switches: [], values: [] });
    if (parsed.positional.length > 0) throw new UsageError(`unexpected argument "${parsed.positional[0]?.slice(0, 80)}"`);
    if (parsed.packs.length === 0) throw new UsageError('--packs DIR… is required (the skill folders to serve)');
    checkPackFolders(parsed.packs);
    const skills = await cliSkillService();
    try {
      await loadPacksReportingErrors(skills, parsed.packs, io);
      // Folders named on the command line are the user's own choice: trusted like the CLI's other commands.
      const server = await createToolshedMcpServer({ skills, requestContext: () => ({ includeWorkspacePacks: true }) });
      await serveOverStdio(server);
    } finally {
      await skills.dispose();
    }
    return 0;
  },
};
