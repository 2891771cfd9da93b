import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { runPlanner } from '../../../src/core/planner/plannerLoop';
import { plannerToolRunFrom } from '../../../src/core/planner/plannerToolRun';
import type { ChatModelPort, ChatPart } from '../../../src/core/platform/chatTypes';
import { absoluteRelevance, requestTermWeights } from '../../../src/core/tools/index/absoluteRelevance';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { SAMPLE_TOOLS, makeService } from './helpers';

const WEATHER = 'What is the weather forecast for Oslo for the next 3 days?';

describe('absolute relevance (the gate before the model asks)', () => {
  it("is the share of the request's IDF mass the tool covers: independent of the other hits, unknown words count against, numbers do not count", async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const index = (service as unknown as { index: Parameters<typeof requestTermWeights>[0] }).index;
    const terms = requestTermWeights(index, WEATHER);
    assert.ok(!terms.has('3'), 'an argument value is not a capability word');
    const weather = absoluteRelevance(index, terms, 'weather.get_forecast');
    assert.ok(weather > 0.2 && weather <= 1, `weather ${weather}`);
    assert.equal(absoluteRelevance(index, terms, 'mcp_github_merge_pull_request'), 0);
    // A shared common word alone is a poor match, however the ranked search orders it.
    const poem = requestTermWeights(index, 'create a birthday poem for my aunt');
    assert.ok(absoluteRelevance(index, poem, 'mcp_github_create_issue') < weather / 2);
    assert.equal(absoluteRelevance(index, requestTermWeights(index, '1 2 3'), 'weather.get_forecast'), 0, 'no term: no relevance');
  });

  it('stays in [0, 1] for any request text', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const index = (service as unknown as { index: Parameters<typeof requestTermWeights>[0] }).index;
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const terms = requestTermWeights(index, text);
        return SAMPLE_TOOLS.every((tool) => {
          const value = absoluteRelevance(index, terms, tool.name);
          return value >= 0 && value <= 1;
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('ToolRun.activateForRequest (pre-flight for tools)', () => {
  it('activates the deferred tool the request is about, with source "request", and only it', async () => {
    const { service, events } = await makeService({ tools: SAMPLE_TOOLS });
    const run = await service.startRun();
    const matched = run.activateForRequest(WEATHER);
    assert.deepEqual(
      matched.map((tool) => tool.name),
      ['weather.get_forecast'],
    );
    assert.ok(run.isVisible('weather.get_forecast'));
    const activation = run.listActivations().find((a) => a.toolName === 'weather.get_forecast');
    assert.equal(activation?.source, 'request');
    // The reason /tools and Manage Tools show: the relevance the gate measured.
    assert.equal(activation?.reason, `matched your request: ${matched[0]!.matchedTerms!.join(', ')} — ${matched[0]!.relevance.toFixed(2)}`);
    assert.deepEqual([...matched[0]!.matchedTerms!].sort(), ['days', 'forecast', 'weather'], 'the words as the user wrote them');
    assert.deepEqual(
      events.ofType('tool_activated').map((e) => e.payload.source),
      ['request'],
    );
  });

  it('a request no tool is about activates nothing, although tool_search still returns a best hit', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const run = await service.startRun();
    const search = run.search({ query: 'create a birthday poem for my aunt' }, { activate: false });
    assert.ok(search.ok && search.output.tools[0]?.name === 'mcp_github_create_issue', 'the ranked search finds the shared word');
    assert.deepEqual(run.activateForRequest('create a birthday poem for my aunt'), []);
    assert.equal(run.listActivations().length, 0);
  });

  it('never a policy-denied or hidden tool, and nothing of it in events', async () => {
    const denied = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { deny: ['weather.*'] } });
    const run = await denied.service.startRun();
    assert.deepEqual(run.activateForRequest(WEATHER), []);
    assert.ok(!JSON.stringify(denied.events.events).includes('weather.get_forecast'));
    const hidden = await makeService({ tools: SAMPLE_TOOLS });
    const hiddenRun = await hidden.service.startRun({ isVisible: (tool) => !tool.name.startsWith('weather') });
    assert.deepEqual(hiddenRun.activateForRequest(WEATHER), []);
    assert.ok(!hiddenRun.isVisible('weather.get_forecast'));
  });

  it('respects toolshed.toolSearch.preActivateTools (0 turns it off) and the gate threshold', async () => {
    const request = 'list the open issues of the GitHub repository and create a new issue';
    const defaults = await makeService({ tools: SAMPLE_TOOLS });
    assert.ok((await defaults.service.startRun()).activateForRequest(request).length >= 2, 'two tools match this request');
    const one = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { preActivateTools: 1 } });
    assert.equal((await one.service.startRun()).activateForRequest(request).length, 1);
    const off = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { preActivateTools: 0 } });
    const offRun = await off.service.startRun();
    assert.deepEqual(offRun.activateForRequest(WEATHER), []);
    assert.equal(offRun.listActivations().length, 0);
    const strict = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { minRelevance: 1 } });
    assert.deepEqual((await strict.service.startRun()).activateForRequest(WEATHER), []);
  });

  it('mode off (nothing deferred): nothing to activate', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { mode: 'off' } });
    assert.deepEqual((await service.startRun()).activateForRequest(WEATHER), []);
  });

  it('stays within the 128-tool cap: a full request activates nothing more, and every activated tool is sent', async () => {
    const bulk: ToolInput[] = Array.from({ length: 140 }, (_, i) => ({
      name: `bulk_tool_${i}`,
      description: `Bulk tool number ${i}.`,
      inputSchema: { type: 'object' },
    }));
    const { service } = await makeService({ tools: [...SAMPLE_TOOLS, ...bulk] });
    const run = await service.startRun();
    run.preActivate(
      bulk.map((tool) => tool.name),
      200,
      'filling the request',
    );
    assert.deepEqual(run.activateForRequest(WEATHER), []);
    assert.ok(
      run.listActivations().every((a) => run.isVisible(a.toolName)),
      'no activated tool is over the cap',
    );
    assert.equal(run.overCapTools().length, 0);
  });
});

