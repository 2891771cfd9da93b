import { strict as assert } from 'node:assert';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SKILL_TOOL_NAMES } from '../../../src/core/platform/toolNames';
import { DOOR_JOURNAL_FILE, doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import { CORE_SET_RULES } from '../../../src/core/ledger/learnedCoreSet';
import { gatewayDoorRecorder } from '../../../src/mcp/gateway/gatewayLedger';
import { everything, memory, textOf } from './gatewayHarness';
import { tempFolder } from '../../tempFolder';

/**
 * End to end over stdio: `toolshed mcp --upstream` as its own process (the CLI's source, run with tsx),
 * upstreams read from a Claude Code `.mcp.json` and a VS Code `mcp.json`, a real SDK client.
 * With `--expose found` the client — which refreshes on `notifications/tools/list_changed` —
 * gets the tools a search found as real tools it can call directly. Searches and calls land in
 * the workspace's door journal (the ledger), and the learned core set folded from that journal is
 * listed to the next gateway process of the workspace.
 */

/** The skills server's own tools, served beside the gateway's by the same command. */
const SKILL_TOOLS = new Set<string>(MCP_SKILL_TOOL_NAMES);
const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.ts');

interface Started {
  client: Client;
  stderr: string[];
  refreshed: Tool[][];
  waitForRefresh(accept: (tools: Tool[]) => boolean): Promise<Tool[]>;
}

async function startGatewayProcess(args: string[], home: string): Promise<Started> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CLI, 'mcp', ...args],
    env: { TOOLSHED_HOME: home },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const refreshed: Tool[][] = [];
  const waiters: { accept: (tools: Tool[]) => boolean; resolve: (tools: Tool[]) => void }[] = [];
  const client = new Client(
    { name: 'sdk-client', version: '1' },
    {
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (error, tools) => {
            if (error || !tools) return;
            refreshed.push(tools);
            for (const waiter of waiters.filter((w) => w.accept(tools))) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(tools);
            }
          },
        },
      },
    },
  );
  await client.connect(transport);
  return {
    client,
    stderr,
    refreshed,
    waitForRefresh: (accept) => {
      const seen = refreshed.find(accept);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ accept, resolve }));
    },
  };
}

