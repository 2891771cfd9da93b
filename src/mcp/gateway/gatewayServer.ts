import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpGateway } from './gateway';
import type { ExposeMode, GatewayOptions } from './gateway';
import type { GatewayLedger } from './gatewayLedger';
import { readGatewaySettings } from './gatewaySettings';
import { registerGatewayTools } from './gatewayTools';
import { GATEWAY_DEPTH_ENV, readUpstreamConfig } from './upstreamConfig';

/**
 * Starting the gateway: its options from command-line words (`--upstream FILE` repeatable,
 * `--settings FILE`, `--expose search|found`, `--examples FILE.tools.yaml`, `--call-timeout-ms N`),
 * and a stdio MCP server of its own for them. The skills server can instead call
 * `registerGatewayTools` on its own `McpServer`.
 */

export const GATEWAY_USAGE = [
  '--upstream FILE     an mcp.json of VS Code ({"servers"}), Copilot CLI or Claude Code ({"mcpServers"}); repeatable',
  '--settings FILE     settings.json with toolshed.toolSearch.allow/deny, toolshed.tools.state, toolshed.toolExamples',
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

/** Parses the gateway's options; throws an Error with a usage line for anything else. */
export function parseGatewayArgs(args: readonly string[]): GatewayArgs {
  const parsed: GatewayArgs = { upstreamFiles: [], expose: 'search', exampleFiles: [] };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] =
      args[i].startsWith('--') && args[i].includes('=')
        ? [args[i].slice(0, args[i].indexOf('=')), args[i].slice(args[i].indexOf('=') + 1)]
        : [args[i], undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--upstream') parsed.upstreamFiles.push(value());
    else if (flag === '--settings') parsed.settingsFile = value();
    else if (flag === '--examples') parsed.exampleFiles.push(value());
    else if (flag === '--expose') {
      const mode = value();
      if (mode !== 'search' && mode !== 'found') throw new Error(`--expose must be search or found (got "${mode.slice(0, 40)}")`);
      parsed.expose = mode;
    } else if (flag === '--call-timeout-ms') {
      const ms = Number(value());
      if (!Number.isInteger(ms) || ms < 1 || ms > 3_600_000) throw new Error('--call-timeout-ms must be a whole number of milliseconds (1 to 3600000)');
      parsed.callTimeoutMs = ms;
    } else throw new Error(`unknown option ${flag.slice(0, 60)}`);
  }
  if (parsed.upstreamFiles.length === 0) throw new Error('--upstream FILE is required');
  return parsed;
}

/** Gateway options from parsed arguments: reads the files, and reports each problem through `log`. */
export function gatewayOptionsOf(args: GatewayArgs, log: (line: string) => void, ledger?: GatewayLedger): GatewayOptions {
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

/** Serves the gateway on this process's stdin/stdout until the client goes; upstreams are stopped then. */
export async function startGateway(options: GatewayOptions): Promise<{ gateway: McpGateway; closed: Promise<void> }> {
  const gateway = await McpGateway.create(options);
  const server = new McpServer({ name: 'toolshed', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  registerGatewayTools(server, gateway);
  const transport = new StdioServerTransport();
  let finish: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  const shutdown = () => {
    void gateway
      .close()
      .then(() => server.close())
      .catch(() => undefined)
      .finally(finish);
  };
  transport.onclose = shutdown;
  process.stdin.once('end', shutdown);
  // The client's first tools/list should hold the pins: wait for the upstreams' first listing, within bounds.
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([gateway.ready(), new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_LISTING_WAIT_MS)))]);
  clearTimeout(timer);
  await server.connect(transport);
  return { gateway, closed };
}
