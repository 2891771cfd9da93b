import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { toolshed } from './helpers';
import { askToolshed, withSettings } from './chatHelpers';
import { agentModeSkillNames, textOf, toolshedSkillNames } from './singleSkillHelpers';

/** VS Code 1.139+ defines chat.useAgentSkills; older hosts have no native agent skills. */
const hostHasNativeSkills = () => vscode.workspace.getConfiguration('chat').inspect('useAgentSkills')?.defaultValue !== undefined;

/** The SKILL.md folders VS Code reads in this workspace by default (`<location>/<skill>/SKILL.md`). */
function workspaceSkillMdNames(): string[] {
  const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  return ['.agents/skills', '.github/skills', '.claude/skills'].flatMap((location) => {
    const folder = path.join(root, location);
    if (!existsSync(folder)) return [];
    return readdirSync(folder, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(folder, e.name, 'SKILL.md')))
      .map((e) => e.name);
  });
}

async function skillGetMessage(name: string): Promise<{ names: string[]; message: string }> {
  const output = JSON.parse(textOf(await vscode.lm.invokeTool('skill_get', { input: { names: [name] }, toolInvocationToken: undefined }))) as {
    skills: Array<{ name: string }>;
    message?: string;
  };
  return { names: output.skills.map((s) => s.name), message: output.message ?? '' };
}

suite('native agent skills side by side (chat.useAgentSkills)', () => {
  test("with VS Code's own agent skills on, agent mode is not offered a SKILL.md skill twice; @toolshed still uses it", async function () {
    if (!hostHasNativeSkills()) this.skip();
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const native = workspaceSkillMdNames();
    assert.ok(native.includes('release-notes') && native.length >= 3, native.join(', '));
    await withSettings({ 'chat.useAgentSkills': true }, async () => {
      const agent = await agentModeSkillNames();
      for (const name of native) assert.ok(!agent.includes(name), `${name} is offered by VS Code already, not again by skill_list`);
      assert.ok(agent.includes('fix-lint'), 'a *.skill.md pack skill in the same folder is Toolshed-only and still offered');
      const got = await skillGetMessage('release-notes');
      assert.deepEqual(got.names, []);
      assert.match(got.message, /"release-notes" is not available \(VS Code offers it to agent mode itself/);
      const single = textOf(await vscode.lm.invokeTool('skill', { input: { skill_name: 'release-notes' }, toolInvocationToken: undefined }));
      assert.match(single, /VS Code offers it to agent mode itself/);
      // @toolshed builds its own prompt: every skill, the native ones included.
      const all = await toolshedSkillNames();
      for (const name of native) assert.ok(all.includes(name), `@toolshed still sees ${name}`);
      const { recorded } = await askToolshed('release-notes', { command: 'skill' });
      assert.match(recorded.markdown(), /Pinned .*`release-notes`/);
      const listing = await askToolshed('', { command: 'skills' });
      assert.match(listing.recorded.markdown(), new RegExp(`${native.length} SKILL\\.md skills are also VS Code's own agent skills`));
      const tree = await vscode.commands.executeCommand<{ items: Array<{ id?: string; label: string; description?: string }> }>(
        'toolshed._skillDirectoryItems',
      );
      const item = tree.items.find((i) => i.id?.startsWith('skill:') && i.id.endsWith(':release-notes'));
      assert.match(item?.description ?? '', /VS Code agent skill/);
      assert.ok(
        tree.items.some((i) => i.id === 'nativeAgentSkills'),
        'the Skill Directory says where the skills come from',
      );
    });
  });

  test('with native agent skills off (or on a host without them), agent mode is offered every skill', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const native = workspaceSkillMdNames();
    const check = async () => {
      const agent = await agentModeSkillNames();
      assert.deepEqual([...agent].sort(), (await toolshedSkillNames()).sort(), 'agent mode and @toolshed see the same skills');
      for (const name of native) assert.ok(agent.includes(name), `${name} offered by Toolshed`);
      assert.deepEqual((await skillGetMessage('release-notes')).names, ['release-notes']);
      const tree = await vscode.commands.executeCommand<{ items: Array<{ id?: string }> }>('toolshed._skillDirectoryItems');
      assert.ok(!tree.items.some((i) => i.id === 'nativeAgentSkills'));
    };
    if (hostHasNativeSkills()) await withSettings({ 'chat.useAgentSkills': false }, check);
    else await check();
  });

  test('@toolshed loads the folders chat.agentSkillsLocations names, and not one turned off', async function () {
    if (!hostHasNativeSkills()) this.skip();
    const api = await toolshed();
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const folder = path.join(root, 'team-agent-skills');
    mkdirSync(path.join(folder, 'team-handbook'), { recursive: true });
    writeFileSync(
      path.join(folder, 'team-handbook', 'SKILL.md'),
      '---\nname: team-handbook\ndescription: Follow the team handbook.\n---\n\nRead the handbook.\n',
    );
    try {
      await api.services.skillPacks.ready;
      assert.ok(!(await toolshedSkillNames()).includes('team-handbook'), 'not a location yet');
      await withSettings({ 'chat.agentSkillsLocations': { 'team-agent-skills': true, '.github/skills': false } }, async () => {
        await api.services.skillPacks.ready;
        const names = await toolshedSkillNames();
        assert.ok(names.includes('team-handbook'), 'a custom location is loaded');
        assert.ok(!names.includes('release-notes'), '.github/skills turned off is not read');
      });
      await api.services.skillPacks.ready;
      assert.ok((await toolshedSkillNames()).includes('release-notes'), 'back to the defaults');
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await api.services.skillPacks.reload();
    }
  });
});