describe('MCP gateway over stdio (a real gateway process and a real SDK client)', function () {
  let dir: string;
  let claudeConfig: string;
  let vscodeConfig: string;
  let settingsFile: string;

  before(() => {
    dir = tempFolder('toolshed-gateway-stdio-');
    const e = everything();
    const m = memory(path.join(dir, 'memory.jsonl'));
    claudeConfig = path.join(dir, '.mcp.json');
    writeFileSync(claudeConfig, JSON.stringify({ mcpServers: { everything: { command: e.command, args: e.args } } }));
    vscodeConfig = path.join(dir, 'mcp.json');
    writeFileSync(
      vscodeConfig,
      `{
        // VS Code's format: "servers", comments, an HTTP server the gateway cannot start
        "servers": {
          "memory": { "type": "stdio", "command": ${JSON.stringify(m.command)}, "args": ${JSON.stringify(m.args)}, "env": ${JSON.stringify(m.env)} },
          "remote": { "type": "http", "url": "https://example.invalid/mcp" },
        },
      }`,
    );
    settingsFile = path.join(dir, 'settings.json');
    writeFileSync(settingsFile, JSON.stringify({ 'toolshed.tools.state': { mcp_memory_read_graph: 'always' } }));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--expose found: a found tool appears as a real tool the client can call; skipped entries are reported', async () => {
    const started = await startGatewayProcess(['--upstream', claudeConfig, '--upstream', vscodeConfig, '--settings', settingsFile, '--expose', 'found'], dir);
    try {
      const before = (await started.client.listTools()).tools
        .map((t) => t.name)
        .filter((n) => !SKILL_TOOLS.has(n))
        .sort();
      assert.deepEqual(before, ['call_tool', 'find_tools', 'mcp_memory_read_graph']);
      const found = (await started.client.callTool({ name: 'find_tools', arguments: { query: 'echo a message back' } })) as CallToolResult;
      assert.match(textOf(found), /## mcp_everything_echo/);
      const tools = await started.waitForRefresh((list) => list.some((t) => t.name === 'mcp_everything_echo'));
      const echo = tools.find((t) => t.name === 'mcp_everything_echo');
      assert.deepEqual((echo?.inputSchema as { required?: string[] }).required, ['message']);
      // The upstream says echo only reads; listed as a real tool it still says so (a client that runs
      // read-only tools without asking, as Codex does, relies on it), and find_tools says it of itself.
      assert.equal(echo?.annotations?.readOnlyHint, true);
      assert.equal(tools.find((t) => t.name === 'find_tools')?.annotations?.readOnlyHint, true);
      assert.equal(tools.find((t) => t.name === 'call_tool')?.annotations?.readOnlyHint, undefined);
      const direct = (await started.client.callTool({ name: 'mcp_everything_echo', arguments: { message: 'direct' } })) as CallToolResult;
      assert.equal(textOf(direct), 'Echo: direct');
      assert.match(started.stderr.join(''), /server "remote": skipped: type "http" is not a local \(stdio\) server/);
    } finally {
      await started.client.close();
    }
  });

  it('--expose search (default): the list stays find_tools + call_tool + pins; found tools run through call_tool', async () => {
    const started = await startGatewayProcess(['--upstream', claudeConfig, '--upstream', vscodeConfig, '--settings', settingsFile], dir);
    try {
      await started.client.callTool({ name: 'find_tools', arguments: { query: 'echo a message back' } });
      const after = (await started.client.listTools()).tools
        .map((t) => t.name)
        .filter((n) => !SKILL_TOOLS.has(n))
        .sort();
      assert.deepEqual(after, ['call_tool', 'find_tools', 'mcp_memory_read_graph']);
      assert.ok(started.refreshed.every((list) => !list.some((t) => t.name === 'mcp_everything_echo')));
      const result = (await started.client.callTool({
        name: 'call_tool',
        arguments: { name: 'mcp_everything_echo', arguments: { message: 'via call_tool' } },
      })) as CallToolResult;
      assert.equal(textOf(result), 'Echo: via call_tool');
      // The ledger: both decisions in the workspace's door journal, under the client's name. They
      // are written once the answer has gone out: one more request and its answer come after them.
      await started.client.listTools();
      const journal = readFileSync(path.join(doorFolderFor(process.cwd(), dir), DOOR_JOURNAL_FILE), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { door: string; runtime: string; action: string; skills: string[]; searches: number; tokens: number });
      const search = journal.find((e) => e.action === 'find_tools' && e.skills.includes('mcp_everything_echo'));
      const call = journal.find((e) => e.action === 'call_tool' && e.skills.includes('mcp_everything_echo'));
      assert.ok(search && search.door === 'mcp' && search.runtime === 'sdk-client' && search.searches === 1 && search.tokens > 0, JSON.stringify(journal));
      assert.ok(call && call.searches === 0 && call.tokens > 0, JSON.stringify(journal));
    } finally {
      await started.client.close();
    }
  });

  it('the learned core set: a tool earlier gateway processes had to search for is listed from the first tools/list of the next one', async () => {
    // Earlier sessions of this workspace (the folder the runtime starts the server in), as their gateways recorded them.
    const record = gatewayDoorRecorder(
      process.cwd(),
      () => 'earlier-client',
      (line) => assert.fail(line),
      dir,
    );
    for (let i = 0; i < CORE_SET_RULES.promoteAt; i++)
      record({ at: Date.now(), action: 'call', request: 'echo', tokens: 5, found: [], called: 'mcp_everything_echo', failed: false, missed: true });
    const started = await startGatewayProcess(['--upstream', claudeConfig, '--upstream', vscodeConfig, '--settings', settingsFile], dir);
    try {
      const tools = (await started.client.listTools()).tools.filter((t) => !SKILL_TOOLS.has(t.name));
      assert.deepEqual(tools.map((t) => t.name).sort(), ['call_tool', 'find_tools', 'mcp_everything_echo', 'mcp_memory_read_graph']);
      assert.match(tools.find((t) => t.name === 'find_tools')?.description ?? '', /no search needed .*mcp_everything_echo/);
      const direct = (await started.client.callTool({ name: 'mcp_everything_echo', arguments: { message: 'learned' } })) as CallToolResult;
      assert.equal(textOf(direct), 'Echo: learned');
      assert.match(started.stderr.join(''), /mcp_everything_echo is listed directly since .* \(learned core set\)/);
    } finally {
      await started.client.close();
    }
  });
});
