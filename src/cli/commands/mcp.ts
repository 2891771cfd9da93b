import * as path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { skillsConfigSchema } from '../../core/config/settingsSchema';
import { escapeForLine } from '../../core/platform/lineText';
import {
  GATEWAY_TOOL_NAMES,
  MCP_READ_SKILL_FILE_TOOL_NAME,
  MCP_READ_SKILL_TOOL_NAME,
  MCP_SEARCH_SKILLS_TOOL_NAME,
  MCP_SKILL_TOOL_NAMES,
} from '../../core/platform/toolNames';
import { openDoorSession } from '../../core/runtimes/doorSession';
import { recordDoorDecision } from '../../core/runtimes/doors/doorDecision';
import { doorFolderFor } from '../../core/runtimes/doors/doorFolder';
import { ExtensionSkillsView } from '../../core/runtimes/doors/extensionSkillsView';
import { isRuntimeId } from '../../core/runtimes/runtimeDescriptors';
import type { RuntimeId } from '../../core/runtimes/runtimeDescriptors';
import type { SkillRequestContext, SkillService } from '../../core/skills/skillService';
import type { LoadSummary } from '../../core/skills/packs/skillPackLoader';
import type { McpSkillDecision } from '../../mcp/mcpDecisions';
import { createCliGateway, GATEWAY_USAGE, takeGatewayArgs } from '../../mcp/gateway/gatewayServer';
import { createToolshedMcpServer, serveOverStdio } from '../../mcp/toolshedMcpServer';
import type { CliCommand, CliIo } from '../cliCommand';
import { onStopSignals } from '../stopSignals';
import { UsageError } from './cliInput';
import { checkPackFolders, cliSkillService, loadPacksReportingErrors, packsFromDirs, parseSkillArgs } from './skillCliSupport';

const RUNTIMES = ['copilot', 'claude', 'codex', 'vscode'];

/** What a decision did, in the ledger's words: the tool a model called. */
const ACTION_NAMES: Record<McpSkillDecision['action'], string> = {
  search: MCP_SEARCH_SKILLS_TOOL_NAME,
  read: MCP_READ_SKILL_TOOL_NAME,
  read_file: MCP_READ_SKILL_FILE_TOOL_NAME,
};

/** The skills the server serves, who is asking, and how to let go of them. */
interface ServedSkills {
  skills: SkillService;
  requestContext: () => SkillRequestContext;
  /** Before each answer: what changed since the last one (the extension's learned skills, for a door). */
  beforeAnswer?: () => Promise<void>;
  dispose(): Promise<void>;
}

export const mcpCommand: CliCommand = {
  path: ['mcp'],
  summary: 'Serve skills to an agent runtime over MCP (stdio): search, read, files, skill:// resources; with --upstream, a gateway to your other MCP servers',
  usage: [
    'Usage: toolshed mcp [--runtime copilot|claude|codex|vscode] [--workspace DIR] [--packs DIR…] [--upstream FILE]…',
    '',
    'A stdio MCP server (for Copilot CLI, Claude Code, Codex, VS Code): stdin and stdout carry the protocol, stderr',
    `the diagnostics. Tools: ${MCP_SKILL_TOOL_NAMES.join(', ')}; resources: skill://<name>/SKILL.md and skill://<name>/<file>.`,
    'Same search, budgets and redaction as Toolshed; it stops when the client closes stdin, or on SIGTERM, SIGINT or',
    'SIGHUP (saving its index first; Ctrl-C twice stops it at once).',
    '',
    '--runtime copilot|claude|codex serves what that runtime would see in the workspace DIR (default: the current',
    "folder): its user-level skill folders, the workspace's own only when the runtime (or Toolshed) trusts it,",
    "Toolshed's library folder and the learned skills, from a store kept in the workspace's door folder.",
    '--packs DIR… adds pack folders (without a door runtime, they are all it serves; --runtime vscode is how the',
    'extension starts it, over the packs of the window). With a workspace, each search and read is recorded in its',
    'door journal (what "toolshed ledger" counts and "toolshed why --door mcp" explains), and the learned skills the',
    'extension approved there are served and the skills retired in its Ledger view are not (its door folder says which).',
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
    const parsed = parseSkillArgs(split.rest, { switches: [], values: ['workspace', 'runtime'] });
    if (parsed.positional.length > 0) throw new UsageError(`unexpected argument "${escapeForLine(parsed.positional[0]?.slice(0, 80) ?? '')}"`);
    const runtime = parsed.flags.get('runtime');
    if (runtime !== undefined && (typeof runtime !== 'string' || !RUNTIMES.includes(runtime)))
      throw new UsageError(`--runtime is one of ${RUNTIMES.join(', ')}`);
    const workspaceFlag = parsed.flags.get('workspace');
    if (workspaceFlag === true) throw new UsageError('--workspace needs a folder');
    const door = runtime !== undefined && isRuntimeId(runtime) ? runtime : undefined;
    if (!door && parsed.packs.length === 0 && !split.gateway)
      throw new UsageError('--packs DIR… or --upstream FILE is required unless --runtime is copilot, claude or codex (the skill folders to serve)');
    checkPackFolders(parsed.packs);
    const workspace = workspaceFlag !== undefined ? path.resolve(workspaceFlag) : door ? process.cwd() : undefined;
    // Skills load behind the connected server (see McpSkillSourceOptions.ready): the client's hello is answered at once.
    const loading = door && workspace ? doorSkills(door, workspace, parsed.packs, io) : packSkills(parsed.packs, io, workspace);
    let served: ServedSkills | undefined;
    const ready = loading.then(
      (skills) => {
        served = skills;
      },
      (error: unknown) => {
        io.stderr(`toolshed mcp: the skills could not be loaded: ${escapeForLine(error instanceof Error ? error.message : String(error))}\n`);
        throw error;
      },
    );
    ready.catch(() => undefined);
    const loaded = () => {
      if (!served) throw new Error('the skills are still loading');
      return served;
    };
    const current = async () => {
      const skills = loaded();
      await skills.beforeAnswer?.();
      return skills;
    };
    // A runtime that ends its server with a signal gets the same end as one that closes stdin: saved, then gone.
    const stopped = new AbortController();
    const removeStopHandlers = onStopSignals(() => stopped.abort());
    let gateway: Awaited<ReturnType<typeof createCliGateway>> | undefined;
    try {
      // Inside the try: if starting the upstream servers fails, the skills are still disposed and the handlers removed.
      gateway = split.gateway ? await createCliGateway(split.gateway, (line) => io.stderr(`${line}\n`), workspace ?? process.cwd()) : undefined;
      // The recorder names the runtime from the client's initialize, which comes after the server is built.
      const built: { server?: McpServer } = {};
      const clientName = () => runtime ?? built.server?.server.getClientVersion()?.name ?? 'mcp';
      const record = workspace === undefined ? undefined : journalRecorder(workspace, clientName, io);
      const server = await createToolshedMcpServer({
        skills: {
          search: async (input, ctx) => (await current()).skills.search(input, ctx),
          get: async (input, ctx) => (await current()).skills.get(input, ctx),
          list: async (input, ctx) => (await current()).skills.list(input, ctx),
          inspect: (name) => served?.skills.inspect(name),
        },
        requestContext: () => loaded().requestContext(),
        minRelevance: skillsConfigSchema.parse({}).minRelevance,
        ready,
        ...(record ? { record } : {}),
        extensions: gateway ? [gateway.extension] : [],
      });
      built.server = server;
      await serveOverStdio(server, {}, stopped.signal);
    } finally {
      await gateway?.gateway.close();
      await (await loading.catch(() => undefined))?.dispose();
      removeStopHandlers();
      // Stopped by a signal, the client may still hold stdin open: it must not keep the process alive.
      if (stopped.signal.aborted) process.stdin.destroy();
    }
    return 0;
  },
};

