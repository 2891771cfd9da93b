/**
 * The MCP gateway (bundled and run by bench/gateway.bench.mjs) over the real MCP catalog
 * (bench/data/mcp-catalog: 568 tools of 31 public servers). Each tier takes the catalog's first
 * 50 / 150 / 500 tools (file order, server by server), served by one fixture MCP server process
 * per upstream server (test/fixtures/mcp/catalogServer.mjs, the definitions as published).
 *
 * Rows, per tier (held-out half: even ids of requests.jsonl whose gold tool is in the tier):
 * - definition tokens per request: every upstream tool listed (what a client without deferral
 *   sends) vs what the gateway lists (find_tools, call_tool; no pins), and the latter plus one
 *   search answer (the tool definitions a search hands back, which the next round carries);
 * - found in the top 5 of one find_tools call (the model can call it in its second round), and
 *   within two searches (a second find_tools asking for 10);
 * - find_tools latency p50/p95 (an SDK client in the same process, the gateway's McpServer);
 * one examples row: the tokens the examples of gateway-examples.tools.yaml add to each of its
 * tools' served definitions; and one latency row (150 tools): a forwarded call through the gateway *process*
 * (`dist/cli.js mcp --upstream`, stdio both ways) vs the same call sent to the upstream
 * directly, interleaved in the same run (each forwarded call also appends its ledger line to a
 * door journal in a temporary TOOLSHED_HOME, as it does for users); p50/p95 and the p95 added;
 * and one repeated-use session (150 tools) with and without the learned core set
 * (bench/gatewayCoreSetSession.ts): rounds and tool-definition tokens per request; and what the
 * gateway's start pays to fold that set from a long door journal (bench/gatewayJournalFold.ts).
 * Prints one JSON line last: {"title", "rows"}.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpGateway } from '../src/mcp/gateway/gateway';
import { definitionTokens } from '../src/mcp/gateway/gatewayText';
import { registerGatewayTools } from '../src/mcp/gateway/gatewayTools';
import { estimateTokens } from '../src/core/tools/modes/deferredNamesBlock';
import { readUpstreamConfig } from '../src/mcp/gateway/upstreamConfig';
import { readSettings } from '../src/core/config/readSettings';
import { pctOf, round } from './benchMath';
import { journalFoldRows } from './gatewayJournalFold';
import { coreSetSessionRow } from './gatewayCoreSetSession';
import { benchEngine } from './benchServices';

const root = process.cwd();
const dataDir = path.join(root, 'bench', 'data', 'mcp-catalog');
const catalogServer = path.join(root, 'test', 'fixtures', 'mcp', 'catalogServer.mjs');
const TIERS = [50, 150, 500];
const LATENCY_TIER = 150;
const LATENCY_CALLS = 300;

interface CatalogTool {
  name: string;
  description: string;
  inputSchema: unknown;
  server: string;
  tool: string;
}
interface Request {
  id: number;
  request: string;
  gold: string[];
  kind: 'tool' | 'none';
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);

/** An mcp.json with one catalog server per upstream server of the tier (each limited to the tier's share). */
function writeTierConfig(dir: string, tools: readonly CatalogTool[]): string {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
  const mcpServers = Object.fromEntries(
    [...counts].map(([server, count]) => [
      server,
      {
        command: process.execPath,
        args: [catalogServer, '--file', path.join(dataDir, 'tools.jsonl'), '--server', server, '--limit', String(count), '--name', server],
      },
    ]),
  );
  const file = path.join(dir, `mcp-${tools.length}.json`);
  writeFileSync(file, JSON.stringify({ mcpServers }));
  return file;
}

