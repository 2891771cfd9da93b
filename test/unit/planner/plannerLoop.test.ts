import * as assert from 'node:assert/strict';
import { MemoryEventSink } from '../../../src/core/platform/basicPorts';
import type { ChatMessage, ChatModelPort, ChatPart, ToolDefinition } from '../../../src/core/platform/chatTypes';
import { runPlanner, type PlannerDeps } from '../../../src/core/planner/plannerLoop';
import type { PlannerProgress, PlannerToolRun } from '../../../src/core/planner/plannerPorts';
import { searchExchangeText, SearchSavingsLedger } from '../../../src/core/planner/searchSavings';

type Reply = (messages: ChatMessage[], tools: ToolDefinition[]) => ChatPart[];

/** A model that plays scripted replies and records what each request offered. */
function scriptedModel(replies: Reply[]): ChatModelPort & { offered: string[][]; seen: ChatMessage[][] } {
  const offered: string[][] = [];
  const seen: ChatMessage[][] = [];
  let turn = 0;
  return {
    offered,
    seen,
    async *send(messages, tools) {
      offered.push(tools.map((t) => t.name));
      seen.push(structuredClone(messages));
      const reply = replies[Math.min(turn++, replies.length - 1)];
      for (const part of reply(messages, tools)) yield part;
    },
    countTokens: async (text) => Math.ceil(text.length / 4),
  };
}

/** A tiny deferred catalog: `always` visible, `deferred` activatable, `denied` not usable. */
function fakeRun(): PlannerToolRun & { activated: Set<string> } {
  const always = ['tool_search', 'tool_invoke', 'read_file'];
  const deferred = ['weather_lookup', 'create_issue'];
  const activated = new Set<string>();
  const def = (name: string): ToolDefinition => ({ name, description: `${name} tool`, inputSchema: { type: 'object' } });
  const unknown = (name: string) => `No tool named "${name}" is available. Use tool_search to find tools.`;
  return {
    activated,
    visibleDefinitions: async () => [...always, ...activated].map(def),
    promptBlocks: () => ['<tool_discovery>\nUse tool_search.\n</tool_discovery>'],
    allDefinitions: async () => [...always, ...deferred].map(def),
    async search(input) {
      const query = String((input as { query: string }).query);
      const found = deferred.filter((name) => name.includes(query.split(' ')[0]));
      for (const name of found) activated.add(name);
      return { resultText: JSON.stringify({ tools: found.map((name) => ({ name })) }), found, activated: found };
    },
    async resolveCall(name) {
      if (always.includes(name) || activated.has(name)) return { ok: true, activated: false };
      if (deferred.includes(name)) {
        activated.add(name);
        return { ok: true, activated: true };
      }
      return { ok: false, message: unknown(name) };
    },
    unknownToolMessage: unknown,
    recordCall: () => undefined,
  };
}

function deps(model: ChatModelPort, tools: PlannerToolRun, overrides: Partial<PlannerDeps> = {}) {
  const progressLines: string[] = [];
  const invoked: Array<{ name: string; input: unknown }> = [];
  const progress: PlannerProgress = {
    progress: (m) => progressLines.push(m),
    markdown: () => undefined,
    reference: () => undefined,
  };
  const base: PlannerDeps = {
    model,
    tools,
    executor: {
      invoke: async (name, input) => {
        invoked.push({ name, input });
        return { text: name === 'weather_lookup' ? 'Sunny, 21°C' : 'ok' };
      },
    },
    progress,
    events: new MemoryEventSink(),
    signal: { isCancelled: false },
    ...overrides,
  };
  return { base, progressLines, invoked };
}

const lastToolResult = (messages: ChatMessage[]) => {
  const parts = messages[messages.length - 1].parts;
  return parts.find((p) => p.kind === 'toolResult') as Extract<ChatPart, { kind: 'toolResult' }>;
};

