import { readFileSync } from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { doorFolderFor } from '../../core/runtimes/doors/doorFolder';
import { McpGateway } from './gateway';
import type { ExposeMode, GatewayOptions } from './gateway';
import { gatewayDoorRecorder } from './gatewayLedger';
import type { GatewayLedger } from './gatewayLedger';
import { readGatewaySettings } from './gatewaySettings';
import { registerGatewayTools } from './gatewayTools';
import { GATEWAY_DEPTH_ENV, readUpstreamConfig } from './upstreamConfig';

/**
 * Starting the gateway from `toolshed mcp`: its options from command-line words (`--upstream
 * FILE` repeatable, `--settings FILE`, `--expose search|found`, `--examples FILE.tools.yaml`,
 * `--call-timeout-ms N`), and its tools on the skills server (`gatewayExtension`).
 */

export const GATEWAY_USAGE = [
  '--upstream FILE     an mcp.json of VS Code ({"servers"}), Copilot CLI or Claude Code ({"mcpServers"}); repeatable',
  '--settings FILE     settings.json with toolshed.toolSearch.allow/deny/learnCoreSet, toolshed.tools.state, toolshed.toolExamples',
  '--expose MODE       search (default): find_tools + call_tool; found: tools a search finds become real tools (clients that refresh on tools/list_changed)',
  '--examples FILE     a *.tools.yaml with examples for upstream tools (by served name, mcp_<server>_<tool>); repeatable',
  '--call-timeout-ms N a forwarded call fails after N ms and its server is restarted (default 60000)',
].join('\n');

export interface GatewayArgs {
  upstreamFiles: string[];
  settingsFile?: string;
  expose: ExposeMode;
  exampleFiles: string[];
  callTimeoutMs?: number;
}

const GATEWAY_FLAGS = ['--upstream', '--settings', '--expose', '--examples', '--call-timeout-ms'];

/**
 * Takes the gateway's options out of a command line (`toolshed mcp` has its own besides);
 * `gateway` is undefined when no `--upstream` was given. Throws an Error saying what is wrong
 * with a gateway option.
 */
export function takeGatewayArgs(args: readonly string[]): { gateway: GatewayArgs | undefined; rest: string[] } {
  const parsed: GatewayArgs = { upstreamFiles: [], expose: 'search', exampleFiles: [] };
  const rest: string[] = [];
  let any = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!GATEWAY_FLAGS.includes(flag)) {
      rest.push(arg);
      continue;
    }
    any = true;
    const inline = flag === arg ? undefined : arg.slice(eq + 1);
    const value = inline ?? args[++i];
    if (value === undefined || value === '') throw new Error(`${flag} needs a value`);
    if (flag === '--upstream') parsed.upstreamFiles.push(value);
    else if (flag === '--settings') parsed.settingsFile = value;
    else if (flag === '--examples') parsed.exampleFiles.push(value);
    else if (flag === '--expose') {
      if (value !== 'search' && value !== 'found') throw new Error(`--expose must be search or found (got "${value.slice(0, 40)}")`);
      parsed.expose = value;
    } else {
      const ms = Number(value);
      if (!Number.isInteger(ms) || ms < 1 || ms > 3_600_000) throw new Error('--call-timeout-ms must be a whole number of milliseconds (1 to 3600000)');
      parsed.callTimeoutMs = ms;
    }
  }
  if (any && parsed.upstreamFiles.length === 0) throw new Error('the gateway options need --upstream FILE');
  return { gateway: any ? parsed : undefined, rest };
}

/** Gateway options from parsed arguments: reads the files, and reports each problem through `log`. */
function gatewayOptionsOf(args: GatewayArgs, log: (line: string) => void, ledger?: GatewayLedger): GatewayOptions {
  const nested = process.env[GATEWAY_DEPTH_ENV] !== undefined;
  if (nested) log('toolshed gateway: started by another Toolshed gateway; its upstreams are not started again.');
  const upstreams = nested
    ? []
    : args.upstreamFiles.flatMap((file) => {
        const config = readUpstreamConfig(file);
        config.problems.forEach(log);
        return config.upstreams;
      });
  const settings = args.settingsFile ? readGatewaySettings(args.settingsFile) : undefined;
  settings?.problems.forEach(log);
  const exampleFiles = args.exampleFiles.flatMap((file) => {
    try {
      return [{ text: readFileSync(file, 'utf8'), fileName: file }];
    } catch (error) {
      log(`${file}: cannot be read (${error instanceof Error ? error.message : String(error)})`);
      return [];
    }
  });
  return {
    upstreams,
    ...(settings ? { settings: settings.settings } : {}),
    expose: args.expose,
    exampleFiles,
    ...(args.callTimeoutMs ? { limits: { callTimeoutMs: args.callTimeoutMs } } : {}),
    log,
    ...(ledger ? { ledger } : {}),
  };
}

/** How long the server waits for its upstreams before answering the client (the rest arrive with list_changed). */
const FIRST_LISTING_WAIT_MS = 15_000;

/**
 * Registers the gateway's tools on the server (an extension of `createToolshedMcpServer`) and
 * waits, within bounds, for the upstreams' first listing: the client's first `tools/list` should
 * already hold the pinned tools, since some clients never list again.
 */
function gatewayExtension(gateway: McpGateway): (server: McpServer) => Promise<void> {
  return async (server) => {
    registerGatewayTools(server, gateway);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([gateway.ready(), new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_LISTING_WAIT_MS)))]);
    clearTimeout(timer);
  };
}

/**
 * The gateway `toolshed mcp --upstream` runs: its decisions go to the door journal of `workspace`
 * (the folder the runtime started the server in), under the name the MCP client gives itself;
 * `extension` puts its tools on the server.
 */
export async function createCliGateway(
  args: GatewayArgs,
  log: (line: string) => void,
  workspace: string = process.cwd(),
): Promise<{ gateway: McpGateway; extension: (server: McpServer) => Promise<void> }> {
  let served: McpServer | undefined;
  const ledger = gatewayDoorRecorder(workspace, () => served?.server.getClientVersion()?.name, log);
  // The learned core set is folded from the same door journal the ledger lines go to.
  const gateway = await McpGateway.create({ ...gatewayOptionsOf(args, log, ledger), coreSetFolder: doorFolderFor(workspace) });
  const register = gatewayExtension(gateway);
  return {
    gateway,
    extension: async (server) => {
      served = server;
      await register(server);
    },
  };
}