async function inProcessClient(gateway: McpGateway): Promise<{ client: Client; close(): Promise<void> }> {
  const server = new McpServer({ name: 'toolshed', version: 'bench' });
  registerGatewayTools(server, gateway);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  return { client, close: async () => (await client.close(), await server.close()) };
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const foundNames = (text: string) => [...text.matchAll(/^## (\S+)$/gm)].map((m) => m[1]);

async function tierRow(dir: string, tools: readonly CatalogTool[], requests: readonly Request[]) {
  const config = readUpstreamConfig(writeTierConfig(dir, tools));
  const gateway = await McpGateway.create({ upstreams: config.upstreams, engine: await benchEngine() });
  await gateway.ready();
  const { client, close } = await inProcessClient(gateway);
  try {
    const served = new Set(gateway.status().flatMap((s) => (s.state === 'ready' ? [s.name] : [])));
    const allTokens = tools.reduce((sum, t) => sum + definitionTokens({ name: t.name, description: t.description, inputSchema: t.inputSchema }), 0);
    const listed = (await client.listTools()).tools;
    const listedTokens = listed.reduce((sum, t) => sum + definitionTokens({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema }), 0);
    const inTier = new Set(tools.map((t) => t.name));
    const heldOut = requests.filter((r) => r.id % 2 === 0 && r.kind === 'tool' && r.gold.some((g) => inTier.has(g)));
    const latencies: number[] = [];
    const answerTokens: number[] = [];
    let top5 = 0;
    let withinTwo = 0;
    for (const r of heldOut) {
      const start = performance.now();
      const first = textOf((await client.callTool({ name: 'find_tools', arguments: { query: r.request.slice(0, 500) } })) as CallToolResult);
      latencies.push(performance.now() - start);
      answerTokens.push(estimateTokens(first));
      const hit = foundNames(first).some((n) => r.gold.includes(n));
      if (hit) {
        top5++;
        withinTwo++;
        continue;
      }
      const second = textOf((await client.callTool({ name: 'find_tools', arguments: { query: r.request.slice(0, 500), limit: 10 } })) as CallToolResult);
      if (foundNames(second).some((n) => r.gold.includes(n))) withinTwo++;
    }
    const meanAnswer = answerTokens.reduce((a, b) => a + b, 0) / Math.max(1, answerTokens.length);
    return {
      name: `gateway ${tools.length} tools`,
      tools: tools.length,
      servers: served.size,
      all_tools_tokens: allTokens,
      gateway_listed_tokens: listedTokens,
      reduction: round(1 - listedTokens / allTokens),
      mean_search_answer_tokens: Math.round(meanAnswer),
      reduction_with_one_search_answer: round(1 - (listedTokens + meanAnswer) / allTokens),
      held_out_requests: heldOut.length,
      found_top5: round(top5 / Math.max(1, heldOut.length)),
      found_within_two_searches: round(withinTwo / Math.max(1, heldOut.length)),
      search_p50_ms: round(pctOf(latencies, 0.5), 2),
      search_p95_ms: round(pctOf(latencies, 0.95), 2),
    };
  } finally {
    await close();
    await gateway.close();
  }
}

/**
 * What examples cost: the tools of gateway-examples.tools.yaml pinned (so the gateway lists their
 * definitions), once with the examples file and once without, on the same upstream processes'
 * definitions; tokens per tool with and without its rendered examples.
 */
async function examplesRow(dir: string, tools: readonly CatalogTool[]) {
  const examplesFile = path.join(dataDir, 'gateway-examples.tools.yaml');
  const text = readFileSync(examplesFile, 'utf8');
  const names = [...text.matchAll(/^  (mcp_\S+):$/gm)].map((m) => m[1]);
  const chosen = tools.filter((t) => names.includes(t.name));
  const servers = new Set(chosen.map((t) => t.server));
  const upstreams = readUpstreamConfig(writeTierConfig(dir, tools)).upstreams.filter((u) => servers.has(u.name));
  const settings = readSettings({ tools: { state: Object.fromEntries(names.map((n) => [n, 'always'])) } }).settings;
  const measure = async (withExamples: boolean) => {
    const problems: string[] = [];
    const gateway = await McpGateway.create({
      upstreams,
      settings,
      engine: await benchEngine(),
      log: (line) => problems.push(line),
      ...(withExamples ? { exampleFiles: [{ text, fileName: examplesFile }] } : {}),
    });
    await gateway.ready();
    const tokens = new Map(gateway.listedTools().map((d) => [d.name, definitionTokens(d)]));
    await gateway.close();
    return { tokens, problems };
  };
  const without = await measure(false);
  const withExamples = await measure(true);
  const added = names.map((n) => (withExamples.tokens.get(n) ?? 0) - (without.tokens.get(n) ?? 0));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return {
    name: 'gateway tool examples',
    tools: names.length,
    listed: withExamples.tokens.size,
    example_problems: withExamples.problems.length,
    mean_definition_tokens_without: Math.round(mean(names.map((n) => without.tokens.get(n) ?? 0))),
    mean_definition_tokens_with: Math.round(mean(names.map((n) => withExamples.tokens.get(n) ?? 0))),
    mean_example_tokens_per_tool: Math.round(mean(added)),
    max_example_tokens_per_tool: Math.max(...added),
  };
}

/** A forwarded call through the gateway process vs the same call to the upstream directly (stdio both). */
async function latencyRow(dir: string, tools: readonly CatalogTool[]) {
  const cli = path.join(root, 'dist', 'cli.js');
  if (!existsSync(cli)) return { name: 'gateway forwarded call', skipped: 'dist/cli.js is missing: run `node esbuild.mjs` first' };
  const configFile = writeTierConfig(dir, tools);
  const target = tools[0];
  const direct = new Client({ name: 'bench-direct', version: '1' });
  await direct.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [catalogServer, '--file', path.join(dataDir, 'tools.jsonl'), '--server', target.server, '--name', target.server],
      stderr: 'pipe',
    }),
  );
  const viaGateway = new Client({ name: 'bench-gateway', version: '1' });
  await viaGateway.connect(
    new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--upstream', configFile], env: { TOOLSHED_HOME: dir }, stderr: 'pipe' }),
  );
  const gatewayPid = (viaGateway.transport as StdioClientTransport | undefined)?.pid ?? null;
  try {
    const args = { path: '/tmp' };
    const directMs: number[] = [];
    const gatewayMs: number[] = [];
    let cpuBefore: number | undefined;
    for (let i = 0; i < LATENCY_CALLS + 30; i++) {
      let start = performance.now();
      await direct.callTool({ name: target.tool, arguments: args });
      const d = performance.now() - start;
      start = performance.now();
      const result = (await viaGateway.callTool({ name: 'call_tool', arguments: { name: target.name, arguments: args } })) as CallToolResult;
      const g = performance.now() - start;
      if (result.isError) throw new Error(`forwarded call failed: ${textOf(result)}`);
      if (i === 29) cpuBefore = processCpuOf(gatewayPid);
      if (i < 30) continue; // warm-up
      directMs.push(d);
      gatewayMs.push(g);
    }
    const cpuAfter = processCpuOf(gatewayPid);
    return {
      name: `gateway forwarded call (${tools.length} tools)`,
      load_average: round(loadavg()[0], 1),
      ...(cpuBefore !== undefined && cpuAfter !== undefined ? { gateway_cpu_ms_per_call: round((cpuAfter - cpuBefore) / LATENCY_CALLS, 3) } : {}),
      calls: LATENCY_CALLS,
      direct_p50_ms: round(pctOf(directMs, 0.5), 2),
      direct_p95_ms: round(pctOf(directMs, 0.95), 2),
      gateway_p50_ms: round(pctOf(gatewayMs, 0.5), 2),
      gateway_p95_ms: round(pctOf(gatewayMs, 0.95), 2),
      added_p50_ms: round(pctOf(gatewayMs, 0.5) - pctOf(directMs, 0.5), 2),
      added_p95_ms: round(pctOf(gatewayMs, 0.95) - pctOf(directMs, 0.95), 2),
    };
  } finally {
    await viaGateway.close();
    await direct.close();
  }
}