/**
 * The pack folders named on the command line, in memory: the user's own choice, trusted like the
 * CLI's other commands. With a workspace (how the extension starts it for VS Code's sessions), also
 * the learned skills the extension approved there and its retirements, as in every door.
 */
async function packSkills(dirs: readonly string[], io: CliIo, workspace: string | undefined): Promise<ServedSkills> {
  const skills = await cliSkillService();
  await loadPacksReportingErrors(skills, dirs, io);
  if (workspace === undefined) return { skills, requestContext: () => ({ includeWorkspacePacks: true }), dispose: () => skills.dispose() };
  const extension = new ExtensionSkillsView(doorFolderFor(workspace), workspace);
  await extension.apply(skills);
  return {
    skills,
    requestContext: () => {
      const tenantId = extension.tenantId();
      return { scope: { projectId: workspace, ...(tenantId ? { tenantId } : {}) }, includeWorkspacePacks: true, retiredNames: extension.retired() };
    },
    beforeAnswer: () => extension.apply(skills),
    dispose: () => skills.dispose(),
  };
}

/** The door session of `runtime` in `workspace` (its folders, its trust, its persisted store), plus any pack folders named. */
async function doorSkills(runtime: RuntimeId, workspace: string, dirs: readonly string[], io: CliIo): Promise<ServedSkills> {
  const door = await openDoorSession({ runtime, workspaceFolder: workspace });
  const printErrors = (load: LoadSummary) => {
    for (const problem of load.problems.filter((p) => p.severity === 'error'))
      io.stderr(`${escapeForLine(problem.file)}:${problem.line}:${problem.column}: error: ${escapeForLine(problem.message)}\n`);
  };
  try {
    if (dirs.length) printErrors(await door.skills.loadPacks([...door.packs, ...packsFromDirs(dirs)]));
    // The door's own load goes on behind the first answers (the skill service decides which wait for it).
    else void door.loaded.then(printErrors, () => undefined);
  } catch (error) {
    await door.dispose();
    throw error;
  }
  io.stderr(
    `toolshed mcp: ${door.runtime.displayName} skills for ${escapeForLine(workspace)}; the workspace's own skill folders are ${door.trust.trusted ? 'used' : 'not used'} (${escapeForLine(door.trust.source)}).\n`,
  );
  return {
    skills: door.skills,
    requestContext: () => door.requestContext(),
    // The server lives as long as the runtime's session: an approval or retirement in the extension shows at the next answer.
    beforeAnswer: () => door.syncExtensionSkills(),
    dispose: () => door.dispose(),
  };
}

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
