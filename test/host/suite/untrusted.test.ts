import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedModel, toolshed } from './helpers';
import { askToolshed, driver, userFacingTexts } from './chatHelpers';

/**
 * Runs only in the harness's second pass: workspace trust ON, example workspace NOT trusted.
 * Workspace skill packs (here `.github/skills/triage-issue`) must not reach a model, and
 * tool_invoke must refuse; built-in skills and tool search keep working.
 */
suite('untrusted workspace: limited mode', () => {
  const text = (result: vscode.LanguageModelToolResult) =>
    result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');

  test('the workspace really is untrusted and Toolshed still activates', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const api = await toolshed();
    assert.ok(api.version);
  });

  test('skills from workspace packs are neither returned nor injected; built-in skills are', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const loaded = api.services.skills.listPacks().flatMap((pack) => pack.skills.map((skill) => skill.name));
    assert.ok(loaded.includes('triage-issue'), 'the workspace skill is loaded (for the views)…');

    const search = JSON.parse(text(await vscode.lm.invokeTool('skill_search', { input: { query: 'triage a new GitHub issue' }, toolInvocationToken: undefined }))) as { skills: Array<{ name: string }> };
    assert.ok(!search.skills.some((s) => s.name === 'triage-issue'), '…but not returned to a model');
    const builtIn = JSON.parse(text(await vscode.lm.invokeTool('skill_search', { input: { query: 'commit message' }, toolInvocationToken: undefined }))) as { skills: Array<{ name: string }> };
    assert.ok(builtIn.skills.length > 0, 'built-in skills still answer');

    const model = await scriptedModel();
    model.setScript(['ok']);
    await askToolshed('Please triage this new GitHub issue about a crash');
    assert.ok(!/triage-issue/.test(userFacingTexts(model.requests[0])), 'not injected pre-flight');
  });

  test('tool_invoke is refused, and nothing runs', async () => {
    await toolshed();
    (await driver()).testTools.reset();
    const result = await vscode.lm.invokeTool('tool_invoke', { input: { name: 'fixture_weather_forecast', input: { city: 'Oslo' } }, toolInvocationToken: undefined });
    assert.match(text(result), /not trusted/);
    assert.deepEqual((await driver()).testTools.calls, []);
  });
});
