import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
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

/** The use count `skills.db.usage` holds for a skill (the counters changed since the store was written whole), if any. */
function usageFileCount(storeFile: string, name: string): number | undefined {
  const file = `${storeFile}.usage`;
  if (!existsSync(file)) return undefined;
  const { usage } = JSON.parse(readFileSync(file, 'utf8')) as { usage: Array<[string, string, string, string, number, number]> };
  return usage.find((row) => row[3] === name)?.[4];
}

suite('store: deactivate awaits debounced saves', () => {
  test("a use waiting in the skill store's save debounce is on disk when deactivate() resolves", async () => {
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
    // A use is written to the small usage file beside the store, or with the store when the
    // store is written whole for another reason: either way it is on disk now.
    const onDisk = !after.equals(before) || usageFileCount(file, first.name) === usesBefore + 1;
    assert.ok(onDisk, 'the use was on disk (skills.db or skills.db.usage) when deactivate() resolved');
  });
});
