import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import * as path from 'node:path';
import { useFakeEmbeddingServer } from '../search/embedding/fakeEmbeddingServer';
import { cli } from './helpers';
import { tempFolder } from '../../tempFolder';

/** Servers that fail in the ways a local embedding server does; each answers every request the same way. */
const FAILING: Record<string, (res: ServerResponse, input: string[]) => void> = {
  'HTTP 500': (res) => {
    res.writeHead(500);
    res.end('internal error');
  },
  garbage: (res) => res.end('<html>not json</html>'),
  NaN: (res) => res.end('{"embeddings":[[NaN, 1]]}'),
  'wrong count': (res) => res.end(JSON.stringify({ embeddings: [[1, 2, 3]] })),
  'wrong dimensions': (res, input) => res.end(JSON.stringify({ embeddings: input.map((_, i) => Array.from({ length: i + 2 }, () => 1)) })),
  trickle: (res) => {
    res.writeHead(200);
    const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 10);
    res.on('close', () => clearInterval(drip));
  },
  hang: () => undefined,
};

describe('CLI with a failing embedding endpoint (real local HTTP server)', () => {
  const fake = useFakeEmbeddingServer();
  let dir: string;
  let tools: string;
  let queries: string;
  before(() => {
    dir = tempFolder('toolshed-endpoint-cli-');
    tools = path.join(dir, 'tools.jsonl');
    writeFileSync(
      tools,
      [
        { name: 'github_create_issue', description: 'Create a new issue in a GitHub repository', inputSchema: { type: 'object' } },
        { name: 'weather_forecast', description: 'Get the weather forecast for a city', inputSchema: { type: 'object' } },
      ]
        .map((t) => JSON.stringify(t))
        .join('\n'),
    );
    queries = path.join(dir, 'queries.jsonl');
    writeFileSync(queries, `${JSON.stringify({ query: 'open an issue on github', gold: ['github_create_issue'] })}\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, reply] of Object.entries(FAILING)) {
    it(`search tools says once on stderr that the endpoint failed (${name}) and answers lexically`, async () => {
      fake.server.reply = reply;
      const out = await cli(
        'search',
        'tools',
        '--tools',
        tools,
        '--embedder',
        `${fake.base}/api/embed`,
        '--embedder-timeout',
        '300',
        'open an issue on github',
      );
      assert.equal(out.code, 0, out.err);
      assert.match(out.out, /github_create_issue/);
      assert.equal(out.err.match(/fell back to lexical ranking/g)?.length, 1, out.err);
      assert.match(out.err, /^toolshed: embedding endpoint/);
    });
  }

  it('--embedder-timeout sets how long a request may take, and must be a number of milliseconds', async () => {
    const out = await cli('search', 'tools', '--tools', tools, '--embedder', `${fake.base}/hang`, '--embedder-timeout', '200', 'weather');
    assert.match(out.err, /no answer within 200 ms/);
    const bad = await cli('search', 'tools', '--tools', tools, '--embedder', `${fake.base}/api/embed`, '--embedder-timeout', 'soon', 'weather').catch(
      (e: Error) => e,
    );
    assert.match(bad instanceof Error ? bad.message : bad.err, /--embedder-timeout must be a whole number of milliseconds/);
  });

  it('bench tools does not label lexical recall with the endpoint that failed', async () => {
    fake.server.reply = FAILING['HTTP 500'];
    const out = await cli('bench', 'tools', '--tools', tools, '--queries', queries, '--embedder', `${fake.base}/api/embed`, '--json');
    const row = JSON.parse(out.out) as { embedder: string; endpoint_failed?: string };
    assert.equal(row.embedder, 'none');
    assert.match(row.endpoint_failed ?? '', /HTTP 500/);
    assert.equal(out.err.match(/fell back to lexical ranking/g)?.length, 1, out.err);

    fake.server.reply = undefined;
    const working = JSON.parse((await cli('bench', 'tools', '--tools', tools, '--queries', queries, '--embedder', `${fake.base}/api/embed`, '--json')).out) as {
      embedder: string;
      endpoint_failed?: string;
    };
    assert.match(working.embedder, /^endpoint:nomic-embed-text@http:\/\/127\.0\.0\.1/);
    assert.equal(working.endpoint_failed, undefined);
  });

  it('bench skills and search skills say that skill text is sent to an endpoint', async () => {
    for (const command of [
      ['bench', 'skills'],
      ['search', 'skills'],
    ]) {
      const help = await cli(...command, '--help');
      assert.match(help.out, /text of every skill searched \(secrets redacted\) is sent to it/);
      assert.doesNotMatch(help.out, /stays lexical/);
    }
    const pack = path.join(dir, 'pack');
    mkdirSync(pack, { recursive: true });
    writeFileSync(
      path.join(pack, 'triage.skill.md'),
      '---\nname: triage-issues\ntitle: Triage issues\ntrigger: when triaging github issues\nsteps:\n  - Label it.\n---\n',
    );
    await cli('search', 'skills', '--packs', pack, '--embedder', `${fake.base}/api/embed`, 'triage github issues');
    assert.ok(
      fake.server.textsSeen.some((text) => text.includes('triage')),
      'the skill text went to the endpoint',
    );
  });
});
