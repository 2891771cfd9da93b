import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import { NodeFileLock } from '../../../src/core/platform/nodeFileLock';
import { SHARED_SKILLS_KEY, SHARED_SKILLS_LOCK, SharedSkillStore } from '../../../src/core/skills/store/learned/sharedSkillStore';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { eventually, toolshed, type ReadyToolshed } from './helpers';

interface RenderedTree {
  items: Array<{ label: string; description?: string; contextValue?: string; id?: string; tooltip?: string }>;
}

const learnedItem = async (name: string) =>
  (await vscode.commands.executeCommand<RenderedTree>('toolshed._skillDirectoryItems')).items.find(
    (item) => item.id?.startsWith('skill:learned:') && item.id.endsWith(`:${name}`),
  );

suite('scopes: project, tenant and global learned skills', () => {
  let api: ReadyToolshed;
  const config = () => vscode.workspace.getConfiguration('toolshed');

  suiteSetup(async () => {
    api = await toolshed();
  });

  suiteTeardown(async () => {
    await config().update('scope.tenantId', undefined, vscode.ConfigurationTarget.Global);
    for (const name of ['scoped-release', 'from-other-window', 'other-team-only']) {
      for (const record of api.services.skills
        .listPacks()
        .flatMap((p) => p.skills)
        .filter((s) => s.name === name && s.scope)) {
        await api.services.skills.removeLearnedSkill(name, record.scope);
      }
    }
  });

  test('the tenant id is a user setting: a workspace cannot set it, the user can, and every skill request carries it', async () => {
    await assert.rejects(Promise.resolve(config().update('scope.tenantId', 'sneaky-team', vscode.ConfigurationTarget.Workspace)));
    assert.equal(config().inspect('scope.tenantId')?.workspaceValue, undefined);
    await config().update('scope.tenantId', 'platform-team', vscode.ConfigurationTarget.Global);
    await eventually(() => api.services.settings.current.scope.tenantId === 'platform-team', 'the tenant id setting');
    assert.equal(api.services.skillContext().scope?.tenantId, 'platform-team');
  });

  test('a learned skill starts in the project, is promoted to the tenant then global from the Skill Directory, and lands in the shared store', async () => {
    const { skills } = api.services;
    const stored = await skills.addLearnedSkill({
      name: 'scoped-release',
      trigger: 'When cutting a release',
      steps: ['Tag the commit.', 'Publish the notes.'],
      scope_mode: 'project',
      project_id: api.services.skillContext().scope?.projectId,
    });
    assert.equal(stored.scope_mode, 'project');
    await vscode.commands.executeCommand('toolshed.promoteSkill', 'scoped-release', 'tenant');
    const tenantItem = await eventually(async () => {
      const item = await learnedItem('scoped-release');
      return item?.contextValue?.endsWith('.learned.tenant') ? item : undefined;
    }, 'the promoted (tenant) skill in the Skill Directory');
    assert.match(tenantItem.tooltip ?? '', /tenant platform\\-team/);
    const sharedFile = path.join(api.services.context.globalStorageUri.fsPath, SHARED_SKILLS_KEY);
    assert.ok(existsSync(sharedFile), 'the shared store is in the global storage');
    const got = await skills.get({ names: ['scoped-release'] }, api.services.skillContext());
    assert.deepEqual(
      got.skills.map((s) => s.name),
      ['scoped-release'],
    );
    await config().update('scope.tenantId', 'another-team', vscode.ConfigurationTarget.Global);
    await eventually(async () => !(await learnedItem('scoped-release')), 'the tenant skill to disappear for another tenant');
    assert.deepEqual((await skills.get({ names: ['scoped-release'] }, api.services.skillContext())).skills, []);
    await config().update('scope.tenantId', 'platform-team', vscode.ConfigurationTarget.Global);
    await eventually(async () => await learnedItem('scoped-release'), 'the tenant skill back with the tenant id');
    assert.equal(await vscode.commands.executeCommand('toolshed.promoteSkill', 'scoped-release', 'global'), 'global');
    await eventually(async () => (await learnedItem('scoped-release'))?.contextValue?.endsWith('.learned.global'), 'the global skill in the Skill Directory');
  });

  test("another window writing the shared store shows up here; another tenant's skill never does", async () => {
    const folder = api.services.context.globalStorageUri.fsPath;
    const otherWindow = new SharedSkillStore({
      engine: api.services.engine,
      bytes: new NodeByteStore(folder),
      lock: new NodeFileLock(folder, SHARED_SKILLS_LOCK),
      logger: new MemoryLogger(),
      clock: { now: () => Date.now() },
    });
    const { records } = await otherWindow.read();
    const template = records.find((r) => r.name === 'scoped-release') as SkillRecord;
    assert.ok(template, 'the promoted skill is in the shared store');
    await otherWindow.write({
      upsert: [
        { ...template, id: 'learned:from-other-window', name: 'from-other-window', trigger: 'When another window learned it' },
        {
          ...template,
          id: 'learned:other-team-only',
          name: 'other-team-only',
          scope_mode: 'tenant',
          scope_tenant_id: 'other-team',
          trigger: 'Secret of another team',
        },
      ],
    });
    await eventually(async () => await learnedItem('from-other-window'), "the other window's global skill in this window");
    const got = await api.services.skills.get({ names: ['from-other-window', 'other-team-only'] }, api.services.skillContext());
    assert.deepEqual(
      got.skills.map((s) => s.name),
      ['from-other-window'],
    );
    assert.equal(await learnedItem('other-team-only'), undefined);
    // Removing here removes it for every window (from the shared store).
    assert.equal(await api.services.skills.removeLearnedSkill('from-other-window'), true);
    assert.equal(
      (await otherWindow.read()).records.some((r) => r.name === 'from-other-window'),
      false,
    );
  });
});
