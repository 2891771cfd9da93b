import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { readSettings } from '../../../../src/core/config/readSettings';
import { decideDeferral, MAX_TOOLS_PER_REQUEST } from '../../../../src/core/tools/modes/deferralDecision';
import { estimateTokens, renderDeferredNamesBlock } from '../../../../src/core/tools/modes/deferredNamesBlock';
import { MAX_SELECT_NAMES } from '../../../../src/core/tools/modes/directSelect';
import { applyStateChoice, groupToolsBySource } from '../../../../src/core/tools/modes/manageToolsModel';
import { ToolStates } from '../../../../src/core/tools/modes/toolStates';
import type { ToolInput } from '../../../../src/core/tools/toolRecord';
import { NO_SUCH_TOOL_MESSAGE } from '../../../../src/core/tools/toolText';
import { SAMPLE_TOOLS, makeService } from '../helpers';

const batch = (count: number, prefix = 'mcp_batch'): ToolInput[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `${prefix}_tool_${String(i).padStart(3, '0')}`,
    description: `Batch tool number ${i}: does thing ${i}.`,
    inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
  }));

const sendAll = (toolCount: number) => decideDeferral({ mode: 'auto', thresholdPercent: 10, maxInputTokens: 128_000, toolCount, definitionTokens: 100 });

describe('tool search mode in a run', () => {
  it('auto with a small catalog sends every permitted tool and adds no discovery blocks', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { deny: ['run_in_terminal'] } });
    const run = await service.startRun();
    run.applyDeferral(sendAll(SAMPLE_TOOLS.length - 1));
    assert.deepEqual(
      run.visibleTools().map((t) => t.name),
      SAMPLE_TOOLS.map((t) => t.name)
        .filter((n) => n !== 'run_in_terminal')
        .sort(),
    );
    assert.deepEqual(run.promptBlocks(), []);
  });

  it('whatever the mode, at most 128 tools are sent; the rest are searchable, named and callable', async () => {
    for (const mode of ['off', 'auto', 'always'] as const) {
      const tools = [...batch(200), ...SAMPLE_TOOLS];
      const { service } = await makeService({ tools, toolSearch: { mode } });
      const run = await service.startRun();
      run.applyDeferral(decideDeferral({ mode, thresholdPercent: 10, maxInputTokens: 128_000, toolCount: tools.length, definitionTokens: 5_000 }));
      const sent = run.visibleTools();
      assert.ok(sent.length <= MAX_TOOLS_PER_REQUEST, `${mode}: ${sent.length} sent`);
      assert.ok(
        sent.some((t) => t.name === 'tool_search'),
        `${mode}: tool_search is always among them`,
      );
      const deferred = run.deferredTools();
      assert.equal(sent.length + deferred.length, tools.length, `${mode}: none dropped`);
      if (mode === 'off') {
        assert.equal(sent.length, MAX_TOOLS_PER_REQUEST);
        assert.equal(run.overCapTools().length, tools.length - MAX_TOOLS_PER_REQUEST);
        assert.match(run.promptBlocks().join('\n'), /<tool_discovery>/, 'over the cap, discovery is offered even in mode off');
      }
      const overflow = deferred[deferred.length - 1]!;
      const found = run.search({ query: `select:${overflow.name}` });
      assert.ok(found.ok && found.output.tools[0]?.name === overflow.name, `${mode}: a deferred tool is reachable`);
      assert.ok(run.resolveCall(overflow.name).ok);
      assert.ok(run.visibleTools().length <= MAX_TOOLS_PER_REQUEST, `${mode}: still capped after activation`);
      assert.ok(run.isVisible(overflow.name), 'the activated one is now sent');
    }
  });

  it('the catalog changing between rounds is picked up at once, capped and policy-filtered', async () => {
    const { service } = await makeService({ tools: batch(10), toolSearch: { mode: 'off' } });
    const run = await service.startRun();
    assert.equal(run.visibleTools().length, 10);
    service.setTools([...batch(300), { name: 'secret_admin', description: 'x' }]);
    assert.equal(run.visibleTools().length, MAX_TOOLS_PER_REQUEST);
    service.updateConfig({ toolSearch: { deny: ['secret_*'] } });
    assert.ok(!run.permittedTools().some((t) => t.name === 'secret_admin'));
    assert.equal(run.resolveCall('secret_admin').ok, false);
  });
});

