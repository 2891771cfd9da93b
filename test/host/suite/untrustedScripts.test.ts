import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { toolshed } from './helpers';

/** Trust-on pass only: skill scripts are never offered, found or run in an untrusted workspace. */
suite('untrusted workspace: skill scripts', () => {
  const text = (result: vscode.LanguageModelToolResult) =>
    result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');

  test('the script tool is not offered, tool_search does not find it, and tool_invoke refuses it', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const api = await toolshed();
    await api.services.skillPacks.ready;
    await api.services.skillScripts.refresh();
    assert.equal(api.services.skillScripts.has('count-lines_count_lines'), false);
    assert.deepEqual(api.services.skillScripts.toolInputs(), []);

    const search = text(await vscode.lm.invokeTool('tool_search', { input: { query: 'count the lines of a file' }, toolInvocationToken: undefined }));
    assert.ok(!search.includes('count-lines_count_lines'), search);

    const refused = await vscode.lm.invokeTool('tool_invoke', {
      input: { name: 'count-lines_count_lines', input: { args: ['README.md'], save: true } },
      toolInvocationToken: undefined,
    });
    assert.match(text(refused), /not trusted/);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.equal(existsSync(path.join(folder, 'line-counts.txt')), false, 'nothing ran');
  });
});
