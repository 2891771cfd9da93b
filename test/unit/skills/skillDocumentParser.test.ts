import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { detectSkillFormat, parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { agentSkillFrontmatterJsonSchema, skillFileJsonSchema } from '../../../src/core/skills/skillSchema';
import { SKILL_FILE_GLOBS } from '../../../src/core/skills/packs/document/skillFileNames';
import { SKILL_DOCUMENT_FORMATS } from '../../../src/core/config/settingsSchema';
import { formatProblem } from '../../../src/core/skills/packs/document/skillProblems';

const codes = (r: { problems: Array<{ code: string }> }) => r.problems.map((p) => p.code);

describe('skills: parseSkillDocument', () => {
  it('detects formats from file names', () => {
    assert.equal(detectSkillFormat('/a/b/x.skill.md'), 'md');
    assert.equal(detectSkillFormat('x.skill.yml'), 'yaml');
    assert.equal(detectSkillFormat('x.skill.yaml'), 'yaml');
    assert.equal(detectSkillFormat('x.skill.json'), 'json');
    assert.equal(detectSkillFormat('x.skill.jsonl'), 'jsonl');
    assert.equal(detectSkillFormat('/p/foo/SKILL.md'), 'skill-md');
    assert.equal(detectSkillFormat('README.md'), undefined);
  });

  it('every skill format a pack setting accepts has file names in the format table (one list of formats)', () => {
    const detected = new Set(SKILL_FILE_GLOBS.map((glob) => detectSkillFormat(glob.replace('**/', 'pack/name/').replace('*', 'x'))));
    assert.deepEqual(
      [...SKILL_DOCUMENT_FORMATS].filter((format) => !detected.has(format)),
      [],
    );
    assert.equal(detected.size, SKILL_DOCUMENT_FORMATS.length, 'and the table names no other format');
  });

  it('parses a .skill.md with frontmatter and body, mapping all fields', () => {
    const text = [
      '---',
      'name: pack.core.login',
      'title: Login',
      'task_type: browser',
      'tags: [auth, login]',
      'trigger: Log in.',
      'preconditions:',
      '  - Credentials exist.',
      'steps:',
      '  - Open page.',
      '  - Submit.',
      'failure_modes:',
      '  - CAPTCHA.',
      'cluster: Browser',
      'tools:',
      '  - tool: tool_search',
      '    note: discover',
      'domain: web',
      'frames: [task]',
      'triggers: [sign in]',
      'requires: [LOGIN_URL]',
      '---',
      '',
      'Extra notes.',
      '',
    ].join('\n');
    const r = parseSkillDocument(text, '/p/login.skill.md');
    assert.deepEqual(r.problems, []);
    const s = r.skills[0]!;
    assert.equal(s.name, 'pack.core.login');
    assert.equal(s.task_type, 'browser');
    assert.deepEqual(s.steps, ['Open page.', 'Submit.']);
    assert.deepEqual(s.tools, [{ tool: 'tool_search', note: 'discover' }]);
    assert.equal(s.body, 'Extra notes.');
    assert.equal(s.meta.cluster, 'Browser');
    assert.deepEqual(s.triggers, ['sign in']);
    assert.deepEqual(s.requires, ['LOGIN_URL']);
    assert.equal(s.domain, 'web');
    assert.equal(s.span.line, 1);
  });

  it('reports wrong types on the offending value with exact positions', () => {
    const text = '---\nname: pack.x.a\ntrigger: t\nrequires: nope\nsteps: [a]\n---\n';
    const r = parseSkillDocument(text, '/p/a.skill.md');
    assert.equal(r.problems.length, 1);
    assert.equal(r.skills.length, 0);
    const p = r.problems[0]!;
    assert.equal(p.code, 'wrong-type');
    assert.deepEqual([p.line, p.column, p.endLine, p.endColumn], [4, 11, 4, 15]);
    assert.match(formatProblem(p), /^\/p\/a\.skill\.md:4:11: error: `requires`: expected a list of environment variable names \[wrong-type\]$/);
  });

  it('a descriptive field in another shape is a warning on its value, and the skill loads', () => {
    const text = '---\nname: pack.x.a\ntrigger: t\ntags: nope\nsteps: [a]\n---\n';
    const r = parseSkillDocument(text, '/p/a.skill.md');
    assert.equal(r.problems.length, 1);
    const p = r.problems[0]!;
    assert.deepEqual([p.severity, p.code, p.line, p.column, p.endLine, p.endColumn], ['warning', 'wrong-type', 4, 7, 4, 11]);
    assert.match(formatProblem(p), /^\/p\/a\.skill\.md:4:7: warning: `tags`: expected a list of strings; read as the one-item list \[`nope`\]/);
    assert.deepEqual(r.skills[0]?.tags, ['nope']);
  });

  it('missing trigger / steps / empty steps are errors with codes; the skill is skipped', () => {
    assert.deepEqual(codes(parseSkillDocument('name: a\nsteps: [x]\n', 'a.skill.yaml')), ['missing-trigger']);
    assert.deepEqual(codes(parseSkillDocument('name: a\ntrigger: t\n', 'a.skill.yaml')), ['missing-steps']);
    const empty = parseSkillDocument('name: a\ntrigger: t\nsteps: []\n', 'a.skill.yaml');
    assert.deepEqual(codes(empty), ['missing-steps']);
    assert.equal(empty.skills.length, 0);
    assert.equal(empty.problems[0]!.line, 3);
  });

  it('description or triggers stand in for trigger', () => {
    assert.equal(parseSkillDocument('name: a\ndescription: Does a\nsteps: [x]\n', 'a.skill.yaml').skills[0]!.trigger, 'Does a');
    assert.equal(parseSkillDocument('name: a\ntriggers: [one, two]\nsteps: [x]\n', 'a.skill.yaml').skills[0]!.trigger, 'one, two');
  });

  it('unknown fields are kept in extra and warned about with a suggestion', () => {
    const r = parseSkillDocument('name: a\ntrigger: t\nsteps: [x]\nstepz: [y]\nowner: me\n', 'a.skill.yaml');
    assert.equal(r.skills.length, 1);
    assert.deepEqual(r.skills[0]!.extra, { stepz: ['y'], owner: 'me' });
    const unknown = r.problems.filter((p) => p.code === 'unknown-field');
    assert.equal(unknown.length, 2);
    assert.equal(unknown[0]!.severity, 'warning');
    assert.equal(unknown[0]!.data?.suggestion, 'steps');
    assert.deepEqual([unknown[0]!.line, unknown[0]!.column], [4, 1]);
  });

  it('generates pack.<pack>.<slug> names when absent; invalid names are errors', () => {
    const r = parseSkillDocument('trigger: t\nsteps: [x]\n', '/p/git/Commit Msg.skill.yaml', { packName: 'core', relativePath: 'git/Commit Msg.skill.yaml' });
    assert.equal(r.skills[0]!.name, 'pack.core.git.commit_msg');
    assert.equal(r.skills[0]!.nameGenerated, true);
    assert.deepEqual(codes(parseSkillDocument('name: "bad name!"\ntrigger: t\nsteps: [x]\n', 'a.skill.yaml')), ['invalid-name']);
  });

  it('YAML files may hold a list or several documents; duplicate names within a file name both lines', () => {
    const list = parseSkillDocument('- name: a\n  trigger: t\n  steps: [x]\n- name: b\n  trigger: t\n  steps: [y]\n', 'l.skill.yaml');
    assert.deepEqual(
      list.skills.map((s) => s.name),
      ['a', 'b'],
    );
    assert.equal(list.skills[1]!.span.line, 4);
    const multi = parseSkillDocument('name: a\ntrigger: t\nsteps: [x]\n---\nname: a\ntrigger: u\nsteps: [y]\n', 'm.skill.yaml');
    assert.deepEqual(codes(multi), ['duplicate-name']);
    assert.match(multi.problems[0]!.message, /m\.skill\.yaml:1/);
    assert.equal(multi.problems[0]!.line, 5);
  });

  it('YAML syntax errors and duplicate keys have positions', () => {
    const dup = parseSkillDocument('name: a\ntrigger: t\ntrigger: u\nsteps: [x]\n', 'd.skill.yaml');
    assert.deepEqual(codes(dup), ['duplicate-key']);
    assert.equal(dup.problems[0]!.line, 3);
    const bad = parseSkillDocument('name: a\nsteps: [x\n', 'b.skill.yaml');
    assert.ok(bad.problems.every((p) => p.code === 'parse-error' && p.line >= 1));
    assert.equal(bad.skills.length, 0);
  });

  it('JSON: syntax errors and value positions', () => {
    const bad = parseSkillDocument('{\n  "trigger": "t",\n  "steps": ["x"]\n  "name": "a"\n}', 'a.skill.json');
    assert.deepEqual(codes(bad), ['parse-error']);
    assert.equal(bad.problems[0]!.line, 4);
    const typed = parseSkillDocument('{\n  "trigger": "t",\n  "steps": "x"\n}', 'a.skill.json');
    assert.deepEqual(codes(typed), ['wrong-type']);
    assert.deepEqual([typed.problems[0]!.line, typed.problems[0]!.column], [3, 12]);
  });

  it('JSONL: errors by line number, good lines still load', () => {
    const r = parseSkillDocument(
      '{"name":"a","trigger":"t","steps":["x"]}\n{oops\n\n{"name":"b","trigger":"t","steps":[]}\n{"name":"c","trigger":"t","steps":["z"]}\n',
      'a.skill.jsonl',
    );
    assert.deepEqual(
      r.skills.map((s) => s.name),
      ['a', 'c'],
    );
    assert.deepEqual(
      r.problems.map((p) => [p.code, p.line]),
      [
        ['parse-error', 2],
        ['missing-steps', 4],
      ],
    );
    assert.equal(r.skills[1]!.span.line, 5);
  });

  it('SKILL.md: name/description required, name equals folder, body required, VS Code keys accepted', () => {
    const ok = parseSkillDocument(
      '---\nname: write-tests\ndescription: Write tests.\nargument-hint: "[file]"\nuser-invokable: true\ndisable-model-invocation: false\nallowed-tools: Bash(git commit:*) Read\nmetadata:\n  author: me\nlicense: MIT\ncompatibility: Node 20\n---\n# Write tests\nDo it.\n',
      '/p/write-tests/SKILL.md',
    );
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.skills[0]!.allowed_tools, ['Bash(git commit:*)', 'Read']);
    assert.equal(ok.skills[0]!.trigger, 'Write tests.');
    assert.equal(ok.skills[0]!.title, 'Write tests');
    // Names other agents load are warnings: the skill loads under the name the warning gives.
    const loadedAs = (text: string, file: string) => {
      const r = parseSkillDocument(text, file);
      return [r.problems.map((p) => `${p.severity} ${p.code}`), r.skills.map((x) => x.name)];
    };
    assert.deepEqual(loadedAs('---\nname: other\ndescription: d\n---\nbody\n', '/p/write-tests/SKILL.md'), [['warning name-mismatch-folder'], ['other']]);
    assert.deepEqual(loadedAs('---\nname: Write_Tests\ndescription: d\n---\nbody\n', '/p/Write_Tests/SKILL.md'), [['warning invalid-name'], ['write-tests']]);
    assert.deepEqual(loadedAs('---\ndescription: d\n---\nbody\n', '/p/x/SKILL.md'), [['warning missing-name'], ['x']]);
    assert.deepEqual(codes(parseSkillDocument('---\nname: x\n---\nbody\n', '/p/x/SKILL.md')), ['missing-description']);
    assert.deepEqual(codes(parseSkillDocument('---\nname: x\ndescription: d\n---\n\n', '/p/x/SKILL.md')), ['missing-body']);
    assert.deepEqual(codes(parseSkillDocument(`---\nname: x\ndescription: ${'d'.repeat(1025)}\n---\nb\n`, '/p/x/SKILL.md')), ['too-long']);
    assert.deepEqual(codes(parseSkillDocument(`---\nname: x\ndescription: d\ncompatibility: ${'c'.repeat(501)}\n---\nb\n`, '/p/x/SKILL.md')), ['too-long']);
    const numbered = parseSkillDocument('---\nname: x\ndescription: d\nmetadata:\n  n: 1\n---\nb\n', '/p/x/SKILL.md');
    assert.deepEqual(
      numbered.problems.map((p) => `${p.severity} ${p.code}`),
      ['warning wrong-type'],
    );
    assert.deepEqual(numbered.skills[0]?.meta.metadata, { n: '1' });
    assert.deepEqual(codes(parseSkillDocument(`---\nname: ${'a'.repeat(65)}\ndescription: d\n---\nb\n`, `/p/${'a'.repeat(65)}/SKILL.md`)), ['too-long']);
  });

  it('frontmatter problems: missing, unterminated, not a mapping', () => {
    assert.deepEqual(codes(parseSkillDocument('no frontmatter', 'a.skill.md')), ['missing-frontmatter']);
    assert.deepEqual(codes(parseSkillDocument('---\nname: a\n', 'a.skill.md')), ['unterminated-frontmatter']);
    assert.deepEqual(codes(parseSkillDocument('---\n- a\n- b\n---\n', 'a.skill.md')), ['not-a-mapping']);
  });

  it('binary, empty and oversized input are reported, not parsed', () => {
    assert.deepEqual(codes(parseSkillDocument('name: a\u0000', 'a.skill.yaml')), ['binary-file']);
    assert.deepEqual(codes(parseSkillDocument('  \n', 'a.skill.yaml')), ['empty-file']);
    assert.deepEqual(codes(parseSkillDocument('x'.repeat(100), 'a.skill.yaml', { maxChars: 50 })), ['file-too-large']);
  });

  it('never throws and never returns a skill together with an error, on arbitrary input', () => {
    const formats = ['a.skill.md', 'a.skill.yaml', 'a.skill.json', 'a.skill.jsonl', '/p/a/SKILL.md'];
    const fragments = fc.constantFrom(
      '---\n',
      'name: a\n',
      'trigger: t\n',
      'steps:\n',
      '  - x\n',
      '{',
      '}',
      '[',
      ']',
      '"',
      ':',
      '&a ',
      '*a',
      '\t',
      '\u0000',
      '\uFEFF',
      '\n',
      '- ',
      '#',
      'description: d\n',
      '!!binary ',
      '? ',
      '|\n',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fragments, fc.string()), { maxLength: 30 }), fc.constantFrom(...formats), (parts, file) => {
        const r = parseSkillDocument(parts.join(''), file);
        for (const p of r.problems) assert.ok(p.line >= 1 && p.column >= 1 && p.endLine >= p.line);
        if (r.problems.some((p) => p.severity === 'error' && !p.skillName)) {
          // file-level errors may coexist with other skills in multi-skill files only
        }
        return true;
      }),
      { numRuns: 400 },
    );
  });

  it('exports JSON Schemas for editors', () => {
    const schema = skillFileJsonSchema();
    assert.equal(schema.type, 'object');
    assert.ok((schema.required as string[]).includes('steps'));
    assert.ok('trigger' in (schema.properties as object));
    assert.ok(Array.isArray(schema.anyOf));
    JSON.stringify(schema);
    const agent = agentSkillFrontmatterJsonSchema();
    assert.deepEqual([...(agent.required as string[])].sort(), ['description', 'name']);
  });
});
