import { strict as assert } from 'node:assert';
import { REGEX_SCORES } from '../../../src/core/search/scoring';
import { toolSearchInputJsonSchema, toolSearchOutputSchema } from '../../../src/core/tools/toolSearchSchema';
import type { ToolSearchOutput } from '../../../src/core/tools/toolSearchSchema';
import type { ToolRun } from '../../../src/core/tools/toolRun';
import { engineWithoutFullText } from '../skills/helpers';
import { SAMPLE_TOOLS, makeService } from './helpers';

function ok(result: ReturnType<ToolRun['search']>): ToolSearchOutput {
  if (!result.ok) throw new Error(result.error);
  toolSearchOutputSchema.parse(result.output);
  return result.output;
}

describe('tool_search: contract', () => {
  it('input schema is the reference schema (JSON Schema for VS Code)', () => {
    const schema = toolSearchInputJsonSchema() as { required: string[]; properties: Record<string, Record<string, unknown>> };
    assert.deepEqual(schema.required, ['query']);
    assert.deepEqual(schema.properties.search_type.enum, ['fts', 'regex', 'exact']);
    assert.equal(schema.properties.search_type.default, 'fts');
    assert.deepEqual([schema.properties.limit.minimum, schema.properties.limit.maximum, schema.properties.limit.default], [1, 20, 5]);
    assert.equal(schema.properties.include_always_loaded.default, false);
  });

  it('rejects invalid input with a message a model can act on', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const run = await service.startRun();
    for (const bad of [{}, { query: '' }, { query: 'x', limit: 0 }, { query: 'x', limit: 21 }, { query: 'x', search_type: 'semantic' }, 'nope']) {
      const result = run.search(bad);
      assert.ok(!result.ok);
      assert.match(result.error, /Invalid tool_search input.*Expected/);
    }
  });

  it('fts: scores in [0,1], best = 1, worst = 0, order deterministic, only deferred by default', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const run = await service.startRun();
    const out = ok(run.search({ query: 'create a github issue' }));
    assert.equal(out.search_type, 'fts');
    assert.equal(out.tools[0].name, 'mcp_github_create_issue');
    assert.ok(out.tools.every((t) => t.score >= 0 && t.score <= 1 && t.match_type === 'fts' && t.loading_mode === 'deferred'));
    assert.equal(out.tools[0].score, 1);
    if (out.tools.length > 1) assert.equal(out.tools[out.tools.length - 1].score, 0);
    for (let i = 1; i < out.tools.length; i++) assert.ok(out.tools[i - 1].score >= out.tools[i].score);
    assert.ok(!out.tools.some((t) => t.name === 'tool_search'));
    assert.match(out.tools[0].parameters ?? '', /repo: string, title: string, body\?: string/);
    const again = ok((await service.startRun()).search({ query: 'create a github issue' }));
    assert.deepEqual(again, out);
  });

  it('fts: a single result scores 0.5 (min-max over equal values)', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const out = ok((await service.startRun()).search({ query: 'weather forecast', limit: 1 }));
    assert.equal(out.tools.length, 1);
    assert.equal(out.tools[0].score, 0.5);
  });

  it('include_always_loaded returns always-visible tools too', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const out = ok((await service.startRun()).search({ query: 'search tools', include_always_loaded: true }));
    const hit = out.tools.find((t) => t.name === 'tool_search');
    assert.ok(hit);
    assert.equal(hit.loading_mode, 'always');
  });

  it('limit is capped by maxSearchResults', async () => {
    const tools = Array.from({ length: 30 }, (_, i) => ({ name: `tool_${i}`, description: 'common widget helper' }));
    const { service } = await makeService({ tools, toolSearch: { maxSearchResults: 4 } });
    assert.equal(ok((await service.startRun()).search({ query: 'widget', limit: 20 })).tools.length, 4);
  });

  it('exact: score 1.0, by name, several names, case-insensitive fallback', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const run = await service.startRun();
    const one = ok(run.search({ query: 'copilot_readFile', search_type: 'exact' }));
    assert.deepEqual(
      one.tools.map((t) => [t.name, t.score, t.match_type]),
      [['copilot_readFile', 1, 'exact']],
    );
    const two = ok(run.search({ query: 'COPILOT_READFILE, run_in_terminal', search_type: 'exact' }));
    assert.deepEqual(two.tools.map((t) => t.name).sort(), ['copilot_readFile', 'run_in_terminal']);
    assert.equal(ok(run.search({ query: 'nope', search_type: 'exact' })).tools.length, 0);
  });

  it('regex: tiers full name 0.95 / prefix 0.90 / substring 0.85 / description-or-tags 0.75', async () => {
    const tools = [
      { name: 'issue', description: 'x' },
      { name: 'issue_tracker', description: 'x' },
      { name: 'github_issue_list', description: 'x' },
      { name: 'tracker', description: 'Track an issue.' },
      { name: 'tagged', description: 'nothing', tags: ['issue-related'] },
      { name: 'unrelated', description: 'nothing' },
    ];
    const { service } = await makeService({ tools });
    const out = ok((await service.startRun()).search({ query: 'issue', search_type: 'regex', limit: 20 }));
    assert.deepEqual(
      out.tools.map((t) => [t.name, t.score]),
      [
        ['issue', REGEX_SCORES.fullName],
        ['issue_tracker', REGEX_SCORES.namePrefix],
        ['github_issue_list', REGEX_SCORES.nameSubstring],
        ['tagged', REGEX_SCORES.descriptionOrTags],
        ['tracker', REGEX_SCORES.descriptionOrTags],
      ],
    );
    assert.ok(out.tools.every((t) => t.match_type === 'regex'));
  });

  it('regex: a dangerous pattern is refused with an actionable error, not run', async () => {
    const { service, events } = await makeService({ tools: SAMPLE_TOOLS });
    const result = (await service.startRun()).search({ query: '.{0,99}'.repeat(8), search_type: 'regex' });
    assert.ok(!result.ok);
    assert.match(result.error, /too expensive/);
    assert.equal(events.ofType('tool_search_query').length, 1);
  });

  it('ordering ties: preferred namespace, side effects, shorter name, name', async () => {
    const tools = [
      { name: 'b_zeta_tool', description: 'same', tags: ['stateful'] },
      { name: 'a_tool_long', description: 'same', tags: ['pure'] },
      { name: 'a_tool', description: 'same', tags: ['pure'] },
      { name: 'c_tool', description: 'same', tags: ['read'] },
      { name: 'pref.x_tool_longest', description: 'same', tags: ['stateful'] },
      { name: 'b_tool', description: 'same', tags: ['pure'] },
    ];
    const { service } = await makeService({ tools, toolSearch: { preferredNamespaces: ['pref'] } });
    const out = ok((await service.startRun()).search({ query: 'same', search_type: 'regex', limit: 20 }));
    assert.deepEqual(
      out.tools.map((t) => t.name),
      ['pref.x_tool_longest', 'a_tool', 'b_tool', 'a_tool_long', 'c_tool', 'b_zeta_tool'],
    );
  });
});