describe('per-tool state (toolshed.tools.state)', () => {
  it('off hides a tool from listing, search, select and calls, with the same answer as an unknown tool', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolsConfig: { state: { 'mcp_github_*': 'off' } } });
    const run = await service.startRun();
    run.applyDeferral(sendAll(5));
    assert.ok(!run.visibleTools().some((t) => t.name.startsWith('mcp_github_')));
    const search = run.search({ query: 'github issue', include_always_loaded: true });
    assert.ok(search.ok && !search.output.tools.some((t) => t.name.startsWith('mcp_github_')));
    const select = run.search({ query: 'select:mcp_github_create_issue,no_such_tool' });
    const selectUnknown = run.search({ query: 'select:no_such_tool,another_unknown' });
    assert.ok(select.ok && selectUnknown.ok);
    assert.deepEqual(select.output.tools, []);
    assert.equal(select.output.note, selectUnknown.output.note, 'off and unknown read the same');
    assert.ok(!JSON.stringify({ tools: select.output.tools, note: select.output.note }).includes('mcp_github'), 'the off name is not named in the answer');
    const off = run.resolveCall('mcp_github_create_issue');
    assert.deepEqual(off, { ok: false, error: NO_SUCH_TOOL_MESSAGE });
    assert.ok(service.registry().every((t) => !t.name.startsWith('mcp_github_')));
  });

  it('deferred keeps a tool back even when the request sends everything; always sends it when others are deferred', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolsConfig: { state: { copilot_readFile: 'deferred', 'weather.*': 'always' } } });
    const all = await service.startRun();
    all.applyDeferral(sendAll(8));
    assert.ok(!all.isVisible('copilot_readFile'));
    assert.ok(all.isVisible('run_in_terminal'));
    all.end();
    const deferring = await service.startRun();
    assert.ok(deferring.isVisible('weather.get_forecast'));
    assert.ok(!deferring.isVisible('run_in_terminal'));
  });

  it('the most specific pattern wins, tool_search cannot be turned off, and bad entries are reported and ignored', () => {
    const states = new ToolStates({ 'mcp_x_*': 'off', mcp_x_read: 'always', tool_search: 'off', 'bad[': 'off', weird: 'sometimes', '': 'off' });
    assert.equal(states.stateOf('mcp_x_write'), 'off');
    assert.equal(states.stateOf('mcp_x_read'), 'always');
    assert.equal(states.stateOf('tool_search'), undefined);
    assert.deepEqual(states.problems.map((p) => p.pattern).sort(), ['', 'weird']);
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.constantFrom('always', 'deferred', 'off'))), fc.string(), (map, name) => {
        const s = new ToolStates(map);
        const state = s.stateOf(name);
        assert.ok(state === undefined || ['always', 'deferred', 'off'].includes(state));
      }),
    );
  });

  it('settings: unknown states and empty patterns fall back with a named problem; the old enabled setting migrates with a notice', () => {
    const { settings, problems } = readSettings({ tools: { state: { 'mcp_a_*': 'off', mcp_b: 'maybe' } } });
    assert.deepEqual(settings.tools.state, { 'mcp_a_*': 'off' });
    assert.deepEqual(
      problems.map((p) => p.key),
      ['tools.state.mcp_b'],
    );
    const off = readSettings({ toolSearch: { enabled: false } });
    assert.equal(off.settings.toolSearch.mode, 'off');
    assert.match(off.notices[0]!, /deprecated.*toolshed\.toolSearch\.mode/);
    assert.equal(readSettings({ toolSearch: { enabled: true } }).settings.toolSearch.mode, 'auto');
    const both = readSettings({ toolSearch: { enabled: false, mode: 'always' } });
    assert.equal(both.settings.toolSearch.mode, 'always', 'an explicit mode wins');
    assert.equal(readSettings({}).settings.toolSearch.mode, 'auto');
    assert.deepEqual(readSettings({}).notices, []);
  });
});

