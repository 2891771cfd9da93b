import * as assert from 'node:assert/strict';
import { scriptedModel, toolshed } from './helpers';
import { askToolshed, userFacingTexts, withSettings } from './chatHelpers';

const PINNED = 'pack.core.git.commit_message';

/** The text a recorded request's first user message carried (pre-flight blocks live there). */
function instructionsOf(request: { messages: Array<{ role: string; content: unknown[] }> }): string {
  return userFacingTexts({ messages: request.messages.slice(0, 1) });
}

suite('@toolshed pre-flight skills: one budget, pinned included; optional model summary', () => {
  test('a pinned skill that does not fit toolshed.skills.maxTokens is left out and the response says so', async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    await api.services.pinned.pin(PINNED);
    try {
      await withSettings({ 'toolshed.skills.maxTokens': 100, 'toolshed.skills.summarize': false }, async () => {
        const model = await scriptedModel();
        model.setScript(['ok']);
        const { result, recorded } = await askToolshed('Help me write a good commit message for my staged changes');
        const tokens = (result.metadata as { toolshed: { tokens: { injectedSkillTokens: number } } }).toolshed.tokens;
        assert.ok(tokens.injectedSkillTokens <= 100, `${tokens.injectedSkillTokens} injected for a budget of 100`);
        // Steps are shown in the answer (a quoted block), not as transient progress.
        const text = recorded.markdown();
        const line = text.split('\n').find((l) => l.includes('Skills left out'));
        assert.ok(line, text);
        assert.ok(line.includes(PINNED), line);
      });
    } finally {
      await api.services.pinned.unpin(PINNED);
    }
  });

  test("with toolshed.skills.summarize, the request's model condenses what did not fit, within the budget", async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
    await withSettings({ 'toolshed.skills.maxTokens': 150, 'toolshed.skills.summarize': true }, async () => {
      const model = await scriptedModel();
      model.setScript([
        (request) =>
          request.toolNames.length === 0 && userFacingTexts(request).includes('Condense the skills')
            ? `### ${PINNED}\n1. Read the staged diff.\n2. Write an imperative subject line.`
            : 'unexpected first request',
        'ok',
      ]);
      const { result } = await askToolshed('Help me write a good commit message for my staged changes');
      assert.ok(model.requests.length >= 2, 'a summary request, then the planner round');
      assert.deepEqual(model.requests[0]!.toolNames, [], 'the summary request offers no tools');
      const instructions = instructionsOf(model.requests[1]!);
      assert.match(instructions, /condensed to fit/);
      assert.match(instructions, /imperative subject line/);
      const tokens = (result.metadata as { toolshed: { tokens: { injectedSkillTokens: number } } }).toolshed.tokens;
      assert.ok(tokens.injectedSkillTokens <= 150, `${tokens.injectedSkillTokens} injected for a budget of 150`);
    });
  });
});
