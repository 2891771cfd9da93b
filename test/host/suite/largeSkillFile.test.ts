import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, toolshed } from './helpers';

const skillsDir = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.github', 'skills');

suite('large skill files', () => {
  const uri = () => vscode.Uri.joinPath(skillsDir(), 'large-probe.skill.yaml');

  const editorUri = () => vscode.Uri.joinPath(skillsDir(), 'large-editor.skill.yaml');

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const file of [uri(), editorUri()]) await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
  });

  test('a 200 KB skill file is parsed on the worker thread inside VS Code, and its skill loads and is found', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const before = api.services.parserThread.offThreadCount;
    // 10,000 unknown keys: a real parse (warnings for each key), large enough to leave the main thread.
    const keys = Array.from({ length: 10_000 }, (_, i) => `note_${i}: kept aside`).join('\n');
    await vscode.workspace.fs.writeFile(
      uri(),
      Buffer.from(`name: large-probe\ntrigger: When rotating the quarterly signing certificates\nsteps:\n  - Rotate them.\n${keys}\n`),
    );
    await eventually(() => api.services.skills.inspect('large-probe'), 'the large skill loaded');
    assert.ok(api.services.parserThread.offThreadCount > before, 'parsed by the worker thread');
    const found = await api.services.skills.search({ query: 'rotate quarterly signing certificates' }, api.services.skillContext());
    assert.equal(found.skills[0]?.name, 'large-probe');
  });

  test('a 100 KB skill document open in the editor is validated on the worker thread, and its diagnostics follow edits', async () => {
    const api = await toolshed();
    const ours = () => vscode.languages.getDiagnostics(editorUri()).filter((d) => d.source === 'toolshed');
    const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
    // Comment lines make it large without problems of their own.
    const padding = '# notes kept aside\n'.repeat(6_000);
    await vscode.workspace.fs.writeFile(editorUri(), Buffer.from(`name: large-editor\ntrigger: When editing a large skill\nsteps:\n  - Edit it.\n${padding}`));
    const before = api.services.parserThread.offThreadCount;
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(editorUri()), { preview: false });
    await eventually(() => (api.services.parserThread.offThreadCount > before ? true : undefined), 'the open document validated by the worker thread');
    assert.deepEqual(ours().map(codeOf), []);
    await editor.edit((edit) => edit.replace(new vscode.Range(2, 0, 3, 11), 'steps: 42'));
    const diagnostic = await eventually(
      () => ours().find((d) => codeOf(d) === 'wrong-type' || codeOf(d) === 'missing-steps'),
      'a steps diagnostic after the edit',
    );
    assert.equal(diagnostic.range.start.line, 2);
    // Leave no invalid skill behind (the sidebar badge would count it for later suites).
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.workspace.fs.delete(editorUri());
    await eventually(() => (ours().length === 0 ? true : undefined), 'the diagnostics cleared once the document is gone');
  });
});
