import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOLSHED_ID, eventually, toolshed, withDiagnosticsPublished } from './helpers';

const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
const skillsDir = () => vscode.Uri.joinPath(folder(), '.github', 'skills');

const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'toolshed');
const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);

const created: vscode.Uri[] = [];

async function openNew(relative: string, text: string): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.joinPath(skillsDir(), ...relative.split('/'));
  created.push(uri);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
  // Returned once validated, so a test may check that a document has no diagnostic.
  const document = await withDiagnosticsPublished(uri, () => vscode.workspace.openTextDocument(uri));
  return vscode.window.showTextDocument(document);
}

async function waitForCode(uri: vscode.Uri, code: string): Promise<vscode.Diagnostic> {
  return eventually(() => ours(uri).find((d) => codeOf(d) === code), `a ${code} diagnostic on ${uri.path}`);
}

async function applyFix(uri: vscode.Uri, diagnostic: vscode.Diagnostic, title: RegExp): Promise<void> {
  // The editor offers fixes for the markers present at the range; right after a (debounced)
  // re-validation they may be re-published, so ask until the fix shows, as the lightbulb would.
  let titles: string[] = [];
  const action = await eventually(
    async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        diagnostic.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      titles = actions.map((a) => a.title);
      return actions.find((a) => title.test(a.title) && a.edit);
    },
    () => `a quick fix matching ${title} (offered: ${titles.join(', ') || 'none'})`,
  );
  assert.ok(await vscode.workspace.applyEdit(action.edit!));
}

