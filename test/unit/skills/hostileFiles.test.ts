import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import fc from 'fast-check';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { ctx, makeService, pack, stepSkill, tempDir, writeTree } from './helpers';
import { cli } from '../cli/helpers';

/** A pack with two good files and one hostile one: the good ones must always load. */
async function loadBesideGoodFiles(name: string, content: string | Uint8Array) {
  const root = tempDir('toolshed-hostile-');
  writeTree(root, {
    'good-a.skill.yaml': stepSkill('pack.h.good-a', 'Alpha chores'),
    'good-b.skill.md': `---\n${stepSkill('pack.h.good-b', 'Beta chores')}---\nBody\n`,
    [name]: content,
  });
  const { service } = await makeService();
  const summary = await service.loadPacks([pack('h', root)]);
  const names = (await service.list({ page_size: 50 }, ctx)).skills.map((s) => s.name);
  return { service, summary, names, root };
}

describe('skills: hostile files cost that file alone', () => {
  it('a self-referencing YAML alias is an error on that file; the rest of the pack loads', async () => {
    const { summary, names } = await loadBesideGoodFiles('alias.skill.yaml', 'a: &a [*a]\ntrigger: x\nsteps: [a]\n');
    assert.ok(names.includes('pack.h.good-a') && names.includes('pack.h.good-b'));
    const problem = summary.problems.find((p) => p.file.endsWith('alias.skill.yaml'));
    assert.equal(problem?.severity, 'error');
    assert.match(problem?.message ?? '', /refers to itself/);
  });

  it('a 100k-line JSONL of `{}` loads nothing from that file, lists a bounded set of problems, and does not crash', async () => {
    const { summary, names } = await loadBesideGoodFiles('empty.skill.jsonl', '{}\n'.repeat(100_000));
    assert.ok(names.includes('pack.h.good-a') && names.includes('pack.h.good-b'));
    const own = summary.problems.filter((p) => p.file.endsWith('empty.skill.jsonl'));
    assert.ok(own.length <= 202, `${own.length} problems listed`);
    assert.ok(
      own.some((p) => p.code === 'too-many-problems'),
      'a closing "more problems" warning',
    );
    assert.ok(
      own.some((p) => p.code === 'parse-budget-exceeded'),
      'parsing stopped after the error allowance',
    );
  });

  it('`toolshed validate` on the same files exits 1 with a bounded report instead of crashing or passing', async () => {
    const root = tempDir('toolshed-hostile-cli-');
    writeTree(root, {
      'alias.skill.yaml': 'a: &a [*a]\ntrigger: x\nsteps: [a]\n',
      'empty.skill.jsonl': '{}\n'.repeat(100_000),
      'good.skill.yaml': stepSkill('pack.c.good', 'Fine'),
    });
    const { code, all: out } = await cli('validate', root);
    assert.equal(code, 1);
    assert.match(out, /alias\.skill\.yaml:1:1: error: This document cannot be loaded: a YAML alias refers to itself/);
    assert.match(out, /empty\.skill\.jsonl:1:1: warning: \d+ more problems in this file are not listed/);
    assert.ok(out.split('\n').length < 500, `${out.split('\n').length} lines`);
  });

  it('thousands of unknown keys are counted past the problem cap, and the skill still loads', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i}: v`).join('\n');
    const result = parseSkillDocument(`name: many\ntrigger: t\nsteps: [a]\n${keys}\n`, 'many.skill.yaml');
    assert.equal(result.skills.length, 1);
    assert.equal(Object.keys(result.skills[0]?.extra ?? {}).length, 5000);
    assert.equal(result.problems.length, 201);
    const last = result.problems.at(-1);
    assert.equal(last?.code, 'too-many-problems');
    assert.match(last?.message ?? '', /^4800 more problems/);
    // Listed problems point at their own key (positions computed for listed ones only).
    assert.equal(result.problems[0]?.line, 4);
    assert.equal(result.problems[199]?.line, 203);
  });

  it('a JSON file with more than 5,000 values skips the exact-position pass, says so, and still loads', () => {
    const extra = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`k${i}`, i]));
    const result = parseSkillDocument(JSON.stringify({ name: 'wide', trigger: 't', steps: ['a'], ...extra }), 'wide.skill.json');
    assert.equal(result.skills[0]?.name, 'wide');
    assert.deepEqual(
      result.problems.slice(0, 2).map((p) => [p.severity, p.code]),
      [
        ['info', 'positions-skipped'],
        ['warning', 'unknown-field'],
      ],
    );
    assert.match(result.problems.at(-1)?.message ?? '', /^5801 more problems/);
  });

  it('duplicate keys are still found (without the quadratic check) and point at the repeat', () => {
    const result = parseSkillDocument('trigger: t\nsteps: [a]\ntrigger: u\n', 'dup.skill.yaml');
    assert.deepEqual(
      result.problems.map((p) => [p.code, p.line]),
      [['duplicate-key', 3]],
    );
    const json = parseSkillDocument('{"trigger": "t", "steps": ["a"], "steps": ["b"]}', 'dup.skill.json');
    assert.deepEqual(
      json.problems.map((p) => p.code),
      ['duplicate-key'],
    );
  });

  it('a file over its time budget stops with a diagnostic instead of running on', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ name: `s${i}`, trigger: 't', steps: ['a'] })).join('\n');
    const result = parseSkillDocument(lines, 'big.skill.jsonl', { budgetMs: -1 });
    assert.equal(result.problems[0]?.code, 'parse-budget-exceeded');
    assert.ok(result.skills.length < 3000);
    assert.equal(parseSkillDocument(lines, 'big.skill.jsonl').skills.length, 3000);
  });

  for (const [label, content] of [
    ['`~`', '~\n'],
    ['only comments', '# nothing here\n# at all\n'],
    ['`[]`', '[]\n'],
    ['`null`', 'null\n'],
  ] as const) {
    it(`a YAML file that defines nothing (${label}) gets an info diagnostic`, () => {
      const result = parseSkillDocument(content, 'nothing.skill.yaml');
      assert.deepEqual(
        result.problems.map((p) => [p.severity, p.code]),
        [['info', 'no-skills']],
      );
    });
  }

  it('JSON `[]` and `null` files also say they define nothing', () => {
    for (const content of ['[]', 'null']) {
      assert.deepEqual(
        parseSkillDocument(content, 'n.skill.json').problems.map((p) => p.code),
        ['no-skills'],
      );
    }
  });

  it('a FIFO named like a skill file is skipped with an info diagnostic, never opened (no hang)', async function () {
    if (process.platform === 'win32') this.skip();
    const root = tempDir('toolshed-fifo-');
    writeTree(root, { 'good.skill.yaml': stepSkill('pack.f.good', 'Fine') });
    execFileSync('mkfifo', [path.join(root, 'pipe.skill.yaml')]);
    const { service } = await makeService();
    const summary = await service.loadPacks([pack('f', root)]);
    assert.ok(service.inspect('pack.f.good'));
    const fifo = summary.problems.find((p) => p.file.endsWith('pipe.skill.yaml'));
    assert.deepEqual([fifo?.severity, fifo?.code], ['info', 'not-a-regular-file']);
  });

  it('a folder deeper than the scan depth gets an info diagnostic naming it', async () => {
    const root = tempDir('toolshed-deep-');
    const deep = Array.from({ length: 14 }, (_, i) => `d${i}`).join('/');
    writeTree(root, {
      [`${deep}/lost.skill.yaml`]: stepSkill('pack.d.lost', 'Lost'),
      [`${deep.replace('/d12/', '/d12x/')}/also.skill.yaml`]: stepSkill('pack.d.also', 'Also lost'),
      'top.skill.yaml': stepSkill('pack.d.top', 'Top'),
    });
    const { service } = await makeService();
    const summary = await service.loadPacks([pack('d', root)]);
    assert.ok(service.inspect('pack.d.top'));
    assert.equal(service.inspect('pack.d.lost'), undefined);
    const tooDeep = summary.problems.filter((p) => p.code === 'too-deep');
    assert.equal(tooDeep.length, 1, 'one diagnostic per pack, not one per folder');
    assert.equal(tooDeep[0]?.severity, 'info');
    assert.ok(tooDeep[0]?.file.endsWith(path.join('d11', 'd12')), tooDeep[0]?.file);
    assert.match(tooDeep[0]?.message ?? '', /and 1 more folder at that depth/);
  });

  it('property: any single hostile file leaves the rest of its pack loaded', async () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.uint8Array({ maxLength: 400 }),
      fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
      fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 200 }).map((values) => values.map((v) => JSON.stringify(v)).join('\n')),
      fc.nat({ max: 300 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
      fc.nat({ max: 300 }).map((n) => `a: ${'- '.repeat(n)}x\ntrigger: t\nsteps: [s]\n`),
      fc.constantFrom(
        'a: &a [*a]\ntrigger: x\nsteps: [a]\n',
        'x: &x {y: *x}\n',
        'a: &a\n  b: *a\ntrigger: t\nsteps: [s]\n',
        '~',
        '---\n---\n',
        '{}\n'.repeat(3000),
      ),
      fc
        .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 300 })
        .map((extra) => JSON.stringify({ trigger: 't', steps: ['s'], ...extra })),
    );
    const extension = fc.constantFrom('.skill.yaml', '.skill.json', '.skill.jsonl', '.skill.md');
    await fc.assert(
      fc.asyncProperty(hostile, extension, async (content, ext) => {
        const { names } = await loadBesideGoodFiles(`hostile${ext}`, content);
        assert.ok(names.includes('pack.h.good-a') && names.includes('pack.h.good-b'), names.join(', '));
      }),
      { numRuns: 60 },
    );
  });
});

describe('skills: over-long fields load with a warning', () => {
  it('a SKILL.md whose description is 3,000 characters loads and is found by a word near its end', async () => {
    const filler = Array.from({ length: 420 }, (_, i) => `word${i % 37}`).join(' ');
    const description = `${filler} quasar`.slice(-3000).replace(/^\S*\s/, '');
    const padded = `${description.slice(0, 3000 - ' quasar'.length - 1)} quasar`.padStart(3000, 'x');
    assert.equal(padded.length, 3000);
    const root = tempDir('toolshed-long-');
    writeTree(root, { 'long-one/SKILL.md': `---\nname: long-one\ndescription: ${padded}\n---\n# Long\nDo it.\n` });
    const { service } = await makeService();
    const summary = await service.loadPacks([pack('l', root)]);
    const warning = summary.problems.find((p) => p.code === 'too-long');
    assert.equal(warning?.severity, 'warning');
    assert.equal(service.inspect('long-one')?.description.length, 3000);
    const found = await service.search({ query: 'quasar' }, ctx);
    assert.deepEqual(
      found.skills.map((s) => s.name),
      ['long-one'],
    );
  });

  it('other agentskills length limits are warnings too (compatibility, a long name); a name off the pattern loads normalized', () => {
    const compat = parseSkillDocument(`---\nname: x\ndescription: d\ncompatibility: ${'c'.repeat(501)}\n---\nb\n`, '/p/x/SKILL.md');
    assert.deepEqual(
      compat.problems.map((p) => [p.severity, p.code]),
      [['warning', 'too-long']],
    );
    assert.equal(compat.skills.length, 1);
    const longName = 'a'.repeat(65);
    const named = parseSkillDocument(`---\nname: ${longName}\ndescription: d\n---\nb\n`, `/p/${longName}/SKILL.md`);
    assert.equal(named.skills[0]?.name, longName);
    const bad = parseSkillDocument('---\nname: Bad_Name\ndescription: d\n---\nb\n', '/p/Bad_Name/SKILL.md');
    assert.deepEqual(
      bad.skills.map((s) => s.name),
      ['bad-name'],
    );
    assert.deepEqual(
      bad.problems.map((p) => [p.severity, p.code]),
      [['warning', 'invalid-name']],
    );
  });
});
