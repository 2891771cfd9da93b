import { strict as assert } from 'node:assert';
import { connectGateway, everything, fault, nextEvent, textOf } from './gatewayHarness';
import type { ConnectedGateway } from './gatewayHarness';

/**
 * Upstream faults, each with a real misbehaving server process (test/fixtures/mcp/faultServer.mjs)
 * beside server-everything: the model gets an error naming the server, the gateway keeps
 * serving, the other upstream keeps answering, and the faulty one is restarted.
 */

const MESSAGE_CAP = 1024 * 1024;
const RESULT_CAP = 10_000;

describe('MCP gateway: upstream faults are isolated', function () {
  let connected: ConnectedGateway;

  before(async () => {
    connected = await connectGateway({
      upstreams: [everything(), fault('fault'), { name: 'missing', slug: 'missing', command: '/nonexistent/mcp-server', args: [], env: {} }],
      limits: { callTimeoutMs: 4_000, maxMessageBytes: MESSAGE_CAP, restartInitialMs: 20, restartMaxMs: 200 },
      maxResultChars: RESULT_CAP,
    });
  });

  after(async () => {
    await connected?.close();
  });

  const stateOf = (name: string) => connected.gateway.status().find((s) => s.name === name)?.state;
  const readyAgain = (name: string) =>
    nextEvent(connected.gateway.events, 'state', (server, state) => server === name && state === 'ready', stateOf(name) === 'ready');

  /** The other upstream still answers, and so does the faulty one once restarted. */
  async function stillServing(): Promise<void> {
    assert.equal(textOf(await connected.call('mcp_everything_echo', { message: 'still here' })), 'Echo: still here');
    await readyAgain('fault');
    assert.equal(textOf(await connected.call('mcp_fault_echo', { text: 'back' })), 'fault-echo: back');
  }

  it('a server whose command does not exist is reported and the others serve', async () => {
    const missing = connected.gateway.status().find((s) => s.name === 'missing');
    assert.equal(missing?.state === 'ready', false);
    assert.match(missing?.problem ?? '', /did not start/);
    assert.ok(connected.logs.some((line) => line.includes('MCP server "missing" stopped')));
    assert.equal(textOf(await connected.call('mcp_fault_echo', { text: 'hi' })), 'fault-echo: hi');
  });

  it('a crash: the call fails naming the server, then the server is restarted', async () => {
    const startsBefore = connected.gateway.status().find((s) => s.name === 'fault')?.starts ?? 0;
    const result = await connected.call('mcp_fault_crash');
    assert.equal(result.isError, true);
    assert.match(textOf(result), /MCP server "fault" stopped while running crash/);
    await stillServing();
    assert.ok((connected.gateway.status().find((s) => s.name === 'fault')?.starts ?? 0) > startsBefore);
  });

  it('a hang: the call times out with an error naming the server, and the server is restarted', async () => {
    const result = await connected.call('mcp_fault_hang');
    assert.equal(result.isError, true);
    assert.match(textOf(result), /MCP server "fault" did not answer hang within 4\.0 s/);
    await stillServing();
  });

  it('a flood of stderr costs nothing: the call answers', async () => {
    const result = await connected.call('mcp_fault_flood_stderr', { bytes: 16 * 1024 * 1024 });
    assert.equal(textOf(result), 'flooded');
  });

  it('a line over the message cap stops that server with a clear error, not the gateway', async () => {
    const result = await connected.call('mcp_fault_oversize_line', { bytes: 2 * MESSAGE_CAP });
    assert.equal(result.isError, true);
    assert.match(textOf(result), new RegExp(`MCP server "fault" stopped while running oversize_line \\(.*larger than ${MESSAGE_CAP} bytes`));
    await stillServing();
  });

  it('a huge answer is cut at the size cap and says so', async () => {
    const result = await connected.call('mcp_fault_huge', { chars: 300_000 });
    const text = textOf(result);
    assert.ok(text.length < RESULT_CAP + 200, String(text.length));
    assert.match(text, /the answer of MCP server "fault" was cut at 10000 characters/);
  });

  it('a malformed answer is an error naming the server; lines that are not JSON-RPC are skipped', async () => {
    const malformed = await connected.call('mcp_fault_malformed');
    assert.equal(malformed.isError, true);
    assert.match(textOf(malformed), /MCP server "fault" returned a malformed answer to malformed/);
    assert.equal(textOf(await connected.call('mcp_fault_garbage_then_echo', { text: 'ok' })), 'after garbage: ok');
    await stillServing();
  });

  it('a changed tool list (list_changed) is re-indexed: the new tool is found and runs', async () => {
    const reindexed = nextEvent(connected.gateway.events, 'tools', () => connected.gateway.status().some((s) => s.name === 'fault' && s.tools === 10));
    assert.equal(textOf(await connected.call('mcp_fault_grow')), 'grown');
    await reindexed;
    const found = await connected.find('convert a temperature from celsius to fahrenheit');
    assert.equal(/## (\S+)/.exec(found)?.[1], 'mcp_fault_added_later');
    assert.equal(textOf(await connected.call('mcp_fault_added_later', { celsius: 100 })), '212');
  });

  it('every failed call was recorded as failed in the ledger', async () => {
    const failedCalls = (await connected.ledger()).filter((d) => d.action === 'call' && d.failed).map((d) => d.called);
    for (const tool of ['mcp_fault_crash', 'mcp_fault_hang', 'mcp_fault_oversize_line', 'mcp_fault_malformed']) assert.ok(failedCalls.includes(tool), tool);
  });
});
