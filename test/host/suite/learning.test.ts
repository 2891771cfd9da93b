import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { learningFollowups, recordChatFeedback, SAVE_AS_SKILL_LABEL } from '../../../src/vscode/chat/learningChat';
import type { ToolshedTurnMetadata } from '../../../src/vscode/chat/sessionMetadata';
import { eventually, scriptedModel, toolshed } from './helpers';
import { askToolshed, driver, historyOf, userFacingTexts, withSettings } from './chatHelpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';
const DEPLOY = 'fixture_deploy_preview';
const PACK_SKILL = 'team.weather.issue';
const PARAPHRASE = 'Get the forecast for Oslo and Bergen and open an issue with a short summary';

const metadataOf = (result: vscode.ChatResult) => (result.metadata as { toolshed: ToolshedTurnMetadata }).toolshed;
const text = (result: vscode.LanguageModelToolResult) => result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

async function skillOrder(query: string): Promise<string[]> {
  const output = JSON.parse(text(await vscode.lm.invokeTool('skill_search', { input: { query, limit: 10 }, toolInvocationToken: undefined }))) as {
    skills: Array<{ name: string }>;
  };
  return output.skills.map((s) => s.name);
}

/** Saves, then checks that none of `leaks` is in the bytes of learning.db, skills.db or the learned-skill journal. */
async function assertNotStored(leaks: readonly string[]): Promise<void> {
  const api = await toolshed();
  await api.services.skills.save();
  const storage = api.storageUri!.fsPath;
  const files = readdirSync(storage).filter((f) => /^(learning\.db|skills\.db)/.test(f) && !f.includes('corrupt'));
  assert.ok(files.includes('learning.db') && files.includes('skills.db.learned.jsonl'), files.join(', '));
  for (const file of files) {
    const bytes = readFileSync(path.join(storage, file)).toString('latin1');
    for (const leak of leaks) assert.ok(!bytes.includes(leak), `${leak} found in ${file}`);
  }
}

