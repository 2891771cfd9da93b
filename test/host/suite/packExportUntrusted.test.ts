import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentSkillName } from '../../../src/core/learning/snapshot/skillMdDocument';
import { toolshed } from './helpers';

/** Runs only in the trust-on pass (the example workspace is not trusted). */
suite('untrusted workspace: Export as Skill Pack writes nothing into the workspace', () => {
  const name = 'learned.code.untrusted-export-probe';

  suiteTeardown(async () => {
    await (await toolshed()).services.skills.removeLearnedSkill(name);
  });

  test('the command refuses in Restricted Mode, leaves the learned skill as it was and creates no folder', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const api = await toolshed();
    await api.services.skills.addLearnedSkill({ name, trigger: 'When probing the export in Restricted Mode', steps: ['Do nothing.'], scope_mode: 'global' });
    const before = JSON.stringify(api.services.skills.learnedSkills().find((r) => r.name === name));
    const result = await vscode.commands.executeCommand<{ error?: string }>('toolshed.learning.exportAsSkillPack', name);
    assert.deepEqual(result, { error: 'untrusted workspace' });
    const folder = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.github', 'skills', agentSkillName(name));
    assert.equal(existsSync(folder), false, 'nothing written');
    assert.equal(JSON.stringify(api.services.skills.learnedSkills().find((r) => r.name === name)), before, 'learned skill unchanged');
  });
});
