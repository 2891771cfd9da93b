import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, scriptedModel, toolshed } from './helpers';
import { askToolshed, driver, lastToolResultText, userFacingTexts } from './chatHelpers';

const WEATHER = 'fixture_weather_forecast';

/**
 * Runs only in the harness's second pass: workspace trust ON, example workspace NOT trusted.
 * One rule (src/core/trust/restrictedMode.ts): workspace skill packs reach no model and are not
 * listed as loaded, every surface says how many are hidden, and no tool runs on any path;
 * built-in skills and tool search keep working.
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

    const search = JSON.parse(
      text(await vscode.lm.invokeTool('skill_search', { input: { query: 'triage a new GitHub issue' }, toolInvocationToken: undefined })),
    ) as { skills: Array<{ name: string }> };
    assert.ok(!search.skills.some((s) => s.name === 'triage-issue'), '…but not returned to a model');
    const builtIn = JSON.parse(text(await vscode.lm.invokeTool('skill_search', { input: { query: 'commit message' }, toolInvocationToken: undefined }))) as {
      skills: Array<{ name: string }>;
    };
    assert.ok(builtIn.skills.length > 0, 'built-in skills still answer');

    const model = await scriptedModel();
    model.setScript(['ok']);
    await askToolshed('Please triage this new GitHub issue about a crash');
    assert.ok(!/triage-issue/.test(userFacingTexts(model.requests[0])), 'not injected pre-flight');
  });

  test("one rule for running tools: tool_invoke and @toolshed's own loop both refuse, with the same answer, and nothing runs", async () => {
    await toolshed();
    (await driver()).testTools.reset();
    const invoked = text(await vscode.lm.invokeTool('tool_invoke', { input: { name: WEATHER, input: { city: 'Oslo' } }, toolInvocationToken: undefined }));
    assert.match(invoked, /not trusted/);

    const model = await scriptedModel();
    model.setScript([
      [{ toolCall: { name: 'tool_search', input: { query: 'weather forecast for a city' } } }],
      [{ toolCall: { name: WEATHER, input: { city: 'Oslo' } } }],
      'I could not run it.',
    ]);
    const { recorded } = await askToolshed('What is the weather in Oslo?');
    assert.ok(lastToolResultText(model.requests[1] as never).includes(WEATHER), 'tool_search still finds the tool');
    assert.equal(lastToolResultText(model.requests[2] as never), invoked, 'the loop answers exactly like tool_invoke');
    assert.ok(
      recorded.steps().some((line) => /Not running `fixture_weather_forecast`: Restricted Mode/.test(line)),
      recorded.steps().join(' | '),
    );
    assert.deepEqual((await driver()).testTools.calls, [], 'nothing ran on either path');
  });

  // What the example workspace supplies: .github/skills (4 skill files) and the team pack in ./skills
  // (4 files), configured in .vscode/settings.json — a setting VS Code does not apply in Restricted Mode.
  const UNUSED =
    /Restricted Mode: (\d+) workspace skill files \(`\.github\/skills` \d+, `skills` \d+\) and the skill pack `team` from its settings not used — this workspace is not trusted\. Manage Workspace Trust to use them\./;

  test('the sidebar says which workspace skill sources are not used and why, with the trust button, and does not list their pack', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const tree = await eventually(async () => {
      const rendered = await vscode.commands.executeCommand<{ description?: string; items: Array<{ label: string; id?: string; depth: number }> }>(
        'toolshed._skillDirectoryItems',
      );
      return rendered.items.length ? rendered : undefined;
    }, 'the skill tree');
    const first = tree.items[0]!;
    const count = Number(UNUSED.exec(first.label)?.[1]);
    assert.ok(count >= 8, `header row first: ${first.label}`);
    assert.equal(first.id, 'restrictedMode');
    const workspaceSkills = api.services.skills
      .listPacks()
      .filter((pack) => pack.workspace)
      .flatMap((pack) => pack.skills.map((skill) => skill.name));
    assert.ok(workspaceSkills.includes('triage-issue') && workspaceSkills.includes('release-notes'));
    for (const name of workspaceSkills) assert.ok(!tree.items.some((item) => item.id?.endsWith(`:${name}`)), `${name} is not listed`);
    assert.ok(!tree.items.some((item) => item.id?.startsWith('pack:ws-')), 'the workspace pack is not listed as loaded');
    assert.ok(
      tree.items.some((item) => item.id === 'pack:core'),
      'built-in skills still listed',
    );
  });

  test('/skills shows the same line in its answer text (not a folded step), naming the team pack it did not load, with a Manage Workspace Trust link', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    assert.ok(!api.services.skills.listPacks().some((pack) => pack.name === 'team'), 'the team pack was never loaded (its setting is not applied)');
    const { recorded } = await askToolshed('', { command: 'skills' });
    assert.match(recorded.markdown(), UNUSED);
    // In the answer text itself, not in a step line (`> …`), which the chat view folds away.
    assert.ok(!recorded.steps().some((step) => /Restricted Mode/.test(step)), `a folded step: ${recorded.steps().join(' | ')}`);
    const paragraphs = recorded.markdown().split(/\n{2,}/);
    assert.ok(
      paragraphs.some((paragraph) => UNUSED.test(paragraph) && !paragraph.startsWith('>')),
      recorded.markdown(),
    );
    // Only Markdown: the Chat view folds what comes before a button into "Completed N steps".
    assert.ok(
      paragraphs.some((paragraph) => UNUSED.test(paragraph) && paragraph.includes('](command:workbench.trust.manage)')),
      'the trust action is a command link in the same paragraph',
    );
    assert.deepEqual(
      recorded.parts.filter((part) => part.kind !== 'markdown').map((part) => part.kind),
      [],
      'no button or step before the skill list',
    );
    assert.doesNotMatch(recorded.markdown(), /`triage-issue`|`release-notes`/);
  });

  test('skill_list tells the model the same, to pass on', async () => {
    const output = JSON.parse(text(await vscode.lm.invokeTool('skill_list', { input: {}, toolInvocationToken: undefined }))) as {
      skills: Array<{ name: string }>;
      restricted_mode?: string;
    };
    assert.match(output.restricted_mode ?? '', UNUSED);
    assert.ok(!output.skills.some((s) => s.name === 'triage-issue'));
  });

  test('skill_get for a hidden skill says it is hidden by Restricted Mode, without its content', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const output = JSON.parse(text(await vscode.lm.invokeTool('skill_get', { input: { names: ['release-notes'] }, toolInvocationToken: undefined }))) as {
      skills: unknown[];
      message?: string;
    };
    assert.deepEqual(output.skills, []);
    assert.match(output.message ?? '', /release-notes.*hidden in Restricted Mode.*Manage Workspace Trust/);
    assert.doesNotMatch(output.message ?? '', /Unknown skill/);
    const record = api.services.skills.inspect('release-notes');
    const content = [...(record?.steps ?? []), record?.body ?? '', record?.trigger ?? '']
      .map((part) => part.trim().slice(0, 30))
      .filter((part) => part.length > 8);
    assert.ok(content.length > 0, 'the hidden skill has content to leak');
    const answer = text(await vscode.lm.invokeTool('skill_get', { input: { names: ['release-notes'] }, toolInvocationToken: undefined }));
    for (const part of content) assert.ok(!answer.includes(part), `no content of the hidden skill: ${part}`);
  });
});
