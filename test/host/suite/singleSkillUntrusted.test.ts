import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedModel, toolshed } from './helpers';
import { askToolshed, lastToolResultText, withSettings } from './chatHelpers';
import { skillToolOf, toolshedSkillNames } from './singleSkillHelpers';

/** Runs only in the trust-on pass: the example workspace is untrusted, its .github/skills hidden. */
suite('untrusted workspace: single skill tool', () => {
  test('the enum leaves out the hidden workspace skill, and calling it by name is answered like an unknown one', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const api = await toolshed();
    await api.services.skillPacks.ready;
    assert.ok(
      api.services.skills.listPacks().some((p) => p.skills.some((s) => s.name === 'triage-issue')),
      'the workspace skill is loaded (for the views)',
    );
    await withSettings(
      { 'toolshed.skills.toolStyle': 'single', 'toolshed.skills.singleToolMaxEntries': 500, 'toolshed.skills.singleToolMaxTokens': 20000 },
      async () => {
        const model = await scriptedModel();
        model.setScript([[{ toolCall: { name: 'skill', input: { skill_name: 'triage-issue' } } }], 'ok']);
        await askToolshed('Please triage this new GitHub issue about a crash');
        const skill = skillToolOf(model.requests[0]!);
        assert.ok(!skill.enum.includes('triage-issue'));
        assert.ok(!skill.description.includes('triage-issue'));
        assert.deepEqual([...skill.enum].sort(), (await toolshedSkillNames()).sort());
        const answer = lastToolResultText(model.requests[1] as never);
        // The one Restricted Mode rule: the name the model asked for is said to be
        // hidden, nothing of its content is loaded.
        assert.match(answer, /"triage-issue".*hidden in Restricted Mode/s);
        assert.ok(!/Steps:|When:/.test(answer), `no content of the hidden skill: ${answer}`);
      },
    );
  });
});
