import * as assert from 'node:assert/strict';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import type { SkillProblem } from '../../../src/core/skills/packs/document/skillProblems';

/**
 * Real-world skill files load leniently — but never in silence: YAML the parser reads past (an
 * unknown tag, an unsupported `%YAML` version, a `%TAG` directive, an empty key) gets a warning
 * at the place it is written, and the skill still loads.
 */
const warnings = (problems: readonly SkillProblem[]) => problems.filter((p) => p.severity === 'warning');
const at = (problems: readonly SkillProblem[]) => warnings(problems).map((p) => `${p.line}:${p.column} ${p.message}`);

describe('lenient YAML is never silent', () => {
  it('an unknown tag (!!python/object:…, !custom) gets a located warning each; the values load as plain text', () => {
    const text = 'name: tagged\ntrigger: !!python/object:os.system Check the deploy\nsteps:\n  - !custom Run the build\n';
    const result = parseSkillDocument(text, '/p/tagged.skill.yaml');
    assert.equal(result.skills[0]?.trigger, 'Check the deploy');
    assert.deepEqual(result.skills[0]?.steps, ['Run the build']);
    const found = at(result.problems);
    assert.equal(found.length, 2, found.join('\n'));
    assert.match(found[0]!, /^2:10 Unknown YAML tag `!!python\/object:os\.system`.*ignored/);
    assert.match(found[1]!, /^4:5 Unknown YAML tag `!custom`/);
  });

  it('%YAML 9.9 and %TAG directives get a warning on their line', () => {
    const version = parseSkillDocument('%YAML 9.9\n---\nname: version\ntrigger: Check the version\nsteps: [Run it]\n', '/p/v.skill.yaml');
    assert.equal(version.skills.length, 1);
    assert.match(at(version.problems).join('\n'), /^1:\d+ .*%YAML 9\.9.*YAML 1\.2/);
    const tag = parseSkillDocument('%TAG !e! tag:example.com,2000:\n---\nname: tagdir\ntrigger: Check the tag directive\nsteps: [Run it]\n', '/p/t.skill.yaml');
    assert.equal(tag.skills.length, 1);
    assert.match(at(tag.problems).join('\n'), /^1:1 .*%TAG !e!.*ignored/);
  });

  it('a broken second document in a .skill.yaml is reported where it breaks; the first still loads', () => {
    const first = 'name: first\ntrigger: Check the first document\nsteps: [Run it]\n';
    const tagged = parseSkillDocument(`${first}---\nname: second\ntrigger: !custom Check the second\nsteps: [Run it]\n`, '/p/two.skill.yaml');
    assert.deepEqual(
      tagged.skills.map((s) => s.name),
      ['first', 'second'],
    );
    assert.match(at(tagged.problems).join('\n'), /^6:10 Unknown YAML tag `!custom`/);
    const broken = parseSkillDocument(`${first}---\nname: second\ntrigger: [unclosed\n`, '/p/two.skill.yaml');
    assert.ok(broken.skills.some((s) => s.name === 'first'));
    assert.ok(
      broken.problems.some((p) => p.line >= 5 && p.severity !== 'info'),
      JSON.stringify(broken.problems),
    );
  });

  it('an empty key gets a warning at its line (not an "unknown field ``" at the file start)', () => {
    for (const [text, line] of [
      ['name: emptykey\ntrigger: Check the empty key\n: orphan value\nsteps: [Run it]\n', 3],
      ['name: emptykey\ntrigger: Check the empty key\n"": orphan value\nsteps: [Run it]\n', 3],
    ] as const) {
      const result = parseSkillDocument(text, '/p/e.skill.yaml');
      assert.equal(result.skills.length, 1);
      const found = warnings(result.problems);
      assert.ok(
        found.some((p) => p.line === line && /Empty key/.test(p.message)),
        JSON.stringify(found),
      );
      assert.ok(!found.some((p) => p.message.includes('Unknown field ``')), JSON.stringify(found));
    }
  });

  it('in SKILL.md frontmatter too', () => {
    const result = parseSkillDocument('---\nname: tagged\ndescription: !custom Check the deploy\n---\nBody text.\n', '/p/tagged/SKILL.md');
    assert.equal(result.skills[0]?.description, 'Check the deploy');
    assert.match(at(result.problems).join('\n'), /^3:14 Unknown YAML tag `!custom`/);
  });

  it('a clean file gets no warning', () => {
    const result = parseSkillDocument('name: clean\ntrigger: Check the clean file\nsteps:\n  - Run it\n', '/p/c.skill.yaml');
    assert.deepEqual(warnings(result.problems), []);
  });
});