suite('Skills that learn from use (scripted model)', function () {
  this.timeout(120_000);
  const workspace = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const packFile = () => path.join(workspace(), 'skills', 'weather-issue.skill.yaml');
  const approved: string[] = [];

  suiteSetup(async () => {
    const api = await toolshed();
    assert.equal(api.services.settings.current.learning.mode, 'propose', 'the example workspace turns learning on');
    // A pack skill of nearly the same relevance as what will be learned.
    writeFileSync(
      packFile(),
      [
        `name: ${PACK_SKILL}`,
        'title: Weather summary issue',
        'task_type: api',
        'trigger: Check the weather forecast in Oslo and Bergen and create an issue',
        'steps:',
        // Its steps do not name the tools: a turn that merely followed them would propose nothing.
        '  - Call the weather forecast tool for each city.',
        '  - Call the create issue tool with a summary.',
        '',
      ].join('\n'),
    );
    await api.services.skillPacks.reload();
  });

  suiteTeardown(async () => {
    const api = await toolshed();
    for (const id of approved) await vscode.commands.executeCommand('toolshed.learning.discardProposal', id);
    for (const proposal of api.services.learning.service.proposals()) await api.services.learning.service.discard(proposal.id);
    rmSync(packFile(), { force: true });
    await api.services.skillPacks.reload();
  });

  test('a 3-call turn → proposal (follow-up, sidebar) → approved → injected for a paraphrase in a new conversation → five 👎 drop it below a pack skill', async () => {
    const api = await toolshed();
    const learning = api.services.learning;
    (await driver()).testTools.reset();
    const model = await scriptedModel();
    model.setScript([
      [{ toolCall: { name: WEATHER, input: { city: 'Oslo' } } }, { toolCall: { name: WEATHER, input: { city: 'Bergen' } } }],
      [{ toolCall: { name: ISSUE, input: { title: 'Weekend weather', body: 'Sunny in Oslo; mail ola.nordmann@example.com' } } }],
      'Created issue #42 with the forecast for Oslo and Bergen.',
    ]);
    const first = await askToolshed('Check the weather forecast in Oslo and Bergen, then create an issue with the summary');
    assert.equal((await driver()).testTools.calls.length, 3, 'three successful tool calls');
    assert.match(first.recorded.markdown(), /Created issue #42/, 'the answer came first, unchanged');

    // Follow-up on the response.
    const followups = await learningFollowups(learning, metadataOf(first.result));
    assert.deepEqual(
      followups.map((f) => [f.label, f.command]),
      [[SAVE_AS_SKILL_LABEL, 'learn']],
    );
    const [proposal] = learning.service.proposals();
    assert.ok(proposal, 'a proposal exists');
    assert.ok(!JSON.stringify(proposal).includes('ola.nordmann'), 'argument values never reach the proposal');
    assert.deepEqual(await skillOrder(PARAPHRASE).then((names) => names.includes(proposal.candidate.name)), false, 'a proposal is not searchable');

    // The Proposed group in the Skill Directory.
    const tree = await eventually(async () => {
      const rendered = await vscode.commands.executeCommand<{ items: Array<{ label: string; contextValue?: string; description?: string }> }>(
        'toolshed._skillDirectoryItems',
      );
      return rendered.items.some((i) => i.contextValue === 'proposal') ? rendered : undefined;
    }, 'the Proposed group');
    assert.ok(tree.items.some((i) => i.label === 'Proposed' && i.contextValue === 'proposedGroup'));
    assert.ok(tree.items.some((i) => i.contextValue === 'proposal' && i.label === proposal.candidate.title));

    // `/learn` in that conversation shows it with Approve / Edit / Discard; in a new one there is nothing to learn.
    const learn = await askToolshed('', { command: 'learn', history: historyOf('Check the weather…', first.result, 'Created issue #42') });
    assert.match(learn.recorded.markdown(), new RegExp(`Proposed skill:.*${proposal.candidate.name.replace(/\./g, '\\.')}`));
    assert.deepEqual(
      learn.recorded.parts.filter((p) => p.kind === 'button').map((p) => (JSON.parse(p.value) as { title: string }).title),
      ['Approve', 'Edit…', 'Discard'],
    );
    const fresh = await askToolshed('', { command: 'learn' });
    assert.match(fresh.recorded.markdown(), /Nothing to learn from yet/);

    // Edit opens it as a *.skill.md document; saving updates the proposal (still a proposal).
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('toolshed.learning.editProposal', proposal.id);
    assert.ok(editor.document.fileName.endsWith(`${proposal.id}.skill.md`), editor.document.fileName);
    const titleLine = editor.document
      .getText()
      .split('\n')
      .findIndex((line) => line.startsWith('title:'));
    assert.ok(titleLine > 0, editor.document.getText());
    await editor.edit((edit) => edit.replace(editor.document.lineAt(titleLine).range, 'title: Weather summary as an issue'));
    await editor.document.save();
    await eventually(() => learning.service.proposal(proposal.id)?.candidate.title === 'Weather summary as an issue', 'the edited title in the proposal');
    assert.equal(learning.service.proposal(proposal.id)?.status, 'proposed');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // Approve → a learned skill in project scope.
    const name = await vscode.commands.executeCommand<string>('toolshed.learning.approveProposal', proposal.id);
    approved.push(proposal.id);
    assert.equal(name, proposal.candidate.name);
    assert.equal(api.services.skills.inspect(name)?.origin, 'learned');
    assert.equal(api.services.skills.inspect(name)?.title, 'Weather summary as an issue', 'the edit is what was stored');
    const learnedTree = await vscode.commands.executeCommand<{ items: Array<{ label: string; contextValue?: string }> }>('toolshed._skillDirectoryItems');
    assert.ok(!learnedTree.items.some((i) => i.contextValue === 'proposal'), 'no longer proposed');
    assert.ok(
      learnedTree.items.some((i) => i.label === 'learned'),
      'listed under learned skills',
    );

    // A new conversation, paraphrased: the learned skill is injected pre-flight.
    model.setScript(['Here you go.']);
    const second = await askToolshed(PARAPHRASE);
    const firstPrompt = userFacingTexts(model.requests[0] as never);
    assert.ok(firstPrompt.includes(name), 'the learned skill is in the messages the model received');
    assert.ok(firstPrompt.includes(WEATHER) && firstPrompt.includes(ISSUE), 'with its steps');
    assert.ok(metadataOf(second.result).learning?.skills.includes(name));

    const before = await skillOrder(PARAPHRASE);
    assert.ok(before.indexOf(name) >= 0 && before.indexOf(name) < before.indexOf(PACK_SKILL), `learned above the pack skill at first: ${before.join(', ')}`);

    // 👎 on five answers that used it (only it: top-1 injection, so the pack skill is not rated too).
    await withSettings({ 'toolshed.skills.topK': 1 }, async () => {
      for (let i = 0; i < 5; i++) {
        model.setScript([`Answer ${i}.`]);
        const answer = await askToolshed(PARAPHRASE);
        assert.ok(metadataOf(answer.result).learning?.skills.includes(name), `answer ${i} used the learned skill`);
        assert.ok(!metadataOf(answer.result).learning?.skills.includes(PACK_SKILL));
        assert.equal(
          await recordChatFeedback(learning, { result: answer.result, kind: vscode.ChatResultFeedbackKind.Unhelpful }),
          metadataOf(answer.result).learning!.skills.length,
        );
      }
    });
    const after = await skillOrder(PARAPHRASE);
    assert.ok(after.indexOf(name) > after.indexOf(PACK_SKILL), `learned below the pack skill after five 👎: ${after.join(', ')}`);
    assert.equal(learning.service.counters(name)?.harmful, 5);
    const counted = await vscode.commands.executeCommand<{ items: Array<{ label: string; description?: string }> }>('toolshed._skillDirectoryItems');
    assert.ok(
      counted.items.some((i) => (i.description ?? '').includes('👎 5')),
      'the sidebar shows the counts',
    );
  });

  test('a tool failing the same way in two conversations proposes one negative skill; approved, it warns a related request', async () => {
    const api = await toolshed();
    const learning = api.services.learning;
    const model = await scriptedModel();
    const fail = async (prompt: string) => {
      model.setScript([[{ toolCall: { name: DEPLOY, input: { branch: 'feature/login' } } }], 'The preview environment is locked.']);
      const { result } = await askToolshed(prompt);
      return learning.latestResult(metadataOf(result).sessionId);
    };
    const one = await fail('Deploy a preview of the feature/login branch');
    assert.equal(one.negative, undefined, 'one failure is noise');
    const two = await fail('Please deploy a preview for my branch');
    assert.ok(two.negative, 'the second conversation proposes a lesson');
    assert.equal(learning.service.proposals().filter((p) => p.candidate.kind === 'negative').length, 1, 'exactly one');

    await vscode.commands.executeCommand('toolshed.learning.approveProposal', two.negative.id);
    approved.push(two.negative.id);
    model.setScript(['Deploying carefully.']);
    await askToolshed('Deploy a preview environment of the release branch');
    const prompt = userFacingTexts(model.requests[0] as never);
    assert.match(prompt, /<skill_warnings>/);
    assert.match(prompt, new RegExp(`Avoid calling \`${DEPLOY}\``));
    model.setScript(['Sunny.']);
    await askToolshed('What is the weather in Oslo?');
    assert.doesNotMatch(userFacingTexts(model.requests[0] as never), /<skill_warnings>/, 'not for an unrelated request');
  });

  test('secrets and home paths in a turn never reach learning.db, skills.db, the journal or the proposal', async () => {
    const api = await toolshed();
    const model = await scriptedModel();
    const secret = 'ghp_4fK9xQ2mZ7pL1sV8bN3cR6tY0wE5uI2oA9dH';
    const home = os.homedir();
    model.setScript([
      [{ toolCall: { name: WEATHER, input: { city: secret } } }, { toolCall: { name: ISSUE, input: { title: `${home}/.ssh/id_rsa` } } }],
      'Done.',
    ]);
    const { result } = await askToolshed(`Weather for Tromsø with token ${secret}, mail kari@example.com, then file an issue about ${home}/notes.txt`);
    const ingested = await api.services.learning.latestResult(metadataOf(result).sessionId);
    assert.ok(ingested.proposal);
    await vscode.commands.executeCommand('toolshed.learning.approveProposal', ingested.proposal.id);
    approved.push(ingested.proposal.id);
    await assertNotStored([secret, 'kari@example.com', home]);
  });
});

suite('Learning keeps no token that comes as a key or a tool name (scripted model)', function () {
  this.timeout(120_000);
  const approved: string[] = [];
  suiteTeardown(async () => {
    const api = await toolshed();
    for (const id of approved) await vscode.commands.executeCommand('toolshed.learning.discardProposal', id);
    for (const proposal of api.services.learning.service.proposals()) await api.services.learning.service.discard(proposal.id);
  });

  test("a token as an argument key, or as skill_report_failure's tool, never reaches the stores; an unknown tool is refused without echo", async () => {
    const api = await toolshed();
    const model = await scriptedModel();
    const keyToken = 'ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCbA1B2';
    const toolToken = 'glpat-Ab12Cd34Ef56Gh78Ij90Kl';
    model.setScript([
      [{ toolCall: { name: WEATHER, input: { city: 'Oslo', [keyToken]: true } } }, { toolCall: { name: ISSUE, input: { title: 'Forecast' } } }],
      'Done.',
    ]);
    const { result } = await askToolshed('Weather for Oslo, then file an issue with the forecast');
    const ingested = await api.services.learning.latestResult(metadataOf(result).sessionId);
    assert.ok(ingested.proposal, 'the turn was learnable');
    assert.deepEqual(
      ingested.proposal.candidate.steps.filter((step) => step.includes(WEATHER)),
      [`Call \`${WEATHER}\` with \`city\`.`],
    );
    await vscode.commands.executeCommand('toolshed.learning.approveProposal', ingested.proposal.id);
    approved.push(ingested.proposal.id);

    const refused = text(
      await vscode.lm.invokeTool('skill_report_failure', { input: { tool: toolToken, error: 'permission denied' }, toolInvocationToken: undefined }),
    );
    assert.match(refused, /must be the exact name of a tool/);
    assert.ok(!refused.includes(toolToken), refused);
    const accepted = text(
      await vscode.lm.invokeTool('skill_report_failure', {
        input: { tool: DEPLOY, error: 'permission denied for the preview' },
        toolInvocationToken: undefined,
      }),
    );
    assert.match(accepted, new RegExp(`Proposed the warning "Avoid: ${DEPLOY} fails with permission`));

    await assertNotStored([keyToken, toolToken]);
  });
});

suite('Learning in an untrusted workspace', () => {
  test('untrusted workspace: learning is off even with the setting on', async () => {
    const api = await toolshed();
    assert.equal(vscode.workspace.isTrusted, false);
    assert.equal(api.services.settings.current.learning.mode, 'propose', 'the workspace setting asks for learning…');
    assert.equal(api.services.learning.enabled, false, '…but trust wins');
    const model = await scriptedModel();
    model.setScript([[{ toolCall: { name: WEATHER, input: { city: 'Oslo' } } }, { toolCall: { name: ISSUE, input: { title: 'x' } } }], 'Done.']);
    const { result } = await askToolshed('Check the weather in Oslo and create an issue');
    assert.deepEqual(await api.services.learning.latestResult(metadataOf(result).sessionId), {});
    assert.equal(api.services.learning.service.proposals().length, 0);
  });
});
