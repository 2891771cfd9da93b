import * as assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOLSHED_ID, toolshed } from './helpers';

/** The extension's own module, as VS Code loaded it (same `require` cache, same instance). */
function extensionModule(): { deactivate(): Promise<void> | void } {
  const extension = vscode.extensions.getExtension(TOOLSHED_ID);
  assert.ok(extension);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(extension.extensionPath, extension.packageJSON.main as string)) as { deactivate(): Promise<void> | void };
}

suite('store: deactivate awaits debounced saves', () => {
  test("a change waiting in the skill store's save debounce is on disk when deactivate() resolves", async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const ctx = api.services.skillContext();
    const [first] = (await api.services.skills.list({ page_size: 1 }, ctx)).skills;
    assert.ok(first, 'the built-in packs give at least one skill');
    assert.ok(api.storageUri);
    const file = path.join(api.storageUri.fsPath, 'skills.db');
    await api.services.flush();
    const before = readFileSync(file);
    const usesBefore = api.services.skills.inspect(first.name)?.use_count ?? 0;
    // skill_get records a use: the store is changed and its save is debounced (1 s).
    await api.services.skills.get({ names: [first.name] }, ctx);
    assert.equal(api.services.skills.inspect(first.name)?.use_count, usesBefore + 1);
    await extensionModule().deactivate();
    const after = readFileSync(file);
    assert.ok(statSync(file).size > 0);
    assert.notDeepEqual(after, before, 'skills.db was written before deactivate() resolved');
  });
});