describe('planner loop', () => {
  it('search → activation → call → answer: the deferred tool is offered only after it was found', async () => {
    const model = scriptedModel([
      () => [{ kind: 'toolCall', callId: 'c1', name: 'tool_search', input: { query: 'weather' } }],
      () => [{ kind: 'toolCall', callId: 'c2', name: 'weather_lookup', input: { city: 'Oslo' } }],
      (messages) => [{ kind: 'text', text: `It is ${lastToolResult(messages).text} in Oslo.` }],
    ]);
    const run = fakeRun();
    const { base, progressLines, invoked } = deps(model, run);
    const outcome = await runPlanner({ prompt: 'Weather in Oslo?', history: [] }, base, {
      maxRounds: 5,
      discoveryBlocks: true,
      hiddenFromLoop: ['tool_invoke'],
    });

    assert.equal(outcome.stoppedBecause, 'done');
    assert.equal(outcome.text, 'It is Sunny, 21°C in Oslo.');
    assert.ok(!model.offered[0].includes('weather_lookup'), 'not offered before discovery');
    assert.ok(model.offered[1].includes('weather_lookup'), 'offered after discovery');
    assert.ok(!model.offered[0].includes('tool_invoke'), 'tool_invoke is for agent mode, not this loop');
    assert.deepEqual(invoked, [{ name: 'weather_lookup', input: { city: 'Oslo' } }]);
    assert.ok(progressLines.includes('Searching tools for "weather"'));
    assert.ok(progressLines.includes('Activated `weather_lookup`'));
    assert.ok(outcome.tokens.toolDefinitionTokens < outcome.tokens.allToolDefinitionTokens);
  });

  it('token accounting sums every round: definitions sent per round vs all tools in each round', async () => {
    const model = scriptedModel([
      () => [{ kind: 'toolCall', callId: 'c1', name: 'tool_search', input: { query: 'weather' } }],
      () => [{ kind: 'toolCall', callId: 'c2', name: 'weather_lookup', input: { city: 'Oslo' } }],
      () => [{ kind: 'text', text: 'done' }],
    ]);
    const { base } = deps(model, fakeRun());
    const outcome = await runPlanner({ prompt: 'Weather in Oslo?', history: [] }, base, {
      maxRounds: 5,
      discoveryBlocks: true,
      hiddenFromLoop: ['tool_invoke'],
    });
    const sentPerRound = model.offered.map((names) => names.length);
    assert.deepEqual(
      outcome.tokens.perRound.map((r) => r.tools),
      sentPerRound,
    );
    assert.equal(
      outcome.tokens.toolsSent,
      sentPerRound.reduce((a, b) => a + b, 0),
    );
    const tokensOf = (names: string[]) =>
      Math.ceil(names.map((name) => JSON.stringify({ name, description: `${name} tool`, parameters: { type: 'object' } })).join('\n').length / 4);
    assert.equal(
      outcome.tokens.toolDefinitionTokens,
      model.offered.map(tokensOf).reduce((a, b) => a + b, 0),
    );
    const all = tokensOf(['tool_search', 'read_file', 'weather_lookup', 'create_issue']);
    assert.equal(outcome.tokens.allToolDefinitionTokens, all * 3, 'all usable tools (tool_invoke hidden) once per round');
  });

  it('a denied tool and an unknown tool get identical answers, and neither name is ever offered', async () => {
    const model = scriptedModel([
      () => [
        { kind: 'toolCall', callId: 'a', name: 'delete_everything', input: {} },
        { kind: 'toolCall', callId: 'b', name: 'tool_invoke', input: {} },
      ],
      () => [{ kind: 'text', text: 'done' }],
    ]);
    const { base, invoked } = deps(model, fakeRun());
    await runPlanner({ prompt: 'x', history: [] }, base, { maxRounds: 3, discoveryBlocks: false, hiddenFromLoop: ['tool_invoke'] });
    const results = model.seen[1][model.seen[1].length - 1].parts as Array<Extract<ChatPart, { kind: 'toolResult' }>>;
    assert.equal(results[0].text.replace('delete_everything', 'X'), results[1].text.replace('tool_invoke', 'X'));
    assert.deepEqual(invoked, []);
  });

  it('activation on first use: calling an activatable tool that was not offered runs it', async () => {
    const model = scriptedModel([
      () => [{ kind: 'toolCall', callId: 'c', name: 'create_issue', input: { title: 't' } }],
      () => [{ kind: 'text', text: 'created' }],
    ]);
    const run = fakeRun();
    const { base, invoked } = deps(model, run);
    const outcome = await runPlanner({ prompt: 'x', history: [] }, base, { maxRounds: 3, discoveryBlocks: false });
    assert.deepEqual(
      invoked.map((i) => i.name),
      ['create_issue'],
    );
    assert.equal(outcome.rounds[0].toolCalls[0].outcome, 'activated');
    assert.ok(model.offered[1].includes('create_issue'));
  });

  it('stops at the round cap', async () => {
    const model = scriptedModel([() => [{ kind: 'toolCall', callId: 'c', name: 'read_file', input: {} }]]);
    const { base } = deps(model, fakeRun());
    const outcome = await runPlanner({ prompt: 'loop', history: [] }, base, { maxRounds: 4, discoveryBlocks: false });
    assert.equal(outcome.stoppedBecause, 'maxRounds');
    assert.equal(outcome.rounds.length, 4);
  });

  it('cancellation stops the loop before the next round', async () => {
    const signal = { isCancelled: false };
    const model = scriptedModel([
      () => {
        signal.isCancelled = true;
        return [{ kind: 'toolCall', callId: 'c', name: 'read_file', input: {} }];
      },
      () => [{ kind: 'text', text: 'should not happen' }],
    ]);
    const { base, invoked } = deps(model, fakeRun(), { signal });
    const outcome = await runPlanner({ prompt: 'x', history: [] }, base, { maxRounds: 5, discoveryBlocks: false });
    assert.equal(outcome.stoppedBecause, 'cancelled');
    assert.equal(model.offered.length, 1);
    assert.deepEqual(invoked, []);
  });

  it('history and the discovery blocks reach the model in order', async () => {
    const model = scriptedModel([() => [{ kind: 'text', text: 'hi' }]]);
    const { base } = deps(model, fakeRun());
    const history: ChatMessage[] = [
      { role: 'user', parts: [{ kind: 'text', text: 'earlier question' }] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'earlier answer' }] },
    ];
    await runPlanner({ prompt: 'now', history }, base, { maxRounds: 1, discoveryBlocks: true });
    const texts = model.seen[0].map((m) => (m.parts[0] as { text: string }).text);
    assert.match(texts[0], /<tool_discovery>/);
    assert.deepEqual(texts.slice(1), ['earlier question', 'earlier answer', 'now']);
  });
});

