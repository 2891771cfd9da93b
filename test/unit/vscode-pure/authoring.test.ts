import * as assert from 'node:assert/strict';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { completionsAt, keyAt } from '../../../src/vscode/authoring/completionModel';
import { fieldDoc, fieldDocs, fieldHoverMarkdown } from '../../../src/vscode/authoring/fieldDocs';
import { applyEdits, quickFixesFor } from '../../../src/vscode/authoring/quickFixes';
import { skillFileKind, yamlRegion } from '../../../src/vscode/authoring/skillFileKinds';
import { NEW_SKILL_FORMATS, newSkillRelativePath, newSkillTemplate, validateNewSkillName } from '../../../src/vscode/authoring/skillTemplates';
import { duplicateNameProblems } from '../../../src/vscode/authoring/duplicateNames';
import { skillFieldsShape } from '../../../src/core/skills/skillSchema';

function problemsOf(text: string, file: string) {
  return parseSkillDocument(text, file).problems;
}

function fix(text: string, file: string, code: string, title?: RegExp): string {
  const kind = skillFileKind(file)!;
  const problem = problemsOf(text, file).find((p) => p.code === code);
  assert.ok(problem, `expected a ${code} problem, got ${JSON.stringify(problemsOf(text, file).map((p) => p.code))}`);
  const fixes = quickFixesFor(text, kind, file, problem);
  const chosen = title ? fixes.find((f) => title.test(f.title)) : fixes[0];
  assert.ok(chosen, `a quick fix for ${code} (${fixes.map((f) => f.title).join(', ')})`);
  return applyEdits(text, chosen.edits);
}

describe('authoring: skill file kinds', () => {
  it('detects every format from the file name', () => {
    assert.equal(skillFileKind('/a/b/SKILL.md'), 'skill-md');
    assert.equal(skillFileKind('x.skill.md'), 'md');
    assert.equal(skillFileKind('x.skill.yml'), 'yaml');
    assert.equal(skillFileKind('x.skill.yaml'), 'yaml');
    assert.equal(skillFileKind('x.skill.json'), 'json');
    assert.equal(skillFileKind('x.skill.jsonl'), 'jsonl');
    assert.equal(skillFileKind('README.md'), undefined);
  });

  it('finds the frontmatter region', () => {
    const text = '---\nname: a\n---\nbody\n';
    const region = yamlRegion(text, 'md')!;
    assert.equal(text.slice(region.start, region.end), 'name: a\n');
    assert.equal(yamlRegion('no frontmatter', 'md'), undefined);
  });
});

describe('authoring: field docs come from the zod schema', () => {
  it('every schema field has its .describe() text', () => {
    for (const [key, schema] of Object.entries(skillFieldsShape)) {
      const doc = fieldDoc('md', key);
      assert.ok(doc, key);
      if (key !== 'steps') assert.equal(doc.description, (schema as { description?: string }).description, key);
    }
  });

  it('task_type has its enum values and steps is required in step-based formats', () => {
    assert.deepEqual(fieldDoc('md', 'task_type')?.enumValues, ['browser', 'api', 'code', 'domain', 'unknown']);
    assert.equal(fieldDoc('yaml', 'steps')?.required, true);
    assert.equal(fieldDoc('skill-md', 'name')?.required, true);
    assert.match(fieldHoverMarkdown(fieldDoc('md', 'trigger')!), /When to use this skill/);
  });
});