describe('the tools a deferring request sends', () => {
  it('are exactly the permitted pinned, own and activated tools (looked up, not scanned) — property', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{3,8}$/), { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        async (words, pinnedAt, activatedAt, deniedAt) => {
          const names = words.map((w) => `mcp_${w}`);
          const pinned = new Set(pinnedAt.map((i) => names[i % names.length]));
          const denied = new Set(deniedAt.map((i) => names[i % names.length]));
          const tools: ToolInput[] = names.map((name) => ({ name, description: `Tool ${name}.` }));
          const { service } = await makeService({ tools, toolSearch: { mode: 'always', alwaysLoadedPatterns: [...pinned], deny: [...denied] } });
          const run = await service.startRun();
          const activated = activatedAt.map((i) => names[i % names.length]).filter((n) => !denied.has(n));
          if (activated.length > 0) assert.ok(run.search({ query: `select:${[...new Set(activated)].join(',')}` }).ok);
          const expected = [...new Set([...pinned, ...activated])].filter((n) => !denied.has(n)).sort();
          assert.deepEqual(
            run.visibleTools().map((t) => t.name),
            expected,
          );
          run.end();
          await service.dispose();
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('tool_search select: and the default limit', () => {
  it('select: loads exact names (not globs), activates them, and the default limit is 5', async () => {
    const { service } = await makeService({ tools: [...SAMPLE_TOOLS, ...batch(30)] });
    const run = await service.startRun();
    const picked = run.search({ query: 'select:copilot_readFile, weather.get_forecast' });
    assert.ok(picked.ok);
    assert.deepEqual(
      picked.output.tools.map((t) => [t.name, t.score, t.match_type]),
      [
        ['copilot_readFile', 1, 'exact'],
        ['weather.get_forecast', 1, 'exact'],
      ],
    );
    assert.ok(run.isVisible('copilot_readFile') && run.isVisible('weather.get_forecast'));
    const glob = run.search({ query: 'select:mcp_*' });
    assert.ok(glob.ok && glob.output.tools.length === 0 && /not available/.test(glob.output.note ?? ''));
    const ranked = run.search({ query: 'batch tool thing' });
    assert.ok(ranked.ok);
    assert.equal(ranked.output.tools.length, 5);
  });

  it('a select: with a thousand names is refused clearly or bounded, never a crash', async () => {
    const { service } = await makeService({ tools: batch(50) });
    const run = await service.startRun();
    const huge = run.search({ query: `select:${Array.from({ length: 1000 }, (_, i) => `n${i}`).join(',')}` });
    assert.ok(!huge.ok && /query/.test(huge.error), 'over 500 characters: a clear input error');
    const many = run.search({
      query: `select:${batch(50)
        .slice(0, 30)
        .map((t) => t.name.replace('mcp_batch_tool_', 'mcp_batch_tool_'))
        .join(',')}`.slice(0, 500),
    });
    assert.ok(many.ok);
    assert.ok(many.output.tools.length <= MAX_SELECT_NAMES);
  });
});

describe('<available_deferred_tools>', () => {
  const tools = Array.from({ length: 300 }, (_, i) => ({ name: `mcp_s${i % 7}_tool_${i}`, namespace: `s${i % 7}`, source: 'mcp' }));

  it('groups by namespace, stays within its token cap, and counts what it left out', () => {
    for (const cap of [60, 120, 400, 1000]) {
      const block = renderDeferredNamesBlock(tools, 'names', cap);
      assert.ok(estimateTokens(block) <= cap, `cap ${cap}: ${estimateTokens(block)}`);
      if (block) assert.match(block, /^<available_deferred_tools>\n/);
      if (block) assert.match(block, /\(\+\d+ more; find them with tool_search\)/);
    }
    const full = renderDeferredNamesBlock(tools.slice(0, 4), 'namesAndServers', 400);
    assert.match(full, /s0 \(mcp\): mcp_s0_tool_0\ns1 \(mcp\): mcp_s1_tool_1/);
    assert.equal(renderDeferredNamesBlock(tools, 'off', 400), '');
    assert.equal(renderDeferredNamesBlock(tools, 'names', 0), '');
  });

  it('in a run it lists only permitted deferred tools: denied, off and hidden names never appear', async () => {
    const { service } = await makeService({
      tools: SAMPLE_TOOLS,
      toolSearch: { deny: ['run_in_terminal'] },
      toolsConfig: { state: { 'mcp_github_merge*': 'off' } },
    });
    const run = await service.startRun({ isVisible: (t) => t.name !== 'copilot_findFiles' });
    const text = run.promptBlocks().join('\n');
    assert.match(text, /mcp_github_create_issue/);
    for (const hidden of ['run_in_terminal', 'mcp_github_merge_pull_request', 'copilot_findFiles']) assert.ok(!text.includes(hidden), hidden);
  });
});

describe('Manage Tools model', () => {
  it('groups by source with one group per MCP server (under its mcp.json name) and shows the current state', () => {
    const groups = groupToolsBySource(
      [
        { name: 'mcp_github_create_issue', source: { kind: 'mcp', server: 'github', label: 'github' } },
        { name: 'send_to_terminal', source: { kind: 'builtin' } },
        { name: 'mcp_memory-server_read_graph', source: { kind: 'mcp', server: 'memory-server', label: 'memory' } },
        { name: 'fixture_weather', source: { kind: 'extension', extension: 'Fixture Tools' } },
        { name: 'tool_search', source: { kind: 'toolshed' } },
      ],
      { 'mcp_github_*': 'off', send_to_terminal: 'always' },
    );
    assert.deepEqual(
      groups.map((g) => g.label),
      ['Built-in (VS Code)', 'Toolshed', 'Extension Fixture Tools', 'MCP server github', 'MCP server memory'],
    );
    assert.deepEqual(groups[0]!.tools, [{ name: 'send_to_terminal', state: 'always' }]);
    assert.equal(groups[3]!.server, 'github');
    assert.equal(groups[3]!.tools[0]!.state, 'off');
    assert.deepEqual([groups[4]!.server, groups[4]!.serverLabel], ['memory-server', 'memory'], 'the state pattern keeps the tool-name prefix');
  });

  it('a server choice replaces single-tool entries of that server; default removes the entry; bad entries are dropped', () => {
    const current = { mcp_github_create_issue: 'always', 'mcp_jira_*': 'deferred', junk: 'maybe' } as Record<string, unknown>;
    assert.deepEqual(applyStateChoice(current, { kind: 'server', server: 'github' }, 'off'), { 'mcp_jira_*': 'deferred', 'mcp_github_*': 'off' });
    assert.deepEqual(applyStateChoice(current, { kind: 'tool', name: 'mcp_github_create_issue' }, 'default'), { 'mcp_jira_*': 'deferred' });
    assert.deepEqual(applyStateChoice({}, { kind: 'tool', name: 'a' }, 'deferred'), { a: 'deferred' });
  });
});
