import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { decideDeferral, MAX_TOOLS_PER_REQUEST } from '../../../../src/core/tools/modes/deferralDecision';
import { countUncatalogued, deferredHeading, sentListHeading } from '../../../../src/core/tools/modes/toolsReport';
import { mcpServerLabel, mcpServersOf, toolSourceFrom } from '../../../../src/core/tools/modes/toolSources';
import { parseJsonWithComments } from '../../../../src/core/schema/jsonWithComments';
import type { ToolInput } from '../../../../src/core/tools/toolRecord';
import { makeService } from '../helpers';

const batch = (count: number): ToolInput[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `mcp_batch_tool_${String(i).padStart(3, '0')}`,
    description: `Batch tool ${i}.`,
    inputSchema: { type: 'object' },
  }));

describe('/tools tells the truth about what is sent', () => {
  it('names the caller hides take no slot of the 128-tool cap and are neither deferred nor found', async () => {
    const own = ['tool_search', 'tool_invoke'].map((name) => ({ name, description: `Toolshed's ${name}.`, inputSchema: { type: 'object' } }));
    const { service } = await makeService({ tools: [...own, ...batch(300)], toolSearch: { mode: 'off' } });
    const run = await service.startRun();
    const hidden = new Set(['tool_invoke', 'skill']);
    run.applyDeferral(decideDeferral({ mode: 'off', thresholdPercent: 10, maxInputTokens: 128_000, toolCount: 300, definitionTokens: 5_000 }), hidden);
    const sent = run.visibleTools().map((t) => t.name);
    assert.equal(sent.length, MAX_TOOLS_PER_REQUEST, 'the model gets 128');
    assert.ok(!sent.includes('tool_invoke'));
    assert.ok(!run.deferredTools().some((t) => hidden.has(t.name)), 'not listed as deferred either');
    const found = run.search({ query: 'select:tool_invoke' });
    assert.ok(found.ok && found.output.tools.length === 0, 'tool_search does not offer a hidden name');
  });

  it('a tool outside the catalog is "turned off by you" only when the user turned it off; else it is starting; policy denials are not counted', () => {
    const counts = countUncatalogued(['a', 'b', 'c', 'secret', 'd'], {
      catalogued: (name) => name === 'd',
      policyAllowed: (name) => name !== 'secret',
      offByUser: (name) => name === 'a',
    });
    assert.deepEqual(counts, { offByUser: 1, starting: 2 });
  });

  it('the sent list is named for why it is sent, and the cap is said when it bit', () => {
    assert.equal(
      sentListHeading({ reason: 'mode_off' }, 110),
      `Sent because tool search mode is off, up to the ${MAX_TOOLS_PER_REQUEST}-tool limit per request`,
    );
    assert.equal(sentListHeading({ reason: 'under_threshold' }, 0), 'Sent because all definitions fit the auto threshold');
    assert.match(deferredHeading(110), /110 over the 128-tool limit/);
    assert.doesNotMatch(deferredHeading(0), /limit/);
  });
});

describe('Manage Tools sources from what VS Code gives', () => {
  const servers = mcpServersOf(
    parseJsonWithComments(`{
    // the user's names
    "servers": {
      "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] },
      "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp/work"], },
    },
  }`),
  );
  const facts = {
    ownTools: new Set(['tool_search']),
    declaredBy: (name: string) => (name === 'copilot_readFile' ? 'GitHub Copilot Chat' : undefined),
    mcpServers: servers,
  };

  it('reads mcp.json with comments and trailing commas', () => {
    assert.deepEqual(
      servers.map((s) => s.name),
      ['memory', 'filesystem'],
    );
  });

  it("MCP tools by tag under their mcp.json names (VS Code truncates its prefixes); VS Code's own tools are built-in, not extensions", () => {
    assert.deepEqual(toolSourceFrom({ name: 'mcp_memory-server_read_graph', tags: ['mcp'] }, facts), { kind: 'mcp', server: 'memory-server', label: 'memory' });
    assert.deepEqual(toolSourceFrom({ name: 'mcp_secure-filesy_read_file', tags: ['mcp'] }, facts), {
      kind: 'mcp',
      server: 'secure-filesy',
      label: 'filesystem',
    });
    assert.deepEqual(toolSourceFrom({ name: 'send_to_terminal', tags: [] }, facts), { kind: 'builtin' });
    assert.deepEqual(toolSourceFrom({ name: 'copilot_readFile', tags: [] }, facts), { kind: 'extension', extension: 'GitHub Copilot Chat' });
    assert.deepEqual(toolSourceFrom({ name: 'tool_search', tags: [] }, facts), { kind: 'toolshed' });
    assert.equal(mcpServerLabel('unrelated', servers), 'unrelated', 'no match: the prefix');
    assert.equal(mcpServerLabel('memory', [...servers, { name: 'memory-two', args: ['memory'] }]), 'memory', 'an exact name wins');
    assert.equal(
      mcpServerLabel('tools', [
        { name: 'a', args: ['tools-x'] },
        { name: 'b', args: ['tools-y'] },
      ]),
      'tools',
      'a tie is not guessed',
    );
    assert.equal(mcpServerLabel('memory-server', [...servers, ...servers]), 'memory', 'one server read from two places is no tie');
  });

  it('hostile mcp.json text never throws and is either JSON or nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const value = parseJsonWithComments(text);
        assert.doesNotThrow(() => mcpServersOf(value));
      }),
      { numRuns: 2000 },
    );
    assert.deepEqual(parseJsonWithComments('{"a": "//not a comment", "b": "/* nor this */",}'), { a: '//not a comment', b: '/* nor this */' });
    assert.equal(parseJsonWithComments('{"a": '), undefined);
  });
});