describe('authoring: completions', () => {
  it('offers missing keys at the start of a frontmatter line', () => {
    const text = '---\nname: a\ntr\n---\n';
    const offset = text.indexOf('tr') + 2;
    const items = completionsAt(text, offset, 'md');
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('trigger'));
    assert.ok(!labels.includes('name'), 'keys already present are not offered');
    const steps = items.find((i) => i.label === 'steps')!;
    assert.equal(steps.insertText, 'steps:\n  - $0');
    assert.equal(text.slice(steps.replaceStart, steps.replaceEnd), 'tr');
    assert.equal(items[0]!.label, 'steps', 'required fields sort first');
  });

  it('offers enum values after task_type:', () => {
    const text = 'name: a\ntask_type: co';
    const items = completionsAt(text, text.length, 'yaml');
    assert.deepEqual(
      items.map((i) => i.label),
      ['browser', 'api', 'code', 'domain', 'unknown'],
    );
    assert.equal(text.slice(items[0]!.replaceStart, items[0]!.replaceEnd), 'co');
  });

  it('offers booleans and nothing in the markdown body or JSON', () => {
    const text = '---\ndisable-model-invocation: \n---\nbody';
    assert.deepEqual(
      completionsAt(text, text.indexOf(': ') + 2, 'md').map((i) => i.label),
      ['true', 'false'],
    );
    assert.deepEqual(completionsAt(text, text.length, 'md'), []);
    assert.deepEqual(completionsAt('{}', 1, 'json'), []);
  });

  it('finds the key under the cursor for hovers', () => {
    const yaml = '---\ntrigger: x\n---\n';
    assert.deepEqual(keyAt(yaml, yaml.indexOf('trig') + 2, 'md'), { key: 'trigger', start: 4, end: 11 });
    const json = '{\n  "steps": []\n}';
    assert.equal(keyAt(json, json.indexOf('steps'), 'json')?.key, 'steps');
    assert.equal(keyAt(yaml, yaml.length, 'md'), undefined);
  });
});

