import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { commentContinuesSentence } from '../../../src/core/skills/packs/document/yamlMidLineComment';
import { applyEdits, quickFixesFor } from '../../../src/vscode/authoring/quickFixes';

const yamlSkill = (step: string) => `name: post-ticket\ntrigger: When a ticket is filed.\nsteps:\n  - Create the ticket.\n  - ${step}\n`;

describe('YAML: a # that cuts a plain value mid-sentence', () => {
  it('flags the #team step with a warning on the value and the comment, and the quick fix keeps the whole text', () => {
    const text = yamlSkill('Post the new ticket key to the #team channel');
    const result = parseSkillDocument(text, '/p/post.skill.yaml');
    assert.deepEqual(result.skills[0]!.steps, ['Create the ticket.', 'Post the new ticket key to the'], 'YAML itself cuts it');
    const problem = result.problems.find((p) => p.code === 'mid-line-comment');
    assert.ok(problem, JSON.stringify(result.problems));
    assert.equal(problem.severity, 'warning');
    assert.equal(problem.line, 5);
    assert.equal(problem.column, 5);
    assert.match(problem.message, /"#team channel" as a comment/);
    const [fix] = quickFixesFor(text, 'yaml', '/p/post.skill.yaml', problem);
    const fixed = applyEdits(text, fix!.edits);
    assert.equal(fixed, yamlSkill('"Post the new ticket key to the #team channel"'));
    const reparsed = parseSkillDocument(fixed, '/p/post.skill.yaml');
    assert.deepEqual(reparsed.skills[0]!.steps, ['Create the ticket.', 'Post the new ticket key to the #team channel']);
    assert.ok(!reparsed.problems.some((p) => p.code === 'mid-line-comment'));
  });

  it('works in the frontmatter of a .skill.md file (positions in the whole file)', () => {
    const text = `---\n${yamlSkill('Link the issue #123 in the PR')}---\n\nBody.\n`;
    const problem = parseSkillDocument(text, '/p/post.skill.md').problems.find((p) => p.code === 'mid-line-comment');
    assert.ok(problem);
    assert.equal(problem.line, 6);
    const fixed = applyEdits(text, quickFixesFor(text, 'md', '/p/post.skill.md', problem)[0]!.edits);
    assert.deepEqual(parseSkillDocument(fixed, '/p/post.skill.md').skills[0]!.steps, ['Create the ticket.', 'Link the issue #123 in the PR']);
  });

  it('leaves deliberate comments, quoted values and keys alone', () => {
    for (const step of ['Run the tests.  # slow on CI', 'Deploy  # TODO: automate', '"Post to the #team channel"', 'Run lint # Capitalised note']) {
      const problems = parseSkillDocument(yamlSkill(step), '/p/x.skill.yaml').problems.filter((p) => p.code === 'mid-line-comment');
      assert.deepEqual(problems, [], step);
    }
    assert.equal(commentContinuesSentence('Post the key to the', '# team channel'), true);
    assert.equal(commentContinuesSentence('Deploy', '# later'), false);
  });

  it('never throws and every fix round-trips the text after # (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z ]{2,30}[a-z]$/), fc.stringMatching(/^[a-z0-9][a-z0-9 ]{0,20}$/), (head, tail) => {
        const step = `${head} #${tail}`;
        const text = yamlSkill(step);
        const problem = parseSkillDocument(text, '/p/x.skill.yaml').problems.find((p) => p.code === 'mid-line-comment');
        assert.ok(problem, step);
        const fixed = applyEdits(text, quickFixesFor(text, 'yaml', '/p/x.skill.yaml', problem)[0]!.edits);
        assert.equal(parseSkillDocument(fixed, '/p/x.skill.yaml').skills[0]!.steps[1], step.trimEnd());
      }),
      { numRuns: 200 },
    );
  });
});