describe('tool_search activation on discovery passes the same gate', () => {
  it('the top hit is always activated, weaker results only when they pass; the model still reads all of them', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { minRelevance: 0.9 } });
    const run = await service.startRun();
    const result = run.search({ query: 'github issue' });
    assert.ok(result.ok);
    const names = result.output.tools.map((tool) => tool.name);
    assert.ok(names.length >= 2, names.join());
    assert.ok(run.isVisible(names[0]!), 'top hit activated');
    const activated = run.listActivations().map((a) => a.toolName);
    assert.ok(activated.length < names.length, `gated: ${activated.join()} of ${names.join()}`);
    const loose = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { minRelevance: 0 } });
    const looseRun = await loose.service.startRun();
    const all = looseRun.search({ query: 'github issue' });
    assert.ok(all.ok);
    assert.deepEqual(
      looseRun
        .listActivations()
        .map((a) => a.toolName)
        .sort(),
      all.output.tools.map((t) => t.name).sort(),
    );
  });

  it('select: and exact searches load every tool named (the model asked for them)', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { minRelevance: 1 } });
    const run = await service.startRun();
    assert.ok(run.search({ query: 'select:weather.get_forecast,mcp_github_create_issue' }).ok);
    assert.deepEqual(
      run
        .listActivations()
        .map((a) => a.toolName)
        .sort(),
      ['mcp_github_create_issue', 'weather.get_forecast'],
    );
  });
});

describe('planner: tools before the model asks', () => {
  const oneCall = (gold: string): ChatModelPort & { offered: string[][] } => {
    const offered: string[][] = [];
    return {
      offered,
      async *send(messages, tools): AsyncIterable<ChatPart> {
        offered.push(tools.map((t) => t.name));
        if (messages.some((m) => m.parts.some((p) => p.kind === 'toolResult'))) yield { kind: 'text', text: 'Sunny.' };
        else if (tools.some((t) => t.name === gold)) yield { kind: 'toolCall', callId: 'c1', name: gold, input: { city: 'Oslo' } };
        else yield { kind: 'toolCall', callId: 's1', name: 'tool_search', input: { query: 'weather forecast' } };
      },
      countTokens: async (text) => Math.ceil(text.length / 4),
    };
  };

  async function turn(refuseToolRuns: boolean) {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const run = await service.startRun();
    const model = oneCall('weather.get_forecast');
    const progress: string[] = [];
    const outcome = await runPlanner(
      { prompt: WEATHER, history: [] },
      {
        model,
        tools: plannerToolRunFrom(run),
        executor: { invoke: async () => ({ text: '{"forecast":"sunny"}' }) },
        progress: { progress: (line) => progress.push(line), markdown: () => undefined, reference: () => undefined },
        events: { emit: () => undefined },
        signal: { isCancelled: false },
      },
      { maxRounds: 6, discoveryBlocks: true, refuseToolRuns },
    );
    return { outcome, progress, model, run };
  }

  it('round 1 already offers the matching tool: call, answer — 2 rounds, with the step and the footer data', async () => {
    const { outcome, progress, model } = await turn(false);
    assert.ok(model.offered[0]!.includes('weather.get_forecast'));
    assert.equal(outcome.rounds.length, 2);
    const relevance = outcome.tokens.requestMatchedTools?.[0]?.relevance.toFixed(2);
    const words = outcome.tokens.requestMatchedTools?.[0]?.matchedTerms?.join(', ');
    assert.ok(progress.includes(`Activated \`weather.get_forecast\` (matched your request: ${words} — ${relevance})`), progress.join('\n'));
    assert.deepEqual(
      outcome.tokens.requestMatchedTools?.map((t) => t.name),
      ['weather.get_forecast'],
    );
    assert.equal(outcome.tokens.selectionRequests, 0);
  });

  it('Restricted Mode: nothing is activated before the model asks', async () => {
    const { outcome, progress, model, run } = await turn(true);
    assert.ok(!model.offered[0]!.includes('weather.get_forecast'));
    assert.ok(!progress.some((line) => line.includes('matched your request')));
    assert.equal(outcome.tokens.requestMatchedTools, undefined);
    assert.ok(!run.listActivations().some((a) => a.source === 'request'));
  });
});
