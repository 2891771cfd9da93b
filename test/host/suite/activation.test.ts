import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToolshedApi } from '../../../src/vscode/extension';
import { TOOLSHED_ID } from './helpers';

const text = (result: vscode.LanguageModelToolResult) =>
  result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');

/**
 * `activate()` returns before Toolshed's stores are open: what VS Code can reach is registered at
 * once and waits for them (src/vscode/servicesOpening.ts; its waiting and failure paths are also
 * tested in Node, with the open held and failed, in test/unit/vscode-pure/servicesOpening.test.ts).
 * Here, in a real extension host, everything is asked the way an agent or a person would, as soon
 * as `activate()` has returned and without awaiting `api.ready`: whether the stores are still
 * opening at that moment depends on when the host activated Toolshed, and the answers must be
 * the same either way.
 */
suite('activation: tools and commands answer while the stores open', () => {
  test('asked right after activate() returns, skill_search, tool_search and a command answer, and api.ready gives the same services', async () => {
    const extension = vscode.extensions.getExtension<ToolshedApi>(TOOLSHED_ID);
    assert.ok(extension);
    const api = await extension.activate();

    const [search, tools, validation] = await Promise.all([
      vscode.lm.invokeTool('skill_search', { input: { query: 'write a commit message for the staged changes', limit: 5 }, toolInvocationToken: undefined }),
      vscode.lm.invokeTool('tool_search', { input: { query: 'weather forecast' }, toolInvocationToken: undefined }),
      vscode.commands.executeCommand<{ problems: unknown[] }>('toolshed.validateSkillPacks'),
    ]);

    const skills = (JSON.parse(text(search)) as { skills?: Array<{ name: string }> }).skills ?? [];
    assert.ok(skills.length > 0, `skill_search answered with skills: ${text(search).slice(0, 300)}`);
    assert.match(text(tools), /fixture_weather_forecast/, "tool_search found the test driver's weather tool");
    assert.ok(Array.isArray(validation?.problems), 'Validate Skill Packs ran and reported');

    // The services api.ready gives answer the same first skill as the tool did.
    const services = await api.ready;
    const direct = await services.skills.search({ query: 'write a commit message for the staged changes', limit: 5 }, services.skillContext());
    assert.equal(direct.skills[0]?.name, skills[0]?.name);
    // Every contributed command is registered (the placeholders were replaced, none lost).
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = (extension.packageJSON as { contributes: { commands: Array<{ command: string }> } }).contributes.commands.map((entry) => entry.command);
    assert.deepEqual(
      contributed.filter((id) => !registered.has(id)),
      [],
    );
  });
});
