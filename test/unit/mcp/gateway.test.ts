import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { readSettings } from '../../../src/core/config/readSettings';
import { connectGateway, everything, memory, textOf } from './gatewayHarness';
import type { ConnectedGateway } from './gatewayHarness';
import { tempFolder } from '../../tempFolder';

/**
 * The gateway in front of two real MCP servers from npm (the reference `server-everything` and
 * `server-memory`, started as processes), seen by a real SDK client: what the client is listed,
 * what a search answers, and that calls reach the upstream and come back.
 */

const EXAMPLES = `examples:
  mcp_everything_echo:
    - args: { message: "hello" }
      description: echo a greeting
`;

describe('MCP gateway: search and call through real upstream servers', function () {
  let dir: string;
  let connected: ConnectedGateway;

  before(async () => {
    dir = tempFolder('toolshed-gateway-');
    connected = await connectGateway({
      upstreams: [everything(), memory(path.join(dir, 'memory.jsonl'))],
      settings: readSettings({ tools: { state: { mcp_memory_read_graph: 'always' } } }).settings,
      exampleFiles: [{ text: EXAMPLES, fileName: 'gateway.tools.yaml' }],
    });
  });

  after(async () => {
    await connected?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the client is listed find_tools, call_tool and the pinned tool (with its own schema), not the other upstream tools', async () => {
    const { tools } = await connected.client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    assert.deepEqual(names, ['call_tool', 'find_tools', 'mcp_memory_read_graph']);
    const find = tools.find((tool) => tool.name === 'find_tools');
    assert.match(find?.description ?? '', /everything \(\d+\), memory \(9\)/);
    const pinned = tools.find((tool) => tool.name === 'mcp_memory_read_graph');
    assert.match(pinned?.description ?? '', /knowledge graph/i);
    assert.equal((pinned?.inputSchema as { type?: string }).type, 'object');
  });

  it('a search finds the right upstream tool with its input schema and examples', async () => {
    const text = await connected.find('echo a message back to me');
    const first = /## (\S+)/.exec(text)?.[1];
    assert.equal(first, 'mcp_everything_echo');
    assert.match(text, /Examples:\n- \{ message: hello \}\s+# echo a greeting/);
    assert.match(text, /Input schema: \{"type":"object","properties":\{"message":\{"type":"string"/);
    const search = (await connected.ledger()).filter((d) => d.action === 'search').pop();
    assert.ok(search && search.found[0] === 'mcp_everything_echo' && search.tokens > 0 && !search.failed);
  });

  it('select: returns exactly the named tools', async () => {
    const text = await connected.find('select:mcp_memory_create_entities,mcp_memory_search_nodes');
    assert.deepEqual([...text.matchAll(/## (\S+)/g)].map((m) => m[1]).sort(), ['mcp_memory_create_entities', 'mcp_memory_search_nodes']);
  });

  it("a call reaches server-everything's echo and its answer comes back", async () => {
    const result = await connected.call('mcp_everything_echo', { message: 'through the gateway' });
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), 'Echo: through the gateway');
    const call = (await connected.ledger()).filter((d) => d.action === 'call').pop();
    assert.deepEqual(
      { called: call?.called, server: call?.server, failed: call?.failed },
      { called: 'mcp_everything_echo', server: 'everything', failed: false },
    );
  });

  it('state kept by an upstream survives between calls (server-memory: create, then read back through the pinned tool)', async () => {
    const created = await connected.call('mcp_memory_create_entities', {
      entities: [{ name: 'Gateway', entityType: 'component', observations: ['forwards calls'] }],
    });
    assert.equal(created.isError, undefined, textOf(created));
    const read = await connected.client.callTool({ name: 'mcp_memory_read_graph', arguments: {} });
    assert.match(textOf(read as never), /forwards calls/);
  });

  it('an unknown tool, or arguments that are not an object, get a clear error', async () => {
    const unknown = await connected.call('mcp_everything_no_such_tool', {});
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /Use find_tools to find a tool/);
    const bad = await connected.gateway.call('mcp_everything_echo', 'text');
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /must be a JSON object/);
  });
});
