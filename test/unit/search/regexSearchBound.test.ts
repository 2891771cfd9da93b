import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { ctx, makeService as makeSkillService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';
import { makeService as makeToolService } from '../tools/helpers';
import { HOSTILE_PATTERN_ARB } from './hostilePatterns';

/**
 * A model's regex must never block the host: tool_search and skill_search in regex mode finish
 * every hostile pattern — with results, a "too expensive" refusal, or a note that the budget
 * stopped the scan. A hang fails on mocha's timeout, naming the test; how long each pattern takes
 * is a bench row (bench/safetyBench.ts, "regex guard"), never an assertion here.
 */

function hostileText(i: number): string {
  const fillers = ['a'.repeat(900), 'ab'.repeat(450), `${'x'.repeat(800)}y`, 'create an issue in the repository and deploy it '.repeat(18)];
  return fillers[i % fillers.length]!;
}

describe('regex searches are bounded in work (tool_search, skill_search)', () => {
  it('tool_search: hostile patterns finish: results, a refusal or a budget note, never a hang', async () => {
    const tools = Array.from({ length: 200 }, (_, i) => ({
      name: `mcp_${'a'.repeat(i % 40)}_tool_${i}`,
      description: hostileText(i),
      inputSchema: { type: 'object', properties: {} },
      tags: ['a'.repeat(60), 'read'],
    }));
    const { service } = await makeToolService({ tools });
    await fc.assert(
      fc.asyncProperty(HOSTILE_PATTERN_ARB, async (pattern) => {
        const run = await service.startRun();
        const result = run.search({ query: pattern, search_type: 'regex', limit: 20 });
        if (!result.ok) assert.match(result.error, /Regex rejected/);
      }),
      { numRuns: 25 },
    );
  });

  it('skill_search: hostile patterns finish: results, a refusal or a budget note, never a hang', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) {
      files[`s${i}.skill.yaml`] = stepSkill(
        `pack.h.${'a'.repeat(i % 30)}skill${i}`,
        hostileText(i).slice(0, 400),
        [hostileText(i + 1).slice(0, 300)],
        `title: ${'a'.repeat(50)} ${i}\ntags: [${'a'.repeat(40)}]\n`,
      );
    }
    writeTree(root, files);
    const { service } = await makeSkillService();
    await service.loadPacks([pack('h', root)]);
    await fc.assert(
      fc.asyncProperty(HOSTILE_PATTERN_ARB, async (pattern) => {
        const out = await service.search({ query: pattern, search_type: 'regex', limit: 20 }, ctx);
        if (out.skills.length === 0 && out.note) assert.match(out.note, /Regex rejected|too expensive/);
      }),
      { numRuns: 25 },
    );
  });

  it('a scan that spends its budget stops and tells the model the pattern was too expensive', async () => {
    // Random letters and a pattern just under the size limit whose DFA states do not fit RE2's
    // cache: RE2 falls back to its NFA (linear, but ~100 ms per long text), so the per-search
    // budget ends the scan long before the 300 descriptions are done.
    let seed = 7;
    const letters = (n: number) =>
      Array.from({ length: n }, () => String.fromCharCode(97 + (((seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 8) % 26))).join('');
    const tools = Array.from({ length: 300 }, (_, i) => ({ name: `t${i}`, description: `${letters(995)} !`, inputSchema: { type: 'object' } }));
    const { service } = await makeToolService({ tools });
    const run = await service.startRun();
    const result = run.search({ query: '([a-z]{0,19}[aeiou]){12}!', search_type: 'regex' });
    assert.ok(result.ok);
    assert.match(result.output.note ?? '', /too expensive/);
  });
});
