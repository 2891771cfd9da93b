import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, toolshed, acceptFirst } from './helpers';

interface Ranked {
  name: string;
  score: number;
  matchType: string;
  loadingMode?: string;
}

const ranked = (kind: 'skill' | 'tool', query: string) => vscode.commands.executeCommand<Ranked[]>('toolshed._searchRanked', kind, query);

function assertRanked(results: readonly Ranked[]): void {
  for (let i = 1; i < results.length; i++) assert.ok(results[i - 1]!.score >= results[i]!.score, `ranked by score at ${i}`);
}

suite('palette: search skills and tools', () => {
  suiteSetup(async () => {
    await toolshed();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('skill search returns ranked results with score, match type and status', async () => {
    const results = await eventually(async () => {
      const found = await ranked('skill', 'fix lint and type errors');
      return found.some((r) => r.name === 'fix-lint') ? found : undefined;
    }, 'fix-lint found by skill search');
    assertRanked(results);
    assert.ok(
      results.slice(0, 3).some((r) => r.name === 'fix-lint'),
      `fix-lint in the top 3: ${results.map((r) => r.name).join(', ')}`,
    );
    assert.equal(results[0]!.matchType.split(' ')[0], 'fts');
    assert.ok(
      results.every((r) => r.score >= 0 && r.loadingMode),
      'scores and status on every row',
    );
    const exact = await ranked('skill', 'release-notes');
    assert.equal(exact[0]?.name, 'release-notes');
    assert.equal(exact[0]?.matchType, 'exact');
  });

  test('the Search Skills QuickPick searches as you type and opens the accepted skill', async () => {
    await eventually(async () => (await ranked('skill', 'fix lint and type errors')).length > 0, 'skills loaded');
    const accepted = await acceptFirst<Ranked>('toolshed.searchSkills', 'fix lint and type errors');
    assert.ok(accepted, 'an item was accepted');
    const top = (await ranked('skill', 'fix lint and type errors'))[0]!;
    assert.equal(accepted.name, top.name, 'the QuickPick keeps the provider ranking');
    await eventually(() => vscode.window.activeTextEditor?.document.uri.scheme === 'file', 'the skill file opened');
  });

  test('tool search returns ranked tools with loading mode', async () => {
    const results = await eventually(async () => {
      const found = await ranked('tool', 'search for text in files');
      return found.length > 0 ? found : undefined;
    }, 'tools found');
    assertRanked(results);
    assert.ok(results.every((r) => r.loadingMode === 'always' || r.loadingMode === 'deferred'));
    assert.ok(results.every((r) => ['fts', 'regex', 'exact'].includes(r.matchType)));
    const listed = await ranked('tool', '');
    assert.ok(listed.length >= results.length);
  });

  test("the Search Tools QuickPick opens the accepted tool's details", async () => {
    const accepted = await acceptFirst<Ranked>('toolshed.searchTools', 'search for text in files');
    assert.ok(accepted, 'an item was accepted');
    await eventually(
      () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'toolshed-tool' && d.getText().startsWith(`# ${accepted.name}`)),
      'the tool details document',
    );
  });

  test('the Search Tools QuickPick keeps the score order while the query matches labels', async () => {
    // Queries that match many tool labels: VS Code would re-sort those rows by label match.
    for (const query of ['file', 'files', 'terminal']) {
      const top = (await ranked('tool', query))[0];
      assert.ok(top, `"${query}" finds a tool`);
      const accepted = await acceptFirst<Ranked>('toolshed.searchTools', query);
      assert.equal(accepted?.name, top.name, `"${query}": the first row is the best-scored tool`);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  test('Reload Skill Packs reloads with progress and reports counts', async () => {
    const summary = await vscode.commands.executeCommand<{ packs: number; skills: number; cancelled?: boolean }>('toolshed.reloadSkillPacks');
    assert.ok(summary.packs >= 1);
    assert.ok(summary.skills >= 3);
    assert.equal(summary.cancelled, false);
  });
});
