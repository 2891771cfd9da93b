import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { eventually, scriptedModel, toolshed } from './helpers';
import { askToolshed, lastToolResultText, userFacingTexts, withSettings } from './chatHelpers';
import { skillToolOf, textOf, toolshedSkillNames } from './singleSkillHelpers';

const TEAM_PACK = { name: 'team', path: 'skills', pinnedSkillNames: ['write-pr-description'] };
const DENIED_TOOL = 'fixture_admin_delete_repository';

/** Writes a pack into the test workspace (a copy; examples/ stays clean) and waits until it is loaded. */
async function withPack<T>(folder: string, file: string, lines: string[], settings: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  mkdirSync(path.join(root, folder), { recursive: true });
  writeFileSync(path.join(root, folder, file), lines.join('\n') + '\n');
  return withSettings({ 'toolshed.skills.packs': [TEAM_PACK, { name: folder, path: folder }], ...settings }, async () => {
    const api = await toolshed();
    await eventually(async () => {
      await api.services.skillPacks.ready;
      const loaded = api.services.skills.listPacks().find((p) => p.name === folder);
      return loaded && loaded.skills.length === lines.length ? loaded : undefined;
    }, `pack ${folder} loaded`);
    return fn();
  });
}

suite('@toolshed participant: single skill tool (scripted model)', () => {
  test('toolStyle single: round 1 carries `skill` with an enum of exactly the visible skills; the model calls it and gets the content; a denied tool is gated', async () => {
    const gatedSkill = JSON.stringify({
      name: 'remove-test-repositories',
      title: 'Remove test repositories',
      trigger: `When test repositories pile up; use ${DENIED_TOOL} on them.`,
      task_type: 'code',
      steps: [`Call ${DENIED_TOOL} for each test repository.`],
    });
    await withPack(
      'gated-skills',
      'gated.skill.jsonl',
      [gatedSkill],
      {
        'toolshed.skills.toolStyle': 'single',
        'toolshed.skills.singleToolMaxEntries': 500,
        'toolshed.skills.singleToolMaxTokens': 20000,
        'toolshed.toolSearch.deny': ['fixture_admin_*'],
      },
      async () => {
        const model = await scriptedModel();
        model.setScript([[{ toolCall: { name: 'skill', input: { skill_name: 'write-pr-description' } } }], 'Following the skill.']);
        await askToolshed('Help me open a pull request');
        const round1 = model.requests[0]!;
        const skill = skillToolOf(round1);
        assert.deepEqual([...skill.enum].sort(), (await toolshedSkillNames()).sort(), 'enum = the skills a model may see');
        assert.ok(skill.enum.includes('remove-test-repositories'));
        assert.ok(!round1.toolNames.some((name) => ['skill_search', 'skill_get', 'skill_list'].includes(name)), round1.toolNames.join(', '));
        assert.match(skill.description, /<skills>\n<skill name="/);
        for (const request of model.requests) {
          assert.ok(!JSON.stringify(request.tools).includes(DENIED_TOOL), 'the denied tool is not named in any tool definition');
          assert.ok(!userFacingTexts(request).includes(DENIED_TOOL), 'nor in any message');
        }
        assert.match(lastToolResultText(model.requests[1] as never), /Say what changes and why/, 'the call returned the skill content');
      },
    );
  });

  test('with 200 skills the listing is capped at singleToolMaxEntries and says how many more exist', async () => {
    const lines = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({
        name: `bulk-skill-${String(i).padStart(3, '0')}`,
        title: `Bulk skill ${i}`,
        trigger: `When bulk task number ${i} comes up.`,
        task_type: 'code',
        steps: ['Do it.'],
      }),
    );
    await withPack('bulk-skills', 'bulk.skill.jsonl', lines, { 'toolshed.skills.toolStyle': 'single' }, async () => {
      const model = await scriptedModel();
      model.setScript(['ok']);
      await askToolshed('Handle bulk task number 7');
      const skill = skillToolOf(model.requests[0]!);
      const visible = await toolshedSkillNames();
      assert.ok(visible.length >= 200);
      assert.ok(skill.enum.length <= 40 && skill.enum.length > 0, `${skill.enum.length} entries`);
      const note = new RegExp(`Showing ${skill.enum.length} of ${visible.length} skills: ${visible.length - skill.enum.length} more exist .*/skills`);
      assert.match(skill.description, note);
      assert.ok(skill.enum.includes('bulk-skill-007'), 'the skill relevant to the request made the cut');
    });
  });

  // Whether agent mode offers it is the manifest's `when` clause (VS Code keeps it in lm.tools
  // either way; see test/unit/config/languageModelTools.test.ts).
  test('agent mode: `skill` takes a free name and answers an unknown one with the closest names', async () => {
    await toolshed();
    await withSettings({ 'toolshed.skills.toolStyle': 'both' }, async () => {
      const invoke = async (name: string) => textOf(await vscode.lm.invokeTool('skill', { input: { skill_name: name }, toolInvocationToken: undefined }));
      assert.match(await invoke('write-pr-descripton'), /Unknown skill "write-pr-descripton"\. Closest skill names: [^.]*write-pr-description/);
      assert.match(await invoke('write-pr-description'), /Say what changes and why/);
    });
  });
});
