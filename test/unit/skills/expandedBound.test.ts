import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import * as YAML from 'yaml';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { ctx, makeService, pack, stepSkill, tempDir, writeTree } from './helpers';
import { cli } from '../cli/helpers';

/** The file from the report: one anchored 800 KB string referenced 49 times (39 MB expanded). */
function aliasBomb(words = 400_000, aliases = 49): string {
  return `name: bomb\ntrigger: &t "${'w '.repeat(words - 1)}w"\nsteps: [${Array.from({ length: aliases }, () => '*t').join(', ')}]\n`;
}

/**
 * What a skill holds with every alias expanded, counted the obvious way (the whole value is
 * built): keys and strings by length (at least 1), containers 1, other scalars as printed.
 */
function naiveChars(value: unknown): number {
  if (typeof value === 'string') return Math.max(1, value.length);
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, item) => sum + naiveChars(item), 0);
  if (value && typeof value === 'object') return 1 + Object.entries(value).reduce((sum, [k, v]) => sum + Math.max(1, k.length) + naiveChars(v), 0);
  return Math.max(1, String(value).length);
}

describe('skills: what a file may hold after alias expansion is bounded', () => {
  it('the 800 KB alias bomb gets one error naming the file and field, and loads no skill', () => {
    const text = aliasBomb();
    assert.ok(text.length < 1024 * 1024, 'under the file-size cap');
    const result = parseSkillDocument(text, '/packs/p/bomb.skill.yaml');
    assert.deepEqual(result.skills, []);
    assert.equal(result.problems.length, 1, result.problems.map((p) => p.message).join('\n'));
    const [problem] = result.problems;
    assert.equal(problem.severity, 'error');
    assert.equal(problem.code, 'expanded-too-large');
    assert.equal(problem.file, '/packs/p/bomb.skill.yaml');
    assert.match(problem.message, /^Too large once YAML aliases are expanded: with `trigger`, this skill holds more than 524,288 characters/);
    assert.equal(problem.line, 2, 'points at the field');
  });

  it('a 300 KB string within bounds, repeated through aliases in `steps`, is reported at `steps`', () => {
    const result = parseSkillDocument(aliasBomb(150_000, 10), 'bomb.skill.yaml');
    assert.deepEqual(result.skills, []);
    assert.deepEqual(
      result.problems.map((p) => [p.code, p.data?.key]),
      [['expanded-too-large', 'steps']],
    );
  });

  it('skills each within the skill bound but together over the file bound: one error, no skill from the file', () => {
    const text = `- name: a\n  trigger: &t "${'x'.repeat(400_000)}"\n  steps: [go]\n${['b', 'c', 'd'].map((n) => `- name: ${n}\n  trigger: *t\n  steps: [go]\n`).join('')}`;
    const result = parseSkillDocument(text, 'many.skill.yaml');
    assert.deepEqual(result.skills, []);
    assert.equal(result.problems.filter((p) => p.severity === 'error').length, 1);
    assert.match(
      result.problems.find((p) => p.severity === 'error')?.message ?? '',
      /with `trigger`, the skills of this file hold more than 1,048,576 characters together/,
    );
  });

  it('an over-long field within the bounds still loads, with its warning', () => {
    const result = parseSkillDocument(`name: long\ntrigger: "${'word '.repeat(2000)}"\nsteps: [go]\n`, 'long.skill.yaml');
    assert.deepEqual(
      result.skills.map((s) => s.name),
      ['long'],
    );
    assert.deepEqual(
      result.problems.map((p) => p.severity),
      ['warning'],
    );
  });

  it('in a pack: the bomb file gets one error diagnostic, every other file loads', async () => {
    const root = tempDir('toolshed-bomb-');
    writeTree(root, {
      'bomb.skill.yaml': aliasBomb(),
      'good-a.skill.yaml': stepSkill('pack.h.good-a', 'Alpha chores'),
      'good-b.skill.md': `---\n${stepSkill('pack.h.good-b', 'Beta chores')}---\nBody\n`,
    });
    const { service } = await makeService();
    const summary = await service.loadPacks([pack('h', root)]);
    const names = (await service.list({ page_size: 50 }, ctx)).skills.map((s) => s.name);
    assert.deepEqual(names.sort(), ['pack.h.good-a', 'pack.h.good-b']);
    const bombProblems = summary.problems.filter((p) => p.file.endsWith('bomb.skill.yaml'));
    assert.deepEqual(
      bombProblems.map((p) => p.severity),
      ['error'],
    );
    await service.dispose();
  });

  it('`toolshed validate` reports the bomb as an error (exit 1), not as a warning that the skill loads', async () => {
    const root = tempDir('toolshed-bomb-cli-');
    writeTree(root, { 'bomb.skill.yaml': aliasBomb() });
    const { code, all: out } = await cli('validate', root);
    assert.equal(code, 1);
    assert.match(out, /bomb\.skill\.yaml:2:1: error: Too large once YAML aliases are expanded: with `trigger`/);
    assert.doesNotMatch(out, /the skill loads/);
  });

  it('property: anchors, aliases, long scalars and many steps — no accepted skill or file passes its bound; a file over it gets one error and no skill', () => {
    const skillLimit = 3000;
    const fileLimit = 8000;
    const scalar = fc.oneof(
      fc.constantFrom('go', 'do it'),
      fc.integer({ min: 1, max: 2500 }).map((n) => 'w'.repeat(n)),
    );
    const skillArb = fc.record({
      trigger: scalar,
      anchorTrigger: fc.boolean(),
      steps: fc.array(
        fc.oneof(
          scalar.map((s) => ({ literal: s })),
          fc.nat(20).map((n) => ({ alias: n })),
        ),
        { minLength: 1, maxLength: 40 },
      ),
    });
    fc.assert(
      fc.property(fc.array(skillArb, { minLength: 1, maxLength: 6 }), (skills) => {
        const anchors: string[] = [];
        const lines: string[] = [];
        skills.forEach((skill, i) => {
          const anchor = skill.anchorTrigger ? `&a${anchors.push(`a${i}`) - 1} ` : '';
          lines.push(`- name: s${i}`, `  trigger: ${anchor}"${skill.trigger}"`, '  steps:');
          for (const step of skill.steps) {
            if ('literal' in step || anchors.length === 0) lines.push(`    - "${'literal' in step ? step.literal : 'go'}"`);
            else lines.push(`    - *a${step.alias % anchors.length}`);
          }
        });
        const text = `${lines.join('\n')}\n`;
        const result = parseSkillDocument(text, 'gen.skill.yaml', { maxSkillChars: skillLimit, maxExpandedFileChars: fileLimit });
        let values: Array<Record<string, unknown>>;
        try {
          values = YAML.parse(text, { maxAliasCount: 50 }) as Array<Record<string, unknown>>;
        } catch {
          assert.deepEqual(result.skills, [], 'an alias count the parser refuses loads nothing');
          return;
        }
        // Every skill also carries its (empty) body: `body` + 1.
        const sizes = values.map((value) => naiveChars(value) - 1 + 5);
        const over = sizes.some((size) => size > skillLimit) || sizes.reduce((a, b) => a + b, 0) > fileLimit;
        const boundErrors = result.problems.filter((p) => p.code === 'expanded-too-large');
        if (over) {
          assert.deepEqual(result.skills, []);
          assert.equal(boundErrors.length, 1);
          assert.equal(result.problems.filter((p) => p.severity === 'error').length, 1);
        } else {
          assert.equal(boundErrors.length, 0);
          assert.deepEqual(
            result.skills.map((s) => s.name),
            skills.map((_, i) => `s${i}`),
          );
        }
        const accepted = result.skills.map((s) => naiveChars(values[Number(s.name.slice(1))]));
        assert.ok(accepted.every((size) => size <= skillLimit) && accepted.reduce((a, b) => a + b, 0) <= fileLimit);
      }),
      { numRuns: 200 },
    );
  });
});
