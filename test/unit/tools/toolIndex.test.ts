import { strict as assert } from 'node:assert';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { lengthTokenCounter } from '../../../src/core/platform/basicPorts';
import { TOOL_INDEX_KEY } from '../../../src/core/tools/index/toolIndex';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { openPersistentDatabase } from '../../../src/core/sql/persistentDatabase';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { ToolIndex } from '../../../src/core/tools/index/toolIndex';
import { toolFieldTerms } from '../../../src/core/tools/index/toolDocument';
import type { ToolRecord } from '../../../src/core/tools/toolRecord';
import { RANKER_DEFAULTS, rankTools } from '../../../src/core/tools/index/toolRanker';
import { engineWithoutFullText } from '../skills/helpers';
import { SAMPLE_TOOLS, makeService } from './helpers';

describe('tool index (sql.js)', () => {
  it('keeps terms in the shared term store (no full-text table, no triggers), and the catalog fingerprint makes re-sync a no-op', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const index = (service as unknown as { index: ToolIndex }).index;
    const names = index.db.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name`).map((r) => r.name);
    assert.deepEqual(
      names.filter((name) => name !== 'toolshed_meta'),
      ['tool_index_meta', 'tool_vocab', 'tools'],
    );
    assert.equal(service.setTools(SAMPLE_TOOLS).skipped, true);
    const changed = SAMPLE_TOOLS.map((t) => (t.name === 'run_in_terminal' ? { ...t, description: 'Execute a zebra command.' } : t));
    const report = service.setTools(changed);
    assert.deepEqual([report.added, report.updated, report.removed, report.unchanged], [0, 1, 0, SAMPLE_TOOLS.length - 1]);
    const count = (q: string) => index.candidateNames([q]).length;
    assert.equal(count('zebra'), 1);
    assert.equal(count('shell'), 0);
    const removed = service.setTools(changed.filter((t) => t.name !== 'run_in_terminal'));
    assert.equal(removed.removed, 1);
    assert.equal(count('zebra'), 0);
    const run = await service.startRun();
    const out = run.search({ query: 'zebra command' });
    assert.ok(out.ok && out.output.tools.length === 0);
  });

  it('persists atomically through the store; a warm start loads and re-indexes nothing', async () => {
    const store = new MemoryByteStore();
    const first = await makeService({ tools: SAMPLE_TOOLS, store });
    await first.service.flush();
    assert.ok(store.entries.has(TOOL_INDEX_KEY));
    await first.service.dispose();
    const second = await makeService({ store });
    assert.equal(second.service.indexStatus.status, 'loaded');
    const report = second.service.setTools(SAMPLE_TOOLS);
    assert.ok(report.skipped, 'fingerprint matched the stored index');
    const out = (await second.service.startRun()).search({ query: 'merge pull request' });
    assert.ok(out.ok && out.output.tools[0].name === 'mcp_github_merge_pull_request');
  });

  it('a corrupt stored index is rebuilt with a logged reason and the old bytes kept', async () => {
    const store = new MemoryByteStore();
    await store.write(TOOL_INDEX_KEY, new TextEncoder().encode('garbage'.repeat(500)));
    const { service, logger } = await makeService({ store, tools: SAMPLE_TOOLS });
    assert.equal(service.indexStatus.status, 'rebuilt');
    assert.ok(service.indexStatus.backupKey && store.entries.has(service.indexStatus.backupKey));
    assert.ok(logger.lines.some((l) => l.message.includes('rebuilt')));
    const out = (await service.startRun()).search({ query: 'weather forecast' });
    assert.ok(out.ok && out.output.tools[0].name === 'weather.get_forecast');
  });

  it('an index written by a sql.js without full-text modules is loaded as is by the published build (the stored form uses none)', async () => {
    const store = new MemoryByteStore();
    const a = await makeService({ store, tools: SAMPLE_TOOLS, engine: await engineWithoutFullText() });
    await a.service.dispose();
    const b = await makeService({ store, tools: SAMPLE_TOOLS });
    assert.equal(b.service.indexStatus.status, 'loaded');
    assert.equal(b.service.setTools(SAMPLE_TOOLS).skipped, true, 'nothing indexed again');
  });

  it('a tools.db of the previous schema (term columns and an FTS table) is upgraded on open with no step by the user: tools indexed again, the pick log kept', async () => {
    const store = new MemoryByteStore();
    const engine = await loadSqlEngine();
    const old = await openPersistentDatabase({
      engine,
      store,
      key: TOOL_INDEX_KEY,
      schemaVersion: 'tools/4/fts4',
      logger: nullLogger,
      createSchema: (db) =>
        db.exec(`CREATE TABLE tools (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, record_hash TEXT NOT NULL, name_terms TEXT NOT NULL);
          CREATE VIRTUAL TABLE tools_fts USING fts4(content="tools", name_terms);
          CREATE TABLE tool_index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
          CREATE TABLE tool_pick_log (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, session TEXT NOT NULL, terms TEXT NOT NULL,
            shown TEXT NOT NULL, picked TEXT, succeeded INTEGER, picked_at INTEGER);
          INSERT INTO tool_pick_log (at, session, terms, shown, picked, succeeded) VALUES (1, 's', 'weather', '["weather.get_forecast"]', 'weather.get_forecast', 1);
          CREATE TRIGGER tools_ai AFTER INSERT ON tools BEGIN INSERT INTO tools_fts(docid, name_terms) VALUES (new.id, new.name_terms); END;
          INSERT INTO tools VALUES (1, 'stale_tool', 'x', 'stale tool');
`),
    });
    await old.save();
    old.close();
    const { service } = await makeService({ store, tools: SAMPLE_TOOLS });
    assert.equal(service.indexStatus.status, 'migrated');
    const out = (await service.startRun()).search({ query: 'weather forecast' });
    assert.ok(out.ok && out.output.tools[0].name === 'weather.get_forecast');
    assert.ok(!service.registry().some((r) => r.name === 'stale_tool'));
    const index = (service as unknown as { index: ToolIndex }).index;
    assert.equal(index.size, SAMPLE_TOOLS.length);
    assert.equal(index.db.get<{ n: number }>('SELECT count(*) AS n FROM tool_pick_log')?.n, 1, 'the pick log survives the upgrade');
    const tables = index.db.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')`).map((r) => r.name);
    assert.ok(!tables.some((name) => name.startsWith('tools_')), tables.join(', '));
  });

  it('non-incremental mode rebuilds everything on change; rebuildIndexOnInit ignores the stored file', async () => {
    const store = new MemoryByteStore();
    const a = await makeService({ store, tools: SAMPLE_TOOLS, toolSearch: { enableIncrementalIndex: false } });
    const report = a.service.setTools([...SAMPLE_TOOLS, { name: 'extra_tool', description: 'More.' }]);
    assert.equal(report.added, SAMPLE_TOOLS.length + 1);
    await a.service.dispose();
    const b = await makeService({ store, toolSearch: { rebuildIndexOnInit: true } });
    assert.equal(b.service.indexStatus.status, 'rebuilt');
  });

  it('policy changes re-apply to the registry and the index at once', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const report = service.updateConfig({ toolSearch: { deny: ['mcp_github_*'] } });
    assert.equal(report.removed, 3);
    assert.ok(service.registry().every((r) => !r.name.startsWith('mcp_github_')));
  });

  it('derives namespace and side effects', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { sideEffects: { 'run_*': 'stateful' }, namespaces: { 'copilot_*': 'vscode' } } });
    const byName = new Map(service.registry().map((r) => [r.name, r]));
    assert.equal(byName.get('mcp_github_create_issue')!.namespace, 'github');
    assert.equal(byName.get('weather.get_forecast')!.namespace, 'weather');
    assert.equal(byName.get('copilot_readFile')!.namespace, 'vscode');
    assert.equal(byName.get('copilot_readFile')!.sideEffects, 'read');
    assert.equal(byName.get('weather.get_forecast')!.sideEffects, 'pure');
    assert.equal(byName.get('run_in_terminal')!.sideEffects, 'stateful');
    assert.equal(byName.get('mcp_github_create_issue')!.sideEffects, 'external');
  });

  it('optional ranker bonuses: coverage from the term statistics, term order from the stored rows', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const index = (service as unknown as { index: ToolIndex }).index;
    const merge = SAMPLE_TOOLS.find((t) => t.name === 'mcp_github_merge_pull_request')!;
    assert.deepEqual(index.fieldTerms(merge.name), toolFieldTerms({ tags: [], ...merge } as ToolRecord));
    assert.equal(index.fieldTerms('no_such_tool'), undefined);
    const query = 'merge pull request';
    const plain = rankTools(index, query, () => true, 3);
    const withBonuses = rankTools(index, query, () => true, 3, { ...RANKER_DEFAULTS, nameCoverageBonus: 1, paramCoverageBonus: 1, bigramBonus: 0.25 });
    assert.equal(plain[0].name, merge.name);
    assert.equal(withBonuses[0].name, merge.name);
    // name terms mcp github merg pull request: 3 of 5 covered; bigrams "merg pull", "pull request" in both name and description.
    // (The plain ranking sums single-precision impacts, hence the tolerance.)
    assert.ok(Math.abs(withBonuses[0].relevance - (plain[0].relevance + 3 / 5 + 2 * 0.25)) < 1e-6, String(withBonuses[0].relevance - plain[0].relevance));
  });
});

describe('token economy', () => {
  it('counts visible definitions + blocks through the port and reports the reduction', async () => {
    const tools = Array.from({ length: 50 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Does thing ${i} with a fairly long description. `.repeat(4),
      inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
    }));
    const { service } = await makeService({ tools: [...tools, { name: 'tool_search', description: 'Search tools.' }] });
    const calls: string[] = [];
    const counter = {
      count: async (text: string) => {
        calls.push(text);
        return lengthTokenCounter.count(text);
      },
    };
    (service as unknown as { options: { tokenCounter: typeof counter } }).options.tokenCounter = counter;
    const run = await service.startRun();
    const report = await run.tokenReport();
    assert.equal(report.visibleTools, 1);
    assert.equal(report.allTools, 51);
    assert.ok(report.reduction > 0.9 && report.reduction < 1);
    assert.ok(calls.some((c) => c.includes('<tool_discovery>')));
    run.resolveCall('tool_3');
    assert.ok((await run.tokenReport()).sentTokens > report.sentTokens);
  });
});
