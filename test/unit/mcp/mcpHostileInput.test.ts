import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { MCP_SEARCH_SKILLS_TOOL_NAME, MCP_SKILL_TOOL_NAMES } from '../../../src/core/platform/toolNames';
import { CLI, OUTSIDE_TEXT, SECRET, startCliServer, textOf, writeSkillPack } from './mcpFixtures';

/**
 * Whatever a model or a broken client sends, `toolshed mcp` answers with an error result (or an
 * ordinary answer) and goes on serving: wrong types, huge strings, control characters, paths
 * that climb out of a skill's folder, garbage on the wire.
 */
describe('toolshed mcp: hostile input gets an error result and the server keeps serving', function () {
  this.timeout(120_000);
  let pack: string;
  let client: Client;

  before(async () => {
    pack = writeSkillPack();
    ({ client } = await startCliServer(['--packs', pack]));
  });

  after(async () => {
    await client?.close();
    rmSync(path.dirname(pack), { recursive: true, force: true });
  });

  const stillServes = async () => {
    const found = textOf(await client.callTool({ name: MCP_SEARCH_SKILLS_TOOL_NAME, arguments: { query: 'plan a database schema migration' } }));
    assert.match(found, /^1\. db-migrate/m);
  };

  const hostileText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: fc.constantFrom('\u0000', '\u001b[2J', '\r', '\n', '\u202e', '<', '>', '/', '\\', '..', '%2e'), maxLength: 60 }),
    fc.constantFrom(
      '../../etc/passwd',
      '..\\..\\windows\\win.ini',
      '/etc/passwd',
      'assets/secret.txt',
      'references/leak.md',
      '../outside/secret.txt',
      'references/../../outside/secret.txt',
    ),
    fc.integer({ min: 20_001, max: 300_000 }).map((n) => 'x'.repeat(n)),
  );
  const hostileValue = fc.oneof(
    hostileText,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 5 }),
    fc.object({ maxDepth: 2 }),
  );

  it('tool calls with hostile arguments: never a thrown error, never text from outside a skill folder, never the secret', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...MCP_SKILL_TOOL_NAMES, 'no_such_tool'),
        fc.record(
          {
            query: hostileValue,
            name: fc.oneof(fc.constant('release-notes'), hostileValue),
            file: hostileValue,
            limit: hostileValue,
            max_tokens: hostileValue,
          },
          { requiredKeys: [] },
        ),
        async (tool, args) => {
          const result = await client.callTool({ name: tool, arguments: args });
          const text = JSON.stringify(result);
          assert.ok(!text.includes(OUTSIDE_TEXT), text.slice(0, 300));
          assert.ok(!text.includes(SECRET), text.slice(0, 300));
          if (tool === 'no_such_tool') assert.equal(result.isError, true);
          assert.ok(text.length < 200_000, 'an answer stays bounded');
        },
      ),
      { numRuns: 80, seed: 2640 },
    );
    await stillServes();
  });

  it('a flood of argument elements is refused before any work', async () => {
    const result = await client.callTool({
      name: MCP_SEARCH_SKILLS_TOOL_NAME,
      arguments: { query: 'release notes', extra: Array.from({ length: 5000 }, (_, i) => i) },
    });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /more than the maximum of 1000 elements/);
    await stillServes();
  });

  it('hostile resource URIs get a clear protocol error and the server keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (tail) => {
        const uri = `skill://release-notes/${encodeURI(tail).slice(0, 5000)}`;
        await client.readResource({ uri }).then(
          (read) => assert.ok(!JSON.stringify(read).includes(OUTSIDE_TEXT)),
          (error: Error) => assert.match(error.message, /MCP error/),
        );
      }),
      { numRuns: 40, seed: 41 },
    );
    await stillServes();
  });

  it('a line that is not JSON-RPC does not stop the server: the next request is answered', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--packs', pack], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const answered = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('"id":7')) resolve();
      }),
    );
    child.stdin.write('this is not json\n{"jsonrpc":"2.0","id":"x","method":42}\n\u0000\u001b[2J\n');
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await answered;
    assert.match(out, /\{"result":\{"protocolVersion".*"id":7\}/);
    child.stdin.end();
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  });
});
