import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedModel, toolshed } from './helpers';
import { askToolshed, callWhenOfferedScript, driver, historyOf, withSettings } from './chatHelpers';

const WEATHER = 'fixture_weather_forecast';
const COMMIT_SKILL = 'pack.core.git.commit_message';

type TurnMetadata = { toolshed: { activeSkills?: Array<{ name: string }> } };

suite('Explain Last Turn: /why and the command explain the last @toolshed turn (scripted model)', () => {
  setup(async () => {
    await toolshed();
    (await driver()).testTools.reset();
  });

  test('a turn with one injected skill, one gated-out skill and one pre-activated tool: /why says which, with relevance and gates', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    await withSettings({ 'toolshed.toolSearch.preActivateTools': 3, 'toolshed.skills.selection': 'search' }, async () => {
      const model = await scriptedModel();
      model.setScript(callWhenOfferedScript(WEATHER, { city: 'Oslo' }, 'weather forecast', 'Oslo'));
      const prompt = 'Write a commit message for my staged changes about the weather forecast for Oslo';
      const { result, recorded } = await askToolshed(prompt);
      const active = ((result.metadata as TurnMetadata).toolshed.activeSkills ?? []).map((skill) => skill.name);
      assert.ok(active.includes(COMMIT_SKILL), `the skill was injected: ${active.join(', ')}`);
      assert.ok(model.requests[0]!.toolNames.includes(WEATHER), 'the tool was pre-activated');

      const why = await askToolshed('', { command: 'why', history: historyOf(prompt, result, recorded.markdown()) });
      const text = why.recorded.markdown();
      // The injected skill, with the relevance the turn used.
      assert.match(text, new RegExp(`✅ \`${COMMIT_SKILL.replace(/\./g, '\\.')}\` — \\d\\.\\d\\d — injected \\(best match\\)`), text);
      // A skill the gate left out, with the gate it missed — and it is not among the turn's active skills.
      const gatedOut = /▫️ `([^`]+)` — \d\.\d\d — (below toolshed\.skills\.minRelevance 0\.25|below the relative cut \(0\.7 × best \d\.\d\d = \d\.\d\d\))/.exec(
        text,
      );
      assert.ok(gatedOut, text);
      assert.ok(!active.includes(gatedOut[1]!), `${gatedOut[1]} was not injected`);
      // The pre-activated tool, the gate in force, and what each round sent.
      assert.match(text, new RegExp(`✅ \`${WEATHER}\` — \\d\\.\\d\\d.* — activated before round 1`), text);
      assert.match(text, /the gate: relevance ≥ 0\.20 \(`toolshed\.toolSearch\.minRelevance`\)/);
      assert.match(text, new RegExp(`1\\. \\d+ tools \\([\\d,]+ tokens\\): .*\`${WEATHER}\`.*; the model called \`${WEATHER}\` \\(ok\\)`), text);
      assert.match(text, /2\. \d+ tools \([\d,]+ tokens\): .*; the model answered/);

      // The command shows the same explanation (the latest turn of the window).
      const shown = await vscode.commands.executeCommand<string>('toolshed.explainLastTurn');
      assert.equal(shown, text);
      assert.equal(vscode.window.activeTextEditor?.document.getText(), text);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    });
  });

  test('/why in a conversation without a turn says there is nothing to explain yet', async () => {
    const why = await askToolshed('', { command: 'why' });
    assert.match(why.recorded.markdown(), /There is no @toolshed turn to explain yet/);
  });
});
