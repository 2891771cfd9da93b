import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';
import type { ToolGate } from '../../../src/core/skills/render/toolReferenceGate';
import { makeService, pack, tempDir, writeTree } from './helpers';

/**
 * Cutting text to a budget must never create a denied name: an allowed `deploy_prod_eu` cut to
 * `deploy_prod` names the denied `deploy_prod`. Random policies, budgets and skill texts, every
 * output path (pre-flight, skill_get in both formats, skill_search, skill_list, the directory).
 */

const BASES = ['deploy_prod', 'db_drop', 'gh-push', 'fs.wipe', 'mcpDelete'];
const SUFFIXES = ['_eu', '_all', 'Force', '_v2', '2'];

function mentions(name: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9_$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_$])`);
}

const scenarioArb = fc.record({
  // Denied: a base name. Allowed: the same base with a suffix (a cut can reveal the base).
  bases: fc.uniqueArray(fc.constantFrom(...BASES), { minLength: 1, maxLength: 3 }),
  suffix: fc.constantFrom(...SUFFIXES),
  pads: fc.array(fc.integer({ min: 0, max: 1300 }), { minLength: 6, maxLength: 6 }),
  budget: fc.integer({ min: 8, max: 700 }),
  word: fc.constantFrom('a', 'use', 'then', 'x'),
});

describe('skills: no denied tool name survives a cut (randomized)', () => {
  it('holds for every output path across random policies, budgets and texts', async () => {
    const h = await makeService();
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const allowed = s.bases.map((b) => `${b}${s.suffix}`);
        const denied = new Set(s.bases);
        const pad = (i: number) => `${s.word} `.repeat(Math.ceil((s.pads[i] ?? 0) / (s.word.length + 1))).slice(0, s.pads[i]);
        const mention = allowed.join(' and ');
        const root = tempDir();
        const trigger = `${pad(0)}${mention} ${pad(1)}`.trim().slice(0, 480);
        // Dense mentions: most cut positions land inside an allowed name.
        const body = `${pad(2)}${`${mention} `.repeat(40)}${pad(3)}${mention} ${pad(4)}${mention}`;
        // A stepped skill and a body-only SKILL.md (its body is what gets cut hardest).
        const stepped = [
          '---',
          'name: pack.cut.stepped',
          `title: Cut ${s.suffix}`,
          `trigger: "${trigger}"`,
          'steps:',
          `  - "${pad(5).slice(0, 300)} ${mention}"`,
          `  - "${mention}"`,
          '---',
          body,
          '',
        ];
        const bodyOnly = ['---', 'name: cut-body', `description: "${trigger}"`, '---', body, ''];
        writeTree(root, { 'cut.skill.md': stepped.join('\n'), 'cut-body/SKILL.md': bodyOnly.join('\n') });
        const loaded = await h.service.loadPacks([pack('cut', root)]);
        assert.equal(loaded.packs[0]?.skillCount, 2, JSON.stringify(loaded.problems));
        const gate: ToolGate = (name) => (denied.has(name) ? 'denied' : 'visible');
        const ctx: SkillRequestContext = { includeWorkspacePacks: true, toolGate: gate, knownToolNames: [...allowed, ...denied] };
        const names = (await h.service.list({}, ctx)).skills.map((skill) => skill.name);
        const outputs: unknown[] = [];
        // A run of budgets moves the final cut across every character offset.
        for (let budget = s.budget; budget < s.budget + 12; budget++) {
          outputs.push(await h.service.getRelevant({ task: `${mention} ${s.word}`, max_tokens: budget, top_k: 3 }, ctx));
          outputs.push(await h.service.get({ names, format: 'raw', max_tokens: 200 + budget }, ctx));
        }
        outputs.push(
          await h.service.get({ names, max_tokens: Math.max(200, s.budget) }, ctx),
          await h.service.search({ query: mention }, ctx),
          await h.service.search({ query: 'pack', search_type: 'regex' }, ctx),
          await h.service.list({}, ctx),
          await h.service.directory({ ...ctx, pinnedNames: names }),
        );
        const text = JSON.stringify(outputs);
        for (const name of denied) assert.ok(!mentions(name).test(text), `denied ${name} leaked (budget ${s.budget}, pads ${s.pads.join(',')})`);
        for (const name of allowed) assert.ok(text.includes(name), `allowed ${name} vanished`);
      }),
      { numRuns: 30 },
    );
  });
});
