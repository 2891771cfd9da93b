import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOLSHED_ID, eventually, toolshed } from './helpers';

interface RenderedTree {
  description?: string;
  badge?: number;
  items: Array<{ label: string; description?: string; contextValue?: string; depth: number; id?: string; tooltip?: string }>;
}

const skillItems = () => vscode.commands.executeCommand<RenderedTree>('toolshed._skillDirectoryItems');
const toolItems = () => vscode.commands.executeCommand<RenderedTree>('toolshed._activatedToolsItems');
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;

/** The tree item of a skill (skill ids are `skill:<pack>:<name>`). */
async function skillItem(name: string) {
  return (await skillItems()).items.find((item) => item.id?.endsWith(`:${name}`) && item.id.startsWith('skill:'));
}

suite('views: Toolshed sidebar', () => {
  suiteSetup(async () => {
    await toolshed();
  });

  test('the view container, its three views, the welcome content and the walkthrough are contributed', () => {
    const pkg = vscode.extensions.getExtension(TOOLSHED_ID)!.packageJSON;
    assert.deepEqual(
      pkg.contributes.viewsContainers.activitybar.map((c: { id: string }) => c.id),
      ['toolshed'],
    );
    assert.deepEqual(
      pkg.contributes.views.toolshed.map((v: { id: string }) => v.id),
      ['toolshed.skillDirectory', 'toolshed.activatedTools', 'toolshed.ledger'],
    );
    assert.ok(pkg.contributes.viewsWelcome.some((w: { view: string }) => w.view === 'toolshed.skillDirectory'));
    const walkthrough = pkg.contributes.walkthroughs.find((w: { id: string }) => w.id === 'toolshed.gettingStarted');
    assert.ok(walkthrough, 'walkthrough contributed');
    assert.deepEqual(
      walkthrough.steps.map((s: { id: string }) => s.id),
      ['what', 'addPack', 'participant', 'toolSearch'],
    );
  });

  test('every view command is registered', async () => {
    const commands = new Set(await vscode.commands.getCommands(true));
    for (const id of [
      'openSkill',
      'copySkillName',
      'pinSkill',
      'unpinSkill',
      'retireSkill',
      'restoreSkill',
      'insertSkillReference',
      'revealSkillInExplorer',
      'showToolDetails',
      'clearActivatedTools',
    ]) {
      assert.ok(commands.has(`toolshed.${id}`), `toolshed.${id}`);
    }
  });

  test('the sidebar opens and the walkthrough can be opened', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.toolshed');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${TOOLSHED_ID}#toolshed.gettingStarted`, false);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('Skill Directory lists the built-in pack and the workspace skills, with counts', async () => {
    const tree = await eventually(async () => {
      const rendered = await skillItems();
      const ids = rendered.items.map((i) => i.id ?? '');
      return ids.some((id) => id.endsWith(':fix-lint')) && ids.some((id) => id.endsWith(':release-notes')) && ids.some((id) => id.endsWith(':write-a-skill'))
        ? rendered
        : undefined;
    }, 'the fixture and built-in skills in the tree');
    const fixLint = tree.items.find((i) => i.id?.endsWith(':fix-lint'))!;
    assert.equal(fixLint.label, 'Fix lint and type errors');
    assert.match(fixLint.description ?? '', /^fix-lint — When `npm run lint`/);
    assert.match(fixLint.tooltip ?? '', /Steps:\* 3/);
    assert.ok(
      tree.items.some((i) => i.depth === 0 && i.id === 'pack:core'),
      'the built-in pack is a root',
    );
    // The badge means "something needs you": invalid skills only, never the loaded count.
    const invalid = tree.items.filter((i) => /\.invalid/.test(i.contextValue ?? '')).length;
    assert.equal(tree.badge, invalid || undefined, `badge ${tree.badge} for ${invalid} invalid skills`);
    assert.match(tree.description ?? '', /\d+ skills · \d+ packs/);
  });

  test('a pack added in settings appears, with an inactive skill and its reason', async () => {
    // The example workspace configures the pack; remove it first so its arrival is observed.
    await vscode.workspace.getConfiguration('toolshed').update('skills.packs', [], vscode.ConfigurationTarget.Workspace);
    await eventually(async () => !(await skillItem('deploy-preview')), 'the team pack gone once removed from settings');
    await vscode.workspace.getConfiguration('toolshed').update('skills.packs', [{ name: 'team', path: 'skills' }], vscode.ConfigurationTarget.Workspace);
    const deploy = await eventually(() => skillItem('deploy-preview'), 'deploy-preview from the team pack');
    assert.ok(deploy.id?.startsWith('skill:team:'));
    // Inactive for want of the variable it requires, unless the host's environment has it.
    if (!process.env.PREVIEW_DEPLOY_TOKEN) {
      assert.match(deploy.contextValue ?? '', /\.inactive/);
      assert.match(deploy.description ?? '', /inactive: .*PREVIEW_DEPLOY_TOKEN/);
    } else assert.doesNotMatch(deploy.contextValue ?? '', /\.inactive/);
    assert.ok(await skillItem('name-branches'), 'jsonl skills listed');
    assert.ok(await skillItem('paginate-api'), 'json skills listed');
  });

  test('the tree follows a skill file being added, broken, fixed and deleted', async () => {
    const uri = vscode.Uri.joinPath(folder(), '.github', 'skills', 'views-probe.skill.md');
    const valid = '---\nname: views-probe\ntrigger: When probing the views.\nsteps:\n  - Probe.\n---\n';
    await vscode.workspace.fs.writeFile(uri, Buffer.from(valid));
    const added = await eventually(() => skillItem('views-probe'), 'the added skill');
    assert.match(added.contextValue ?? '', /\.active/);

    await vscode.workspace.fs.writeFile(uri, Buffer.from('---\nname: views-probe\ntrigger: When probing the views.\n---\n'));
    await eventually(async () => /\.invalid/.test((await skillItem('views-probe'))?.contextValue ?? ''), 'the skill shown as invalid');

    await vscode.workspace.fs.writeFile(uri, Buffer.from(valid));
    await eventually(async () => /\.active/.test((await skillItem('views-probe'))?.contextValue ?? ''), 'the skill valid again');

    await vscode.workspace.fs.delete(uri);
    await eventually(async () => !(await skillItem('views-probe')), 'the deleted skill gone');
  });

  test("open goes to the skill's definition", async () => {
    await eventually(() => skillItem('fix-lint'), 'fix-lint');
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('toolshed.openSkill', 'fix-lint');
    assert.ok(editor);
    assert.match(vscode.window.activeTextEditor?.document.uri.path ?? '', /fix-lint\.skill\.md$/);
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, 0);
  });

  test('pin and unpin change the item and the pinned state', async () => {
    await vscode.commands.executeCommand('toolshed.pinSkill', 'fix-lint');
    await eventually(async () => /\.pinned\./.test((await skillItem('fix-lint'))?.contextValue ?? ''), 'fix-lint pinned');
    await vscode.commands.executeCommand('toolshed.unpinSkill', 'fix-lint');
    await eventually(async () => /\.unpinned\./.test((await skillItem('fix-lint'))?.contextValue ?? ''), 'fix-lint unpinned');
  });

  test('copy name writes the skill name to the clipboard', async () => {
    // The harness grants the page clipboard permissions, so the browser clipboard round-trips.
    await vscode.env.clipboard.writeText('something else');
    const copied = await vscode.commands.executeCommand<string>('toolshed.copySkillName', 'fix-lint');
    assert.equal(copied, 'fix-lint');
    assert.equal(await vscode.env.clipboard.readText(), 'fix-lint');
  });

  test('insert reference puts a #file reference in the chat input (or the clipboard)', async () => {
    const text = await vscode.commands.executeCommand<string>('toolshed.insertSkillReference', 'fix-lint');
    assert.equal(text, '#file:.github/skills/fix-lint.skill.md ');
    await vscode.commands.executeCommand('toolshed.revealSkillInExplorer', 'fix-lint');
  });

  test('Activated Tools shows the deferred catalog size and follows activations', async () => {
    const tree = await toolItems();
    assert.match(tree.description ?? '', /activated tools? · \d+ deferred/);
    // Agent mode's searches change no tool list; what it runs through tool_invoke is listed.
    await vscode.lm.invokeTool('tool_invoke', { input: { name: 'fixture_weather_forecast', input: { city: 'Oslo' } }, toolInvocationToken: undefined });
    const after = await eventually(async () => {
      const rendered = await toolItems();
      return rendered.items.some((i) => i.depth === 1) ? rendered : undefined;
    }, 'activations listed');
    const tool = after.items.find((i) => i.depth === 1)!;
    assert.match(tool.description ?? '', /called/);
    assert.ok(
      after.items.some((i) => i.depth === 0 && /Copilot agent mode/.test(String(i.label))),
      'grouped under the agent-mode session',
    );
    await vscode.commands.executeCommand('toolshed.clearActivatedTools');
    await eventually(async () => (await toolItems()).items.length === 0, 'activations cleared');
  });

  test('Show Tool Details opens a read-only document with description and schema', async () => {
    const name = vscode.lm.tools[0]?.name;
    assert.ok(name, 'some language-model tool is registered');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('toolshed.showToolDetails', name);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.match(document.getText(), new RegExp(`^# ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(document.getText(), /## Input schema/);
  });
});
