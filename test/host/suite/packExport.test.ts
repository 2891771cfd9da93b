import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PackExportReport } from '../../../src/core/learning/snapshot/skillPackExport';
import { exportedTo } from '../../../src/core/skills/store/learned/exportedLearnedSkills';
import { eventually, scriptedModel, toolshed, withDiagnosticsPublished } from './helpers';
import { askToolshed, driver, lastToolResultText, withSettings } from './chatHelpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';
const QUERY = 'weather forecast Lillehammer Hamar issue';

const text = (result: vscode.LanguageModelToolResult) => result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

suite('Export learned skills as a skill pack (real extension host, scripted model)', function () {
  this.timeout(120_000);
  const created: string[] = [];
  const approved: string[] = [];

  suiteTeardown(async () => {
    const api = await toolshed();
    for (const folder of created) rmSync(folder, { recursive: true, force: true });
    for (const folder of created) await api.services.skills.removeFile(folder);
    for (const id of approved) await vscode.commands.executeCommand('toolshed.learning.discardProposal', id);
    for (const proposal of api.services.learning.service.proposals())
      if (proposal.candidate.trigger.includes('Lillehammer')) await api.services.learning.service.discard(proposal.id);
  });

  test('a learned skill exported as a skill pack writes a SKILL.md folder that loads with no diagnostic; skill search then shows it once, as the pack skill; deleting the folder brings the learned copy back', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    const learning = api.services.learning;

    // Learn a skill from a real @toolshed turn (scripted model, fixture tools), then approve it.
    (await driver()).testTools.reset();
    const model = await scriptedModel();
    model.setScript([
      [{ toolCall: { name: WEATHER, input: { city: 'Lillehammer' } } }, { toolCall: { name: WEATHER, input: { city: 'Hamar' } } }],
      [{ toolCall: { name: ISSUE, input: { title: 'Inland weather', body: 'Snow in Lillehammer' } } }],
      'Created issue #7 with the forecast for Lillehammer and Hamar.',
    ]);
    await askToolshed('Check the weather forecast in Lillehammer and Hamar, then create an issue with the summary');
    const proposal = learning.service.proposals().find((p) => p.candidate.trigger.includes('Lillehammer'));
    assert.ok(proposal, 'a proposal exists');
    const learnedName = await vscode.commands.executeCommand<string>('toolshed.learning.approveProposal', proposal.id, { noMerge: true });
    approved.push(proposal.id);
    assert.equal(api.services.skills.inspect(learnedName)?.origin, 'learned');

    // Export it (the default folder: <workspace>/.github/skills).
    const report = await vscode.commands.executeCommand<PackExportReport>('toolshed.learning.exportAsSkillPack', learnedName);
    assert.deepEqual(report.skipped, []);
    assert.equal(report.written.length, 1);
    const [written] = report.written;
    const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    assert.equal(written!.file, path.join(workspace, '.github', 'skills', written!.name, 'SKILL.md'));
    created.push(path.dirname(written!.file));
    assert.ok(existsSync(written!.file));
    assert.match(readFileSync(written!.file, 'utf8'), /^---\nname: [a-z0-9-]+\ndescription: .+\nmetadata:\n {2}learned_id: sk_/);

    // Loaded with no diagnostic: the full validation, the editor's diagnostics, the Skill Directory.
    const validation = await vscode.commands.executeCommand<{ problems: Array<{ file: string; message: string }> }>('toolshed.validateSkillPacks');
    assert.deepEqual(
      validation.problems.filter((p) => p.file === written!.file),
      [],
    );
    const document = await withDiagnosticsPublished(vscode.Uri.file(written!.file), () => vscode.workspace.openTextDocument(written!.file));
    assert.deepEqual(
      vscode.languages
        .getDiagnostics(document.uri)
        .filter((d) => d.source === 'toolshed')
        .map((d) => d.message),
      [],
    );
    const packSkill = api.services.skills
      .listPacks()
      .flatMap((p) => p.skills)
      .find((s) => s.name === written!.name && s.origin === 'pack');
    assert.equal(packSkill?.status, 'active');
    assert.deepEqual(packSkill?.problems, []);

    // The learned copy is retired (kept, pointing at the pack skill), so search shows the skill once.
    const retired = api.services.skills.learnedSkills().find((r) => r.name === learnedName)!;
    assert.equal(retired.status, 'inactive');
    assert.equal(exportedTo(retired)?.name, written!.name);
    const tree = await vscode.commands.executeCommand<{ items: Array<{ label: string; description?: string; contextValue?: string }> }>(
      'toolshed._skillDirectoryItems',
    );
    const row = tree.items.find((i) => i.description?.includes(learnedName));
    assert.match(row?.description ?? '', new RegExp(`inactive: exported as pack skill "${written!.name}"`), 'the Skill Directory points at the pack skill');
    assert.ok(!row?.contextValue?.includes('.active.'), 'and offers no second export');
    // The header counts what /skills counts: the retired learned copy is listed, not counted again.
    const total = Number(/\(\d+ shown of (\d+);/.exec((await askToolshed('', { command: 'skills' })).recorded.markdown())?.[1]);
    let lastHeader = '';
    await eventually(
      async () => {
        const rendered = await vscode.commands.executeCommand<{ description?: string }>('toolshed._skillDirectoryItems');
        lastHeader = rendered.description ?? '';
        return /\binactive\b/.test(lastHeader) && Number(/^(\d+) skills?/.exec(lastHeader)?.[1]) === total;
      },
      () => `the header after the export: Skill Directory "${lastHeader}" vs /skills ${total}`,
    );
    // Agent mode: the folder is in .github/skills, which VS Code's own agent skills offer there
    // when chat.useAgentSkills is on (then Toolshed's skill_search leaves it out); with it off,
    // Toolshed offers it, once.
    const agentSearch = async () =>
      JSON.parse(text(await vscode.lm.invokeTool('skill_search', { input: { query: QUERY, limit: 10 }, toolInvocationToken: undefined }))) as {
        skills: Array<{ name: string }>;
      };
    const nativeOn = await withSettings({ 'chat.useAgentSkills': true }, agentSearch);
    assert.ok(!nativeOn.skills.some((s) => s.name === written!.name || s.name === learnedName), 'offered by VS Code, not again by Toolshed');
    const direct = await withSettings({ 'chat.useAgentSkills': false }, agentSearch);
    const names = direct.skills.map((s) => s.name);
    assert.equal(names.filter((n) => n === written!.name).length, 1, `the pack skill, once: ${names.join(', ')}`);
    assert.ok(!names.includes(learnedName), 'not the learned copy as well');

    // The same through @toolshed's own loop: the model's skill_search result and the pre-flight block.
    model.setScript([[{ toolCall: { name: 'skill_search', input: { query: QUERY } } }], 'Found it.']);
    await askToolshed('How do I report the forecast for Lillehammer and Hamar as an issue?');
    const inLoop = (JSON.parse(lastToolResultText(model.requests[1] as never)) as { skills: Array<{ name: string }> }).skills.map((s) => s.name);
    assert.equal(inLoop.filter((n) => n === written!.name).length, 1);
    assert.ok(!inLoop.includes(learnedName));

    // Undo: delete the folder → the learned copy is active again.
    rmSync(path.dirname(written!.file), { recursive: true, force: true });
    await api.services.skills.removeFile(path.dirname(written!.file));
    const back = api.services.skills.learnedSkills().find((r) => r.name === learnedName)!;
    assert.equal(back.status, 'active');
    assert.equal(exportedTo(back), undefined);
  });
});
