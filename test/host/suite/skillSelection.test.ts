import * as assert from 'node:assert/strict';
import { scriptedModel, toolshed } from './helpers';
import { askToolshed, historyOf, withSettings } from './chatHelpers';

type Recorded = { messages: Array<{ content: Array<{ type: string; value?: unknown }> }>; toolNames: string[] };

const firstText = (request: Recorded) => String(request.messages[0]?.content.find((p) => p.type === 'text')?.value ?? '');
/** Candidate names of the selection prompt, in the order shown (search order). */
const candidatesOf = (request: Recorded) => {
  const block = /<skills>\n([\s\S]*?)\n<\/skills>/.exec(firstText(request))?.[1] ?? '';
  return [...block.matchAll(/^- ([^:\n]+):/gm)].map((m) => m[1]);
};
/** Names of the skills injected into the main request's `<skills>` block. */
const injectedOf = (request: Recorded) => {
  const block = /<skills>\n([\s\S]*?)\n<\/skills>/.exec(firstText(request))?.[1] ?? '';
  return [...block.matchAll(/^### (\S+)/gm)].map((m) => m[1]);
};

/**
 * The mechanics of a model's choice: every candidate passes the gate and hybrid always asks
 * (by default it asks only when it can help; the last tests cover that).
 */
const ALWAYS_ASK = { 'toolshed.skills.selection': 'hybrid', 'toolshed.skills.minRelevance': 0, 'toolshed.skills.askModelBelowRelevance': 1 };

const TASK = 'Write release notes and a commit message, fix the lint errors and describe the pull request for the changes since the last tag';

suite('active skills chosen by the model (hybrid selection, scripted model)', () => {
  setup(async () => {
    const api = await toolshed();
    await api.services.skillPacks.ready;
  });

  test('the model picks 2 of the candidates: exactly those two are injected, shown with their reason, and the call is counted', async () => {
    await withSettings({ ...ALWAYS_ASK, 'toolshed.skills.maxActive': 3 }, async () => {
      const model = await scriptedModel();
      let picked: string[] = [];
      model.setScript([
        (request) => {
          const names = candidatesOf(request as never);
          picked = [names[4], names[1]].filter(Boolean);
          return JSON.stringify({ skills: picked });
        },
        'Done.',
      ]);
      const { result, recorded } = await askToolshed(TASK);

      assert.equal(model.requests.length, 2, 'one selection call, then the answer');
      assert.deepEqual(model.requests[0].toolNames, [], 'the selection call offers no tools');
      const candidates = candidatesOf(model.requests[0] as never);
      assert.ok(candidates.length >= 5 && candidates.length <= 30, `5–30 candidates: ${candidates.join(', ')}`);
      assert.ok(!/Instructions:|Steps:/.test(firstText(model.requests[0] as never)), 'names and descriptions only');
      assert.equal(picked.length, 2);
      assert.deepEqual(injectedOf(model.requests[1] as never), picked, 'exactly the two chosen skills, in the chosen order');
      for (const name of picked) {
        assert.ok(recorded.markdown().includes(`Using skill \`${name}\` (chosen by the model)`), recorded.markdown());
      }
      assert.match(recorded.markdown(), /Choosing the active skills with \S.* cost \d+ tokens/, 'the footer names the model that chose');
      const metadata = result.metadata?.toolshed as { tokens: { selectionTokens: number }; activeSkills: Array<{ name: string; reason: string }> };
      assert.ok(metadata.tokens.selectionTokens > 0);
      assert.deepEqual(
        metadata.activeSkills.map((s) => s.reason),
        ['chosen by the model', 'chosen by the model'],
      );
    });
  });

  test('a model answering garbage: the search order is used, without the candidates it was asked to confirm', async () => {
    await withSettings({ ...ALWAYS_ASK, 'toolshed.skills.maxActive': 3 }, async () => {
      const model = await scriptedModel();
      model.setScript(['Sure! The release notes one sounds good, and maybe "not-a-skill".', 'Done.']);
      const { recorded } = await askToolshed(TASK);
      assert.ok(candidatesOf(model.requests[0] as never).length >= 2, 'the model was asked');
      // Without a usable answer, candidates the model was asked to confirm (here all: below askModelBelowRelevance 1) are left out.
      assert.deepEqual(injectedOf(model.requests[1] as never), []);
      assert.ok(recorded.markdown().includes('Skill selection used the search order'), recorded.markdown());
      assert.ok(!recorded.markdown().includes('Using skill'), recorded.markdown());
    });
  });

  test('/skill off unpins, and /skills marks the skills active in the last answer', async () => {
    await withSettings(ALWAYS_ASK, async () => {
      const model = await scriptedModel();
      let picked = '';
      model.setScript([
        (request) => {
          picked = candidatesOf(request as never)[0] ?? '';
          return JSON.stringify({ skills: [picked] });
        },
        'Done.',
      ]);
      const first = await askToolshed(TASK);
      const history = historyOf(TASK, first.result, 'Done.');
      const listed = await askToolshed('', { command: 'skills', history });
      const line = listed.recorded.markdown();
      assert.ok(line.includes(`\`${picked}\` (chosen by the model)`), line);

      const pinned = await askToolshed(picked, { command: 'skill', history });
      assert.match(pinned.recorded.markdown(), /Pinned/);
      const afterPin = [...history, ...historyOf(`/skill ${picked}`, pinned.result, 'Pinned')];
      const off = await askToolshed(`off ${picked}`, { command: 'skill', history: afterPin });
      assert.match(off.recorded.markdown(), new RegExp(`Unpinned \`${picked}\``));
      assert.deepEqual((off.result.metadata?.toolshed as { pinnedSkills: string[] }).pinnedSkills, []);
    });
  });

  test('selectionTimeoutMs: a model slower than the timeout falls back to the search order', async () => {
    await withSettings({ ...ALWAYS_ASK, 'toolshed.skills.selectionTimeoutMs': 300 }, async () => {
      const model = await scriptedModel();
      // The selection answer comes only after the whole request is over: slower than any
      // timeout, however loaded the machine (a fixed delay could beat a late timer).
      let answerSelection: () => void = () => undefined;
      const requestOver = new Promise<void>((resolve) => (answerSelection = resolve));
      model.setScript([
        async (request) => {
          await requestOver;
          return JSON.stringify({ skills: [candidatesOf(request as never).at(-1)] });
        },
        'Done.',
      ]);
      try {
        const { recorded } = await askToolshed(TASK);
        assert.match(recorded.markdown(), /did not answer within 300 ms/);
        const candidates = candidatesOf(model.requests[0] as never);
        const injected = injectedOf(model.requests[1] as never);
        assert.deepEqual(injected, candidates.slice(0, injected.length));
      } finally {
        answerSelection();
      }
    });
  });

  test('selection "model" offers every skill (not only search hits) and maxActive caps the choice', async () => {
    await withSettings({ 'toolshed.skills.selection': 'model', 'toolshed.skills.maxActive': 1 }, async () => {
      const model = await scriptedModel();
      let candidates: string[] = [];
      model.setScript([
        (request) => {
          candidates = candidatesOf(request as never);
          return JSON.stringify({ skills: [candidates[candidates.length - 1]] });
        },
        'Done.',
      ]);
      await askToolshed('zzqx unrelated gibberish wording');
      assert.match(firstText(model.requests[0] as never), /Pick at most 1 skill from this list/);
      assert.ok(candidates.includes('release-notes') && candidates.includes('count-lines'), candidates.join(', '));
      assert.deepEqual(injectedOf(model.requests[1] as never), [candidates[candidates.length - 1]]);
    });
  });

  test('default hybrid: a request no skill applies to injects nothing and makes no selection request', async () => {
    await withSettings({ 'toolshed.skills.selection': 'hybrid' }, async () => {
      const model = await scriptedModel();
      model.setScript(['It will be sunny.']);
      const { result, recorded } = await askToolshed('What is the weather in Paris tomorrow?');
      assert.equal(model.requests.length, 1, 'the answer only: no selection request');
      assert.ok(model.requests[0]!.toolNames.length > 0, 'that one request is the answering round');
      assert.deepEqual(injectedOf(model.requests[0] as never), [], 'no skill injected');
      assert.ok(!recorded.markdown().includes('Using skill'), recorded.markdown());
      assert.ok(!recorded.markdown().includes('Choosing the active skills'), recorded.markdown());
      const metadata = result.metadata?.toolshed as { tokens: { selectionTokens: number; injectedSkillTokens: number }; activeSkills: unknown[] };
      assert.equal(metadata.tokens.selectionTokens, 0);
      assert.deepEqual(metadata.activeSkills, []);
    });
  });

  test('default hybrid: a request one skill clearly applies to injects it without a selection request', async () => {
    await withSettings({ 'toolshed.skills.selection': 'hybrid' }, async () => {
      const model = await scriptedModel();
      model.setScript(['Here is the message.']);
      const { recorded } = await askToolshed('Write a commit message for my staged changes');
      assert.equal(model.requests.length, 1, 'no selection request');
      assert.deepEqual(injectedOf(model.requests[0] as never), ['pack.core.git.commit_message']);
      assert.ok(recorded.markdown().includes('Using skill `pack.core.git.commit_message` (best match)'), recorded.markdown());
    });
  });
});