suite('authoring: skill files in the editor', () => {
  suiteSetup(async () => {
    await toolshed();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    // Leave the workspace's skill folder as the fixtures had it (the page checks look at it).
    for (const uri of created.splice(0)) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(skillsDir(), 'folder-probe'), { recursive: true }).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(skillsDir(), 'name-probe'), { recursive: true }).then(undefined, () => undefined);
  });

  test('a # that cuts a YAML step mid-sentence gets a warning and a quick fix that quotes the step', async () => {
    const editor = await openNew(
      'hash-probe.skill.yaml',
      'name: hash-probe\ntrigger: When a ticket is filed.\nsteps:\n  - Post the new ticket key to the #team channel\n',
    );
    const uri = editor.document.uri;
    const diagnostic = await waitForCode(uri, 'mid-line-comment');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(diagnostic.range.start.line, 3);
    await applyFix(uri, diagnostic, /Quote the value/);
    assert.equal(editor.document.lineAt(3).text, '  - "Post the new ticket key to the #team channel"');
    await editor.document.save();
    await eventually(() => !ours(uri).some((d) => codeOf(d) === 'mid-line-comment'), 'the warning gone after the fix');
  });

  test('a missing trigger is flagged on the frontmatter, fixed by the quick fix, and the diagnostic goes away', async () => {
    const editor = await openNew('authoring-trigger.skill.md', '---\nname: authoring-trigger\nsteps:\n  - Do it.\n---\nBody.\n');
    const uri = editor.document.uri;
    const diagnostic = await waitForCode(uri, 'missing-trigger');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    await applyFix(uri, diagnostic, /Add a trigger/);
    assert.match(editor.document.getText(), /^trigger: /m);
    await eventually(() => ours(uri).length === 0, 'no diagnostics after the fix');
  });

  test('diagnostics follow typing (debounced), with an exact range on the offending value', async () => {
    const editor = await openNew('authoring-typing.skill.yaml', 'name: authoring-typing\ntrigger: When typing.\nsteps:\n  - Type.\n');
    const uri = editor.document.uri;
    assert.deepEqual(ours(uri).map(codeOf), []);
    await editor.edit((edit) => edit.replace(new vscode.Range(2, 0, 3, 9), 'steps: 42'));
    const diagnostic = await eventually(() => ours(uri).find((d) => ['missing-steps', 'wrong-type'].includes(codeOf(d))), 'a steps diagnostic');
    assert.equal(diagnostic.range.start.line, 2);
    assert.equal(editor.document.getText(diagnostic.range), '42');
    await editor.edit((edit) => edit.replace(editor.document.lineAt(2).range, 'steps:\n  - Type.'));
    await eventually(() => ours(uri).length === 0, 'the diagnostic gone after the edit');
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'colour: blue\n'));
    const unknown = await waitForCode(uri, 'unknown-field');
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Warning);
  });

  test('diagnostics are cleared when the document is closed', async function () {
    this.timeout(90_000);
    const uri = vscode.Uri.joinPath(skillsDir(), 'authoring-close.skill.md');
    created.push(uri);
    await vscode.workspace.fs.writeFile(uri, Buffer.from('---\nname: authoring-close\nsteps:\n  - Close.\n---\n'));
    // Opened through the workbench (not openTextDocument, whose reference keeps the document
    // alive in the extension host for minutes), so closing the editor really closes it.
    await vscode.commands.executeCommand('vscode.open', uri);
    await waitForCode(uri, 'missing-trigger');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await eventually(() => ours(uri).length === 0, 'diagnostics cleared on close');
  });

  test('SKILL.md name must match the folder; the quick fix renames it', async () => {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(skillsDir(), 'folder-probe'));
    const editor = await openNew('folder-probe/SKILL.md', '---\nname: wrong-name\ndescription: Probes the folder rule.\n---\nDo it.\n');
    const uri = editor.document.uri;
    const diagnostic = await waitForCode(uri, 'name-mismatch-folder');
    assert.equal(editor.document.getText(diagnostic.range), 'wrong-name');
    await applyFix(uri, diagnostic, /folder-probe/);
    assert.match(editor.document.getText(), /^name: folder-probe$/m);
    await eventually(() => !ours(uri).some((d) => codeOf(d) === 'name-mismatch-folder'), 'fixed');
    await editor.document.save();
  });

  test('a SKILL.md name off the agentskills rule is a warning in Problems; the quick fix writes the name it loads as', async () => {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(skillsDir(), 'name-probe'));
    const editor = await openNew('name-probe/SKILL.md', '---\nname: Name Probe\ndescription: Probes the name rule.\nmetadata:\n  version: 2\n---\nDo it.\n');
    const uri = editor.document.uri;
    const diagnostic = await waitForCode(uri, 'invalid-name');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(editor.document.getText(diagnostic.range), 'Name Probe');
    assert.match(diagnostic.message, /loads as `name-probe`/);
    assert.ok(
      ours(uri).every((d) => d.severity === vscode.DiagnosticSeverity.Warning),
      'the metadata number is a warning too',
    );
    await applyFix(uri, diagnostic, /name-probe/);
    assert.match(editor.document.getText(), /^name: name-probe$/m);
    await eventually(() => !ours(uri).some((d) => codeOf(d) === 'invalid-name'), 'fixed');
    await editor.document.save();
  });

  test('an unknown field can be moved into metadata', async () => {
    const editor = await openNew('authoring-meta.skill.md', '---\nname: authoring-meta\ntrigger: When probing.\nowner: ada\nsteps:\n  - Probe.\n---\n');
    const uri = editor.document.uri;
    const diagnostic = await waitForCode(uri, 'unknown-field');
    assert.equal(editor.document.getText(diagnostic.range), 'owner');
    await applyFix(uri, diagnostic, /into metadata/);
    assert.match(editor.document.getText(), /metadata:\n {2}owner: ada/);
    await eventually(() => ours(uri).length === 0, 'clean after moving the field');
  });

  test('duplicate names across files are flagged on both files', async () => {
    const a = await openNew('dup-a.skill.md', '---\nname: dup-probe\ntrigger: A.\nsteps:\n  - A.\n---\n');
    const bUri = vscode.Uri.joinPath(skillsDir(), 'dup-b.skill.yaml');
    await vscode.workspace.fs.writeFile(bUri, Buffer.from('name: dup-probe\ntrigger: B.\nsteps:\n  - B.\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(bUri), { preview: false });
    const onA = await waitForCode(a.document.uri, 'duplicate-name');
    const onB = await waitForCode(bUri, 'duplicate-name');
    assert.match(onA.message, /dup-b\.skill\.yaml/);
    assert.match(onB.message, /dup-a\.skill\.md/);
    await vscode.workspace.fs.delete(bUri);
  });

  test('completions offer missing keys and enum values; hovers document fields from the schema', async () => {
    const editor = await openNew('authoring-complete.skill.md', '---\nname: authoring-complete\ntask_type: \n---\n');
    const uri = editor.document.uri;
    const values = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(2, 11));
    const labels = values.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const value of ['browser', 'api', 'code', 'domain', 'unknown']) assert.ok(labels.includes(value), `enum value ${value}`);

    await editor.edit((edit) => edit.insert(new vscode.Position(3, 0), 'tr\n'));
    const keys = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, new vscode.Position(3, 2));
    const steps = keys.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'trigger');
    assert.ok(steps, 'trigger offered');
    assert.ok(!keys.items.some((i) => i.label === 'name' && i.kind === vscode.CompletionItemKind.Property), 'present keys not offered');

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(2, 3));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
    assert.match(text, /`browser`, `api`, `code`, `domain` or `unknown`/);
  });

  test('New Skill… writes a valid template and opens it', async () => {
    const target = vscode.Uri.joinPath(folder(), 'skills');
    const uri = await withDiagnosticsPublished(vscode.Uri.joinPath(target, 'new-probe.skill.md'), () =>
      vscode.commands.executeCommand<vscode.Uri>('toolshed.newSkill', { format: 'md', name: 'new-probe', folder: target.fsPath }),
    );
    assert.ok(uri);
    assert.match(uri.path, /skills\/new-probe\.skill\.md$/);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString());
    assert.deepEqual(ours(uri).map(codeOf), []);
    await vscode.workspace.fs.delete(uri);
  });

  test('Validate Skill Packs reports problems of closed files in the Problems panel', async () => {
    const broken = vscode.Uri.joinPath(skillsDir(), 'broken-closed.skill.yaml');
    await vscode.workspace.fs.writeFile(broken, Buffer.from('name: broken-closed\nsteps: []\n'));
    const result = await vscode.commands.executeCommand<{ errors: number; problems: Array<{ file: string; code: string }> }>('toolshed.validateSkillPacks');
    assert.ok(
      result.problems.some((p) => p.file.endsWith('broken-closed.skill.yaml')),
      'the broken file is reported',
    );
    assert.ok(result.errors >= 1);
    await eventually(() => ours(broken).length > 0, 'Problems panel has the closed file');
    await vscode.workspace.fs.delete(broken);
  });

  test('the JSON Schema generated from the zod schema ships and is contributed', async () => {
    const extension = vscode.extensions.getExtension(TOOLSHED_ID)!;
    const pkg = extension.packageJSON;
    assert.deepEqual(pkg.contributes.jsonValidation, [{ fileMatch: ['*.skill.json'], url: './dist/schemas/skill.schema.json' }]);
    assert.equal(pkg.contributes.yamlValidation[0].url, './dist/schemas/skill.schema.json');
    const schema = JSON.parse(
      Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extension.extensionUri, 'dist', 'schemas', 'skill.schema.json'))).toString('utf8'),
    );
    assert.equal(schema.properties.trigger.description, 'When to use this skill, in one sentence.');
    assert.ok(schema.required.includes('steps'));
  });
});
