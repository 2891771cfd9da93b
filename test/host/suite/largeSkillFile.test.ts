import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, toolshed } from './helpers';

const skillsDir = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.github', 'skills');

suite('large skill files', () => {
  const uri = () => vscode.Uri.joinPath(skillsDir(), 'large-probe.skill.yaml');

  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(uri()).then(undefined, () => undefined);
  });

  test('a 200 KB skill file is parsed on the worker thread inside VS Code, and its skill loads and is found', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const before = api.services.parserThread.offThreadCount;
    // 10,000 unknown keys: a real parse (warnings for each key), large enough to leave the main thread.
    const keys = Array.from({ length: 10_000 }, (_, i) => `note_${i}: kept aside`).join('\n');
    await vscode.workspace.fs.writeFile(uri(), Buffer.from(`name: large-probe\ntrigger: When rotating the quarterly signing certificates\nsteps:\n  - Rotate them.\n${keys}\n`));
    await eventually(() => api.services.skills.inspect('large-probe'), 'the large skill loaded', 20_000);
    assert.ok(api.services.parserThread.offThreadCount > before, 'parsed by the worker thread');
    const found = await api.services.skills.search({ query: 'rotate quarterly signing certificates' }, api.services.skillContext());
    assert.equal(found.skills[0]?.name, 'large-probe');
  });
});
