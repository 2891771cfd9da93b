import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ChatMessage, ChatModelPort } from '../../../src/core/platform/chatTypes';
import { selectActiveSkills } from '../../../src/core/planner/selection/activeSkillSelection';
import type { SelectionRequest } from '../../../src/core/planner/selection/activeSkillSelection';
import { buildSelectionPrompt, parseSelectionAnswer } from '../../../src/core/planner/selection/selectionPrompt';

/** A fake chat model answering the selection prompt with a fixed text (or never, or by throwing). */
function fakeModel(answer: string | 'hang' | Error, seen: ChatMessage[][] = []): ChatModelPort {
  return {
    async *send(messages, tools) {
      assert.deepEqual(tools, [], 'the selection call offers no tools');
      seen.push(messages);
      if (answer instanceof Error) throw answer;
      if (answer === 'hang') await new Promise(() => undefined);
      yield { kind: 'text', text: answer };
    },
    countTokens: async (text) => Math.ceil(text.length / 4),
  };
}

const candidates = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((name) => ({ name, description: `${name} skill: does ${name} things` }));
const request = (overrides: Partial<SelectionRequest> = {}): SelectionRequest => ({
  mode: 'hybrid',
  task: 'do the thing',
  candidates,
  pinned: [],
  maxActive: 3,
  timeoutMs: 1000,
  ...overrides,
});
const live = { isCancelled: false };

describe('active skill selection', () => {
  it('hybrid: the model picks 2 of 5 → exactly those two, marked "chosen by the model", tokens counted', async () => {
    const seen: ChatMessage[][] = [];
    const outcome = await selectActiveSkills(request(), { model: fakeModel('{"skills": ["delta", "beta"]}', seen), signal: live });
    assert.deepEqual(outcome.active, [
      { name: 'delta', reason: 'chosen by the model' },
      { name: 'beta', reason: 'chosen by the model' },
    ]);
    assert.ok(outcome.selectionTokens > 0);
    assert.equal(outcome.fallbackReason, '');
    const prompt = JSON.stringify(seen[0]);
    for (const c of candidates) assert.ok(prompt.includes(c.name));
  });

  it('the model sees names and descriptions only, never skill bodies', async () => {
    const prompt = buildSelectionPrompt('task', [{ name: 'a', description: 'line one\nline two' }], 3);
    assert.match(prompt, /- a: line one line two/);
    assert.match(prompt, /\{"skills": \["name", \.\.\.\]\}/);
  });

  for (const [label, answer] of [
    ['prose', 'I think alpha and beta would help.'],
    ['unknown names', '{"skills": ["alpha", "made-up"]}'],
    ['too many', '{"skills": ["alpha", "beta", "gamma", "delta"]}'],
    ['wrong shape', '{"names": ["alpha"]}'],
    ['duplicates', '{"skills": ["alpha", "alpha"]}'],
    ['extra keys', '{"skills": ["alpha"], "why": "x"}'],
    ['empty', ''],
  ] as const) {
    it(`falls back to search order when the model answers ${label}`, async () => {
      const outcome = await selectActiveSkills(request(), { model: fakeModel(answer), signal: live });
      assert.deepEqual(
        outcome.active.map((a) => a.name),
        ['alpha', 'beta', 'gamma'],
      );
      assert.ok(outcome.active.every((a) => a.reason === 'best match'));
      assert.notEqual(outcome.fallbackReason, '');
    });
  }

  it('falls back on a timeout and on a failing model call', async () => {
    const slow = await selectActiveSkills(request({ timeoutMs: 100 }), { model: fakeModel('hang'), signal: live });
    assert.match(slow.fallbackReason, /did not answer within 100 ms/);
    assert.deepEqual(
      slow.active.map((a) => a.name),
      ['alpha', 'beta', 'gamma'],
    );
    const broken = await selectActiveSkills(request(), { model: fakeModel(new Error('quota exceeded')), signal: live });
    assert.match(broken.fallbackReason, /quota exceeded/);
  });

  it('falls back when the request is cancelled', async () => {
    const outcome = await selectActiveSkills(request(), { model: fakeModel('{"skills": ["delta"]}'), signal: { isCancelled: true } });
    assert.deepEqual(
      outcome.active.map((a) => a.name),
      ['alpha', 'beta', 'gamma'],
    );
  });

  it('an empty choice is respected (the model saw nothing relevant)', async () => {
    const outcome = await selectActiveSkills(request(), { model: fakeModel('```json\n{"skills": []}\n```'), signal: live });
    assert.deepEqual(outcome.active, []);
  });

  it('pinned skills come first and count toward maxActive; the model fills the rest', async () => {
    const outcome = await selectActiveSkills(request({ pinned: ['gamma'], maxActive: 2 }), { model: fakeModel('{"skills": ["epsilon"]}'), signal: live });
    assert.deepEqual(outcome.active, [
      { name: 'gamma', reason: 'pinned' },
      { name: 'epsilon', reason: 'chosen by the model' },
    ]);
    const full = await selectActiveSkills(request({ pinned: ['gamma', 'beta'], maxActive: 2 }), { model: fakeModel('never asked'), signal: live });
    assert.equal(full.askedModel, false);
    assert.deepEqual(
      full.active.map((a) => a.reason),
      ['pinned', 'pinned'],
    );
  });

  it('search mode never asks the model', async () => {
    const outcome = await selectActiveSkills(request({ mode: 'search' }), { model: fakeModel(new Error('must not be called')), signal: live });
    assert.equal(outcome.askedModel, false);
    assert.deepEqual(
      outcome.active.map((a) => a.name),
      ['alpha', 'beta', 'gamma'],
    );
  });

  it('any answer text parses without throwing; only listed names are ever accepted', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseSelectionAnswer(text, ['alpha', 'beta'], 3);
        return !parsed.ok || parsed.names.every((n) => n === 'alpha' || n === 'beta');
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 5 }), (names) => {
        const parsed = parseSelectionAnswer(JSON.stringify({ skills: names }), ['alpha', 'beta'], 3);
        return !parsed.ok || parsed.names.every((n) => n === 'alpha' || n === 'beta');
      }),
    );
  });
});
