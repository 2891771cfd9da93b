import type { EventEmitter } from 'node:events';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';
import { McpGateway } from '../../../src/mcp/gateway/gateway';
import type { GatewayOptions } from '../../../src/mcp/gateway/gateway';
import type { GatewayDecision } from '../../../src/mcp/gateway/gatewayLedger';
import { registerGatewayTools } from '../../../src/mcp/gateway/gatewayTools';
import type { UpstreamSpec } from '../../../src/mcp/gateway/upstreamConfig';

/** Real upstream processes and an in-process gateway behind a real SDK client (in-memory transport). */

const root = path.resolve(__dirname, '..', '..', '..');
const modules = path.join(root, 'node_modules', '@modelcontextprotocol');
const FIXTURES = path.join(root, 'test', 'fixtures', 'mcp');

function nodeServer(name: string, script: string, args: string[] = [], env: Record<string, string> = {}): UpstreamSpec {
  return { name, slug: name, command: process.execPath, args: [script, ...args], env };
}

export const everything = (): UpstreamSpec => nodeServer('everything', path.join(modules, 'server-everything', 'dist', 'index.js'), ['stdio']);
export const memory = (file: string): UpstreamSpec =>
  nodeServer('memory', path.join(modules, 'server-memory', 'dist', 'index.js'), [], { MEMORY_FILE_PATH: file });
export const fault = (name = 'fault', args: string[] = []): UpstreamSpec => nodeServer(name, path.join(FIXTURES, 'faultServer.mjs'), ['--name', name, ...args]);
export const catalog = (name: string, file: string, args: string[] = []): UpstreamSpec =>
  nodeServer(name, path.join(FIXTURES, 'catalogServer.mjs'), ['--file', file, '--name', name, ...args]);

let engine: Promise<SqlEngine> | undefined;
const sharedEngine = () => (engine ??= loadSqlEngine());

export interface ConnectedGateway {
  gateway: McpGateway;
  client: Client;
  /** The ledger decisions so far (they are written on the event-loop turn after each answer). */
  ledger(): Promise<GatewayDecision[]>;
  logs: string[];
  /** Every tool list the client received through its list_changed refresh. */
  refreshed: Tool[][];
  listToolNames(): Promise<string[]>;
  find(query: string, limit?: number): Promise<string>;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectGateway(options: Partial<GatewayOptions> & Pick<GatewayOptions, 'upstreams'>): Promise<ConnectedGateway> {
  const decisions: GatewayDecision[] = [];
  const logs: string[] = [];
  const gateway = await McpGateway.create({
    engine: await sharedEngine(),
    ledger: (decision) => decisions.push(decision),
    log: (line) => logs.push(line),
    ...options,
  });
  await gateway.ready();
  const server = new McpServer({ name: 'toolshed', version: '1' });
  registerGatewayTools(server, gateway);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const refreshed: Tool[][] = [];
  const client = new Client(
    { name: 'test-client', version: '1' },
    {
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (error, tools) => {
            if (!error && tools) refreshed.push(tools);
          },
        },
      },
    },
  );
  await client.connect(clientTransport);
  const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part))).join('\n');
  return {
    gateway,
    client,
    ledger: async () => {
      // The gateway queued its writes with setImmediate before this one: they have run by then.
      await new Promise((resolve) => setImmediate(resolve));
      return decisions;
    },
    logs,
    refreshed,
    listToolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    find: async (query, limit) => textOf((await client.callTool({ name: 'find_tools', arguments: { query, ...(limit ? { limit } : {}) } })) as CallToolResult),
    call: async (name, args = {}) => (await client.callTool({ name: 'call_tool', arguments: { name, arguments: args } })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
      await gateway.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part))).join('\n');
}

/** Resolves on the first `event` whose arguments satisfy `accept` (already true: resolves at once). */
export function nextEvent(emitter: EventEmitter, event: string, accept: (...args: unknown[]) => boolean, already = false): Promise<void> {
  if (already) return Promise.resolve();
  return new Promise((resolve) => {
    const listener = (...args: unknown[]) => {
      if (!accept(...args)) return;
      emitter.off(event, listener);
      resolve();
    };
    emitter.on(event, listener);
  });
}