describe('authoring: quick fixes produce valid skills', () => {
  it('adds a trigger to a .skill.md', () => {
    const text = '---\nname: lint\nsteps:\n  - run the linter\n---\nbody\n';
    const fixed = fix(text, '/p/lint.skill.md', 'missing-trigger');
    assert.match(fixed, /trigger: "?TODO/);
    assert.deepEqual(
      problemsOf(fixed, '/p/lint.skill.md').filter((p) => p.severity === 'error'),
      [],
    );
  });

  it('adds a steps scaffold to YAML and JSON', () => {
    const yaml = 'name: lint\ntrigger: when linting\n';
    const fixedYaml = fix(yaml, '/p/lint.skill.yaml', 'missing-steps');
    assert.deepEqual(
      problemsOf(fixedYaml, '/p/lint.skill.yaml').filter((p) => p.severity === 'error'),
      [],
    );
    const json = '{\n  "name": "lint",\n  "trigger": "when linting"\n}\n';
    const fixedJson = fix(json, '/p/lint.skill.json', 'missing-steps');
    assert.deepEqual(JSON.parse(fixedJson).steps, ['TODO: first step']);
    assert.deepEqual(
      problemsOf(fixedJson, '/p/lint.skill.json').filter((p) => p.severity === 'error'),
      [],
    );
  });

  it('replaces an empty steps key in YAML', () => {
    const yaml = 'name: lint\ntrigger: when linting\nsteps: []\n';
    const fixed = fix(yaml, '/p/lint.skill.yaml', 'missing-steps');
    assert.deepEqual(
      problemsOf(fixed, '/p/lint.skill.yaml').filter((p) => p.severity === 'error'),
      [],
    );
  });

  it('makes a SKILL.md name match its folder', () => {
    const text = '---\nname: other-name\ndescription: Writes tests.\n---\nDo it.\n';
    const fixed = fix(text, '/ws/.github/skills/write-tests/SKILL.md', 'name-mismatch-folder');
    assert.match(fixed, /^name: write-tests$/m);
    assert.deepEqual(
      problemsOf(fixed, '/ws/.github/skills/write-tests/SKILL.md').filter((p) => p.severity === 'error'),
      [],
    );
  });

  it('renames a SKILL.md name off the agentskills rule to the name it loads as, and adds a missing one', () => {
    const file = '/ws/.github/skills/pdf-form-filler/SKILL.md';
    const fixed = fix('---\nname: PDF Form Filler\ndescription: Fills PDF forms.\n---\nDo it.\n', file, 'invalid-name');
    assert.match(fixed, /^name: pdf-form-filler$/m);
    assert.deepEqual(problemsOf(fixed, file), []);
    const added = fix('---\ndescription: Fills PDF forms.\n---\nDo it.\n', file, 'missing-name');
    assert.match(added, /^name: pdf-form-filler$/m);
    assert.deepEqual(problemsOf(added, file), []);
  });

  it('moves an unknown field into metadata (YAML frontmatter, new and existing metadata)', () => {
    const text = '---\nname: lint\ntrigger: when linting\nauthor: Ada\nsteps:\n  - run it\n---\nbody\n';
    const fixed = fix(text, '/p/lint.skill.md', 'unknown-field', /metadata/);
    assert.match(fixed, /metadata:\n {2}author: Ada\n/);
    assert.ok(!/^author:/m.test(fixed));
    assert.deepEqual(problemsOf(fixed, '/p/lint.skill.md'), []);

    const withMeta = 'name: lint\ntrigger: t\nversion: 2\nmetadata:\n  author: Ada\nsteps:\n  - s\n';
    const fixed2 = fix(withMeta, '/p/lint.skill.yaml', 'unknown-field', /metadata/);
    assert.deepEqual(problemsOf(fixed2, '/p/lint.skill.yaml'), []);
    assert.match(fixed2, /metadata:\n {2}author: Ada\n {2}version: "2"\n/);
  });

  it('moves an unknown field into metadata in JSON and JSONL, and offers the suggested rename', () => {
    const json = '{"name":"a","trigger":"t","steps":["s"],"owner":"me"}';
    const fixed = fix(json, '/p/a.skill.json', 'unknown-field', /metadata/);
    assert.deepEqual(JSON.parse(fixed).metadata, { owner: 'me' });
    const jsonl = '{"name":"a","trigger":"t","steps":["s"]}\n{"name":"b","trigger":"t","steps":["s"],"owner":"me"}\n';
    const fixedL = fix(jsonl, '/p/a.skill.jsonl', 'unknown-field', /metadata/);
    assert.equal(fixedL.split('\n')[0], '{"name":"a","trigger":"t","steps":["s"]}');
    assert.deepEqual(problemsOf(fixedL, '/p/a.skill.jsonl'), []);

    const typo = 'name: a\ntriger: when\nsteps:\n  - s\n';
    const problem = problemsOf(typo, '/p/a.skill.yaml').find((p) => p.code === 'unknown-field')!;
    if (typeof problem.data?.suggestion === 'string') {
      const renamed = fix(typo, '/p/a.skill.yaml', 'unknown-field', /Rename/);
      assert.match(renamed, /^trigger: when$/m);
    }
  });
});

describe('authoring: New Skill templates', () => {
  for (const { format } of NEW_SKILL_FORMATS) {
    it(`the ${format} template parses without problems`, () => {
      const name = 'write-tests';
      const file = `/ws/skills/${newSkillRelativePath(name, format)}`;
      const result = parseSkillDocument(newSkillTemplate(name, format), file);
      assert.deepEqual(result.problems, []);
      assert.equal(result.skills.length, 1);
      assert.equal(result.skills[0]!.name, name);
    });
  }

  it('validates names per format', () => {
    assert.equal(validateNewSkillName('write-tests', 'skill-md'), undefined);
    assert.ok(validateNewSkillName('Write_Tests', 'skill-md'));
    assert.equal(validateNewSkillName('Write_Tests', 'yaml'), undefined);
    assert.ok(validateNewSkillName('', 'md'));
    assert.ok(validateNewSkillName('-x', 'md'));
  });
});

describe('authoring: every field key is completable', () => {
  it('lists every schema key for step-based formats', () => {
    assert.deepEqual(
      fieldDocs('yaml')
        .map((f) => f.key)
        .sort(),
      Object.keys(skillFieldsShape).sort(),
    );
  });
});

describe('authoring: duplicate names across files', () => {
  it('flags both files, not unique names', () => {
    const span = { line: 2, column: 7, endLine: 2, endColumn: 11 };
    const result = duplicateNameProblems(
      new Map([
        [
          '/a.skill.md',
          [
            { name: 'lint', span },
            { name: 'solo', span },
          ],
        ],
        ['/b.skill.yaml', [{ name: 'lint', span }]],
      ]),
    );
    assert.deepEqual([...result.keys()].sort(), ['/a.skill.md', '/b.skill.yaml']);
    assert.equal(result.get('/a.skill.md')!.length, 1);
    assert.match(result.get('/a.skill.md')![0]!.message, /\/b\.skill\.yaml:2/);
    assert.equal(result.get('/b.skill.yaml')![0]!.code, 'duplicate-name');
  });
});
