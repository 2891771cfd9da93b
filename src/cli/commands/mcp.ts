import { GATEWAY_TOOL_NAMES, MCP_SKILL_TOOL_NAMES } from '../../core/platform/toolNames';
import { createCliGateway, GATEWAY_USAGE, takeGatewayArgs } from '../../mcp/gateway/gatewayServer';
import { createToolshedMcpServer, serveOverStdio } from '../../mcp/toolshedMcpServer';
import type { CliCommand } from '../cliCommand';
import { UsageError } from './cliInput';
import { checkPackFolders, cliSkillService, loadPacksReportingErrors, parseSkillArgs } from './skillCliSupport';

export const mcpCommand: CliCommand = {
  path: ['mcp'],
  summary: 'Serve skills to an agent runtime over MCP (stdio): search, read, files, skill:// resources; with --upstream, a gateway to your other MCP servers',
  usage: [
    'Usage: toolshed mcp --packs DIR… [--upstream FILE]…',
    '',
    'A stdio MCP server (for Copilot CLI, Claude Code, Codex, VS Code): stdin and stdout carry the protocol, stderr',
    `the diagnostics. Tools: ${MCP_SKILL_TOOL_NAMES.join(', ')}; resources: skill://<name>/SKILL.md and skill://<name>/<file>.`,
    'It serves the skills of the pack folders given, with the same search, budgets and redaction as Toolshed, and',
    'stops when the client closes stdin.',
    '',
    `Gateway (--upstream): starts the stdio MCP servers of the config files given, indexes their tools with Toolshed's`,
    `tool search and serves ${GATEWAY_TOOL_NAMES.join(' and ')} (search, then call), plus the tools you pin, instead of every tool.`,
    GATEWAY_USAGE,
  ].join('\n'),
  async run(args, io) {
    let split: ReturnType<typeof takeGatewayArgs>;
    try {
      split = takeGatewayArgs(args);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    const parsed = parseSkillArgs(split.rest, { switches: [], values: [] });
    if (parsed.positional.length > 0) throw new UsageError(`unexpected argument "${parsed.positional[0]?.slice(0, 80)}"`);
    if (parsed.packs.length === 0 && !split.gateway) throw new UsageError('--packs DIR… (the skill folders to serve) or --upstream FILE is required');
    checkPackFolders(parsed.packs);
    const skills = await cliSkillService();
    const gateway = split.gateway ? await createCliGateway(split.gateway, (line) => io.stderr(`${line}\n`)) : undefined;
    try {
      await loadPacksReportingErrors(skills, parsed.packs, io);
      // Folders named on the command line are the user's own choice: trusted like the CLI's other commands.
      const server = await createToolshedMcpServer({
        skills,
        requestContext: () => ({ includeWorkspacePacks: true }),
        extensions: gateway ? [gateway.extension] : [],
      });
      await serveOverStdio(server);
    } finally {
      await gateway?.gateway.close();
      await skills.dispose();
    }
    return 0;
  },
};