describe('tool_search: ranked search on any sql.js build', () => {
  it('a sql.js without full-text modules ranks as the published build does: same tools, same scores, search_type fts', async () => {
    const queries = ['read a file', 'run a command in the terminal', 'search the workspace for text'];
    const published = await (await makeService({ tools: SAMPLE_TOOLS })).service.startRun();
    const bare = await (await makeService({ tools: SAMPLE_TOOLS, engine: await engineWithoutFullText() })).service.startRun();
    for (const query of queries) {
      const expected = ok(published.search({ query }));
      const got = ok(bare.search({ query }));
      assert.equal(got.search_type, 'fts', query);
      assert.ok(got.tools.length > 0 && got.tools.every((t) => t.match_type === 'fts'), query);
      assert.deepEqual(got, expected, query);
    }
    assert.equal(ok(bare.search({ query: 'read a file' })).tools[0].name, 'copilot_readFile');
  });

  it('exact and regex behave the same without full-text modules', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, engine: await engineWithoutFullText() });
    const run = await service.startRun();
    assert.equal(ok(run.search({ query: 'run_in_terminal', search_type: 'exact' })).tools[0].name, 'run_in_terminal');
    const regex = ok(run.search({ query: '^copilot_read', search_type: 'regex' }));
    assert.equal(regex.tools[0].name, 'copilot_readFile');
    assert.ok(regex.tools.every((t) => Object.values(REGEX_SCORES).includes(t.score as never)));
  });
});
