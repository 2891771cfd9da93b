import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { toolshedOwnTools } from '../../../src/cli/commands/toolCliSupport';
import { SAMPLE_TOOLS, makeService } from '../tools/helpers';
import { cli } from './helpers';
import { tempFolder } from '../../tempFolder';

describe('toolshed preflight tools', () => {
  let dir: string;
  let toolsFile: string;
  before(() => {
    dir = tempFolder('toolshed-preflight-');
    toolsFile = path.join(dir, 'tools.jsonl');
    // Toolshed's own tool_search is added by the command, as in the extension.
    writeFileSync(
      toolsFile,
      SAMPLE_TOOLS.filter((t) => t.name !== 'tool_search')
        .map((t) => JSON.stringify(t))
        .join('\n'),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints what the extension would activate, with the same relevance ToolRun.activateForRequest gives', async () => {
    const request = 'What is the weather forecast for Oslo for the next 3 days?';
    const json = await cli('preflight', 'tools', '--tools', toolsFile, '--json', request);
    assert.equal(json.code, 0, json.err);
    const report = JSON.parse(json.out) as { max: number; min_relevance: number; activated: Array<{ name: string; relevance: number }> };
    assert.equal(report.max, 4, "the extension's default");
    assert.equal(report.min_relevance, 0.2);
    const { service } = await makeService({ tools: [...SAMPLE_TOOLS.filter((t) => t.name !== 'tool_search'), ...toolshedOwnTools()] });
    const expected = (await service.startRun()).activateForRequest(request);
    assert.deepEqual(
      report.activated.map((t) => t.name),
      expected.map((t) => t.name),
    );
    assert.deepEqual(
      report.activated.map((t) => t.relevance),
      expected.map((t) => Math.round(t.relevance * 100) / 100),
    );
    const text = await cli('preflight', 'tools', '--tools', toolsFile, request);
    assert.match(text.out, /^\d\.\d\d {2}weather\.get_forecast$/m);
  });

  it('says so when nothing passes the gate or pre-activation is off; bad flags exit 2', async () => {
    const none = await cli('preflight', 'tools', '--tools', toolsFile, 'write a birthday poem for my aunt');
    assert.match(none.out, /No tool reaches relevance 0\.2/);
    const longPoem = await cli('preflight', 'tools', '--tools', toolsFile, 'Write a birthday poem for my aunt, who loves gardens and old films. '.repeat(10));
    assert.match(longPoem.out, /No tool reaches relevance 0\.\d+ \(in any one sentence, the minimum for a long request\)/);
    const off = await cli('preflight', 'tools', '--tools', toolsFile, '--max', '0', '--json', 'weather forecast for Oslo');
    assert.deepEqual(JSON.parse(off.out).activated, []);
    const bad = await cli('preflight', 'tools', '--tools', toolsFile, '--min-relevance', '2', 'weather');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--min-relevance/);
    assert.equal((await cli('preflight', 'tools', 'weather')).code, 2);
  });

  it('--explain: every candidate the gate looked at, with its relevance and why it was or was not activated', async () => {
    const request = 'What is the weather forecast for Oslo for the next 3 days?';
    const text = await cli('preflight', 'tools', '--tools', toolsFile, '--explain', request);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /the gate: relevance ≥ 0\.20 \(`toolshed\.toolSearch\.minRelevance`\)/);
    assert.match(text.out, /^- ✅ `weather\.get_forecast` — \d\.\d\d \(matched: days, forecast, weather\) — activated before round 1$/m);
    const json = JSON.parse((await cli('preflight', 'tools', '--tools', toolsFile, '--explain', '--json', request)).out) as {
      activated: Array<{ name: string }>;
      explain: { candidates: Array<{ name: string; activated: boolean; decision: string }> };
    };
    assert.deepEqual(
      json.explain.candidates.filter((c) => c.activated).map((c) => c.name),
      json.activated.map((t) => t.name),
      'the explanation and the activation are the same decision',
    );
    for (const candidate of json.explain.candidates.filter((c) => !c.activated)) assert.match(candidate.decision, /^(below|over the cap|passed)/);
  });
});