describe('planner loop: tools from skills', () => {
  /** fakeRun plus pre-activation over its deferred tools (what ToolRun.preActivate does; tested in toolsFromSkills.test.ts). */
  function runWithPreActivation() {
    const run = fakeRun();
    const calls: Array<{ names: readonly string[]; max: number }> = [];
    const preActivate = async (names: readonly string[], max: number) => {
      calls.push({ names, max });
      const out = names.filter((name) => ['weather_lookup', 'create_issue'].includes(name) && !run.activated.has(name)).slice(0, max);
      for (const name of out) run.activated.add(name);
      return out;
    };
    return { run: { ...run, preActivate }, calls };
  }
  const skillsSuggesting = (suggestedTools: string[]) => ({
    preflight: async () => ({
      pinnedBlock: '',
      relevantBlock: '<skills>\nUse weather_lookup.\n</skills>',
      used: [{ name: 'weather.skill', reason: 'best match' }],
      omitted: [],
      suggestedTools,
    }),
    promptBlocks: () => [],
    directory: async () => '',
    handle: async () => ({ resultText: '{}', used: [] }),
    handles: () => false,
  });

  it('with auto-activation on, a deferred tool a skill names is offered in round 1; capped; the footer data and event say so', async () => {
    const model = scriptedModel([() => [{ kind: 'text', text: 'done' }]]);
    const { run, calls } = runWithPreActivation();
    const events = new MemoryEventSink();
    const { base, progressLines } = deps(model, run, { skills: skillsSuggesting(['tool_invoke', 'weather_lookup', 'create_issue', 'read_file']), events });
    const outcome = await runPlanner({ prompt: 'Weather in Oslo?', history: [] }, base, {
      maxRounds: 3,
      discoveryBlocks: true,
      hiddenFromLoop: ['tool_invoke'],
      maxAutoActivatedTools: 1,
    });
    assert.ok(model.offered[0].includes('weather_lookup'));
    assert.ok(!model.offered[0].includes('create_issue'), 'the cap holds');
    assert.deepEqual(calls, [{ names: ['weather_lookup', 'create_issue', 'read_file'], max: 1 }], 'hidden names are never passed on');
    assert.deepEqual(outcome.tokens.preActivatedTools, ['weather_lookup']);
    assert.ok(progressLines.includes('Activated `weather_lookup` (named by a skill)'));
    assert.deepEqual(
      events.ofType('skills_suggested_tools').map((e) => e.payload),
      [{ tool_names: ['weather_lookup', 'create_issue', 'read_file'], activated_count: 1 }],
    );
  });

  it('Restricted Mode: auto-activation on, yet nothing a skill names is activated before round 1', async () => {
    const model = scriptedModel([() => [{ kind: 'text', text: 'done' }]]);
    const { run, calls } = runWithPreActivation();
    const { base, progressLines } = deps(model, run, { skills: skillsSuggesting(['weather_lookup']) });
    const outcome = await runPlanner({ prompt: 'Weather in Oslo?', history: [] }, base, {
      maxRounds: 3,
      discoveryBlocks: true,
      maxAutoActivatedTools: 3,
      refuseToolRuns: true,
    });
    assert.ok(!model.offered[0].includes('weather_lookup'), 'its definition is not sent');
    assert.deepEqual(calls, []);
    assert.equal(outcome.tokens.preActivatedTools, undefined);
    assert.ok(!progressLines.some((line) => line.startsWith('Activated')), progressLines.join('\n'));
  });

  it('off (the default): nothing is activated, the suggestion is still reported', async () => {
    const model = scriptedModel([() => [{ kind: 'text', text: 'done' }]]);
    const { run, calls } = runWithPreActivation();
    const events = new MemoryEventSink();
    const { base } = deps(model, run, { skills: skillsSuggesting(['weather_lookup']), events });
    const outcome = await runPlanner({ prompt: 'Weather?', history: [] }, base, { maxRounds: 3, discoveryBlocks: true });
    assert.ok(!model.offered[0].includes('weather_lookup'));
    assert.deepEqual(calls, []);
    assert.equal(outcome.tokens.preActivatedTools, undefined);
    assert.deepEqual(
      events.ofType('skills_suggested_tools').map((e) => e.payload),
      [{ tool_names: ['weather_lookup'], activated_count: 0 }],
    );
  });

  describe('what pre-activation saved (footer data; only what the run measured)', () => {
    const call = (name: string, input: unknown = {}): ChatPart => ({ kind: 'toolCall', callId: `c-${name}`, name, input });
    /** Pre-activation plus the computed select: search (one line per tool, like a real result). */
    function savingRun() {
      const { run } = runWithPreActivation();
      const selectionExchange = async (names: readonly string[]) => ({
        query: `select:${names.join(',')}`,
        resultText: JSON.stringify({ tools: names.map((name) => ({ name, description: `${name} tool` })) }),
      });
      return { ...run, selectionExchange };
    }
    const exchangeTokens = (names: string[]) =>
      Math.ceil(
        searchExchangeText(`select:${names.join(',')}`, JSON.stringify({ tools: names.map((name) => ({ name, description: `${name} tool` })) })).length / 4,
      );

    it('the ledger: a pre-activated tool called before any search returned it is saved, once; searched first or not pre-activated is not', () => {
      const ledger = new SearchSavingsLedger(['weather_lookup', 'create_issue']);
      ledger.called('read_file');
      ledger.searched(['create_issue']);
      ledger.called('create_issue');
      ledger.called('weather_lookup');
      ledger.called('weather_lookup');
      assert.deepEqual(ledger.savedTools(), ['weather_lookup']);
    });

    it('called in round 1 without a search: one tool_search round saved, with the tokens of the select: call and result', async () => {
      const model = scriptedModel([() => [call('weather_lookup', { city: 'Oslo' })], () => [{ kind: 'text', text: 'Sunny.' }]]);
      const { base } = deps(model, savingRun(), { skills: skillsSuggesting(['weather_lookup']) });
      const outcome = await runPlanner({ prompt: 'Weather in Oslo?', history: [] }, base, { maxRounds: 3, discoveryBlocks: true, maxAutoActivatedTools: 2 });
      assert.deepEqual(outcome.tokens.searchSaving, { tools: ['weather_lookup'], tokens: exchangeTokens(['weather_lookup']) });
    });

    it('nothing claimed when the model searched for it first, or never called it', async () => {
      const searchedFirst = scriptedModel([
        () => [call('tool_search', { query: 'weather' })],
        () => [call('weather_lookup', { city: 'Oslo' })],
        () => [{ kind: 'text', text: 'Sunny.' }],
      ]);
      const first = await runPlanner(
        { prompt: 'Weather?', history: [] },
        deps(searchedFirst, savingRun(), { skills: skillsSuggesting(['weather_lookup']) }).base,
        { maxRounds: 4, discoveryBlocks: true, maxAutoActivatedTools: 2 },
      );
      assert.deepEqual(first.tokens.preActivatedTools, ['weather_lookup']);
      assert.equal(first.tokens.searchSaving, undefined);
      const unused = scriptedModel([() => [{ kind: 'text', text: 'No tools needed.' }]]);
      const second = await runPlanner({ prompt: 'Weather?', history: [] }, deps(unused, savingRun(), { skills: skillsSuggesting(['weather_lookup']) }).base, {
        maxRounds: 3,
        discoveryBlocks: true,
        maxAutoActivatedTools: 2,
      });
      assert.equal(second.tokens.searchSaving, undefined);
    });
  });
});