/** CPU time (user + system, ms) a process has used, from /proc (Linux); undefined elsewhere. */
function processCpuOf(pid: number | null): number | undefined {
  if (pid === null) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the name), in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const catalog = readJsonl<CatalogTool>(path.join(dataDir, 'tools.jsonl'));
  const requests = readJsonl<Request>(path.join(dataDir, 'requests.jsonl'));
  const dir = mkdtempSync(path.join(tmpdir(), 'toolshed-gateway-bench-'));
  const rows: Record<string, unknown>[] = [];
  try {
    for (const tier of TIERS) {
      const row = await tierRow(dir, catalog.slice(0, tier), requests);
      console.error(JSON.stringify(row));
      rows.push(row);
    }
    const examples = await examplesRow(dir, catalog.slice(0, LATENCY_TIER));
    console.error(JSON.stringify(examples));
    rows.push(examples);
    const tierTools = catalog.slice(0, LATENCY_TIER);
    const inTier = new Set(tierTools.map((t) => t.name));
    const session = await coreSetSessionRow(
      dir,
      readUpstreamConfig(writeTierConfig(dir, tierTools)).upstreams,
      requests.filter((r) => r.id % 2 === 0 && r.kind === 'tool' && r.gold.some((g) => inTier.has(g))),
      inProcessClient,
    );
    console.error(JSON.stringify(session));
    rows.push(session);
    const latency = await latencyRow(dir, catalog.slice(0, LATENCY_TIER));
    console.error(JSON.stringify(latency));
    rows.push(latency);
    for (const fold of journalFoldRows(dir)) {
      console.error(JSON.stringify(fold));
      rows.push(fold);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ title: 'MCP gateway (real MCP catalog, held-out half)', rows }));
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
