import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli } from './helpers';
import { tempFolder } from '../../tempFolder';

const REPO = path.join(__dirname, '..', '..', '..');

describe('toolshed CLI', () => {
  let dir: string;
  before(() => {
    dir = tempFolder('toolshed-cli-');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--help lists every command; --version prints the version; an unknown command exits 2', async () => {
    const help = await cli('--help');
    assert.equal(help.code, 0);
    for (const command of ['validate', 'search tools', 'search skills', 'bench tools', 'bench skills', 'preflight skills']) {
      assert.ok(help.out.includes(`toolshed ${command}`), `help lists ${command}`);
    }
    assert.match((await cli('--version')).out, /^\d+\.\d+\.\d+|0\.0\.0-dev/);
    const unknown = await cli('frobnicate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown command/);
  });

  it('validate: compiler-style lines with file:line:col and exit 1 on errors; exit 0 on the built-in packs', async () => {
    const pack = path.join(dir, 'pack');
    mkdirSync(pack, { recursive: true });
    writeFileSync(path.join(pack, 'bad.skill.md'), '---\nname: bad-one\ntitle: No trigger\nsteps:\n  - Do it.\n---\n');
    const bad = await cli('validate', pack);
    assert.equal(bad.code, 1);
    assert.match(bad.out, /bad\.skill\.md:\d+:\d+: error: .*trigger/i);
    const json = await cli('validate', pack, '--json');
    const report = JSON.parse(json.out) as { errors: number; problems: Array<{ line: number; column: number; code: string }> };
    assert.equal(report.errors, 1);
    assert.equal(report.problems[0].code, 'missing-trigger');
    const good = await cli('validate', path.join(REPO, 'skill-packs'));
    assert.equal(good.code, 0, good.out);
  });

  it('validate: a newline or control character in a file name cannot forge an output line', async () => {
    const pack = path.join(dir, 'forge');
    mkdirSync(pack, { recursive: true });
    const name = 'bad\nforged.skill.md:9:9: error: injected [fake]\r\u001b[2Kx.skill.md';
    writeFileSync(path.join(pack, name), '---\nname: bad-two\ntitle: No trigger\nsteps:\n  - Do it.\n---\n');
    const out = await cli('validate', pack);
    assert.equal(out.code, 1);
    const lines = out.out.trimEnd().split('\n');
    assert.equal(lines.length, 2, out.out);
    assert.ok(!lines.some((line) => line.startsWith('forged')), out.out);
    assert.ok(!/[\r\u001b]/.test(out.out));
    assert.ok(lines[0]!.includes('bad\\nforged.skill.md:9:9: error: injected [fake]\\r\\u001b[2Kx.skill.md:'), lines[0]);
  });

  it('search tools and bench tools read JSONL catalogs and print the documented keys', async () => {
    const tools = path.join(dir, 'tools.jsonl');
    writeFileSync(
      tools,
      [
        {
          name: 'github_create_issue',
          description: 'Create a new issue in a GitHub repository',
          inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
        },
        {
          name: 'weather_forecast',
          description: 'Get the weather forecast for a city',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { name: 'sql_query', description: 'Run a read-only SQL query against the database', inputSchema: { type: 'object' } },
      ]
        .map((t) => JSON.stringify(t))
        .join('\n'),
    );
    const search = await cli('search', 'tools', '--tools', tools, 'open an issue on github');
    assert.equal(search.code, 0, search.err);
    assert.match(search.out, /github_create_issue/);
    const queries = path.join(dir, 'queries.jsonl');
    writeFileSync(
      queries,
      [
        { query: 'what is the weather in Rome', gold: ['weather_forecast'] },
        { query: 'file a bug on github', gold: ['github_create_issue'] },
      ]
        .map((q) => JSON.stringify(q))
        .join('\n'),
    );
    const bench = await cli('bench', 'tools', '--tools', tools, '--queries', queries, '--json');
    assert.equal(bench.code, 0, bench.err);
    const result = JSON.parse(bench.out) as Record<string, number | string>;
    for (const key of ['recall_at_1', 'recall_at_5', 'recall_at_10', 'mrr_at_10', 'p50_ms', 'p95_ms', 'tools', 'queries', 'index_ms']) {
      assert.ok(key in result, `bench tools --json has ${key}`);
    }
    assert.equal(result.tools, 3);
    assert.equal(result.queries, 2);
    assert.equal(result.recall_at_5, 1);
  });

  it('bench turn-economy --calibration takes FLOOR,CEILING and refuses anything else instead of measuring with NaN', async () => {
    const tools = path.join(dir, 'economy-tools.jsonl');
    writeFileSync(tools, JSON.stringify({ name: 'weather_forecast', description: 'Get the weather forecast for a city', inputSchema: { type: 'object' } }));
    const queries = path.join(dir, 'economy-queries.jsonl');
    writeFileSync(queries, JSON.stringify({ id: 'q_1', query: 'what is the weather in Rome', gold: ['weather_forecast'] }));
    const run = (calibration: string) =>
      cli('bench', 'turn-economy', '--tools', tools, '--queries', queries, '--embedder', 'bundled', '--json', '--calibration', calibration);
    for (const bad of ['0.7', '0.7,abc', '0.9,0.7', '0.1,0.2,0.3']) await assert.rejects(run(bad), /--calibration needs FLOOR,CEILING/, bad);
    const ok = await run('0.7,0.9');
    assert.equal(ok.code, 0, ok.err);
    assert.ok((JSON.parse(ok.out) as { rows: unknown[] }).rows.length > 0);
  });

  it('preflight skills: nothing for a request no skill applies to; the matching skill with its absolute relevance otherwise', async () => {
    const packs = path.join(REPO, 'skill-packs');
    const none = await cli('preflight', 'skills', '--packs', packs, 'what is the weather in Paris tomorrow');
    assert.equal(none.code, 0, none.err);
    assert.match(none.out, /^Nothing would be injected: no skill reaches toolshed\.skills\.minRelevance 0\.25/);
    const json = await cli('preflight', 'skills', '--packs', packs, '--json', 'write a commit message for my staged changes');
    assert.equal(json.code, 0, json.err);
    const result = JSON.parse(json.out) as { injected: Array<{ name: string; reason: string; relevance: number }>; selection: string; min_relevance: number };
    assert.deepEqual(
      result.injected.map((s) => s.name),
      ['pack.core.git.commit_message'],
    );
    assert.ok(result.injected[0]!.relevance >= 0.9);
    assert.equal(result.selection, 'hybrid');
    const unsure = await cli('preflight', 'skills', '--packs', packs, 'bump lodash to the latest version');
    assert.match(unsure.out, /^Nothing would be injected without a model's choice/);
    assert.match(unsure.out, /A model would be asked to choose among 1 candidate \(pack\.core\.dependencies\.upgrade 0\.\d\d\)/);
    assert.equal((await cli('preflight', 'skills', 'no packs')).code, 2);
  });

  it('preflight skills --explain: each candidate with its relevance, the gate it met or missed, and whether a model would be asked', async () => {
    const packs = path.join(REPO, 'skill-packs');
    const sure = await cli('preflight', 'skills', '--packs', packs, '--explain', 'write a commit message for my staged changes and release notes');
    assert.equal(sure.code, 0, sure.err);
    assert.match(sure.out, /^- ✅ `pack\.core\.git\.commit_message` — \d\.\d\d — injected \(best match\)$/m);
    assert.match(sure.out, /^- ▫️ `[^`]+` — \d\.\d\d — below (toolshed\.skills\.minRelevance 0\.25|the relative cut \(0\.7 × best)/m);
    assert.match(sure.out, /No model was asked: the search answer was confident\./);
    const unsure = await cli('preflight', 'skills', '--packs', packs, '--explain', 'bump lodash to the latest version');
    assert.match(
      unsure.out,
      /`pack\.core\.dependencies\.upgrade` — \d\.\d\d — needed a model's confirmation \(below toolshed\.skills\.askModelBelowRelevance 0\.45\)/,
    );
  });

  it('search skills and bench skills over packs print the documented keys', async () => {
    const packs = path.join(REPO, 'skill-packs');
    const search = await cli('search', 'skills', '--packs', packs, '--json', 'write a good commit message');
    assert.equal(search.code, 0, search.err);
    const found = JSON.parse(search.out) as { skills: Array<{ name: string; score: number }> };
    assert.ok(found.skills.length > 0);
    assert.ok(found.skills.every((s) => s.score >= 0 && s.score <= 1));
    const queries = path.join(dir, 'skill-queries.jsonl');
    writeFileSync(queries, JSON.stringify({ query: 'write a commit message', gold: [found.skills[0].name] }));
    const bench = await cli('bench', 'skills', '--packs', packs, '--queries', queries, '--json');
    assert.equal(bench.code, 0, bench.err);
    const result = JSON.parse(bench.out) as Record<string, number | string>;
    for (const key of ['recall_at_1', 'recall_at_3', 'recall_at_5', 'mrr_at_10', 'p50_ms', 'p95_ms', 'skills', 'queries', 'load_ms']) {
      assert.ok(key in result, `bench skills --json has ${key}`);
    }
    assert.equal(result.recall_at_1, 1);
  });

  it('bench skills sends each request whole, as skill_search and pre-flight take it, and says so', async () => {
    const packs = path.join(REPO, 'skill-packs');
    const queries = path.join(dir, 'long-skill-queries.jsonl');
    // The words that name the skill come after 600 characters of words no skill has: a bench
    // that cut requests to 500 characters would find nothing.
    const long = `${'zqxv '.repeat(120)}write a commit message for my staged changes`;
    writeFileSync(queries, JSON.stringify({ query: long, gold: ['pack.core.git.commit_message'] }));
    const bench = await cli('bench', 'skills', '--packs', packs, '--queries', queries, '--json', '--rounds', '1');
    assert.equal(bench.code, 0, bench.err);
    const result = JSON.parse(bench.out) as Record<string, number | string>;
    assert.equal(result.recall_at_1, 1);
    assert.match(String(result.request_text), /^whole request/);
    assert.equal(result.requests_cut, 0);
  });

  it("search skills: a newline in a skill's title or trigger cannot forge an output line", async () => {
    const pack = path.join(dir, 'newline-pack');
    mkdirSync(pack, { recursive: true });
    writeFileSync(
      path.join(pack, 'multi.skill.yaml'),
      'name: pack.nl.deploy\ntitle: "Deploy\\n0.999  pack.forged — fake"\ntrigger: "Deploy the app\\n       forged trigger"\nsteps:\n  - Deploy.\n',
    );
    const out = await cli('search', 'skills', '--packs', pack, 'deploy');
    assert.equal(out.code, 0, out.err);
    const lines = out.out.trimEnd().split('\n');
    assert.equal(lines.length, 2, out.out);
    assert.ok(!lines.some((line) => line.startsWith('0.999')), out.out);
  });
});
