import * as assert from 'node:assert/strict';
import { defaultSettings } from '../../../src/core/config/settingsSchema';
import type { ToolshedSettings } from '../../../src/core/config/settingsSchema';
import { MemoryEventSink } from '../../../src/core/platform/basicPorts';
import type { ChatMessage, ChatModelPort, ChatPart, ToolDefinition } from '../../../src/core/platform/chatTypes';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { explainTurnMarkdown } from '../../../src/core/planner/turn/explainMarkdown';
import { modelDeferral, runToolshedTurn } from '../../../src/core/planner/turn/toolshedTurn';
import type { TurnDeps } from '../../../src/core/planner/turn/toolshedTurn';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import { toolshedOwnTools } from '../../../src/cli/commands/toolCliSupport';
import { engineWith } from '../tools/helpers';
import { ctx, makeService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';

/**
 * The one @toolshed turn (runToolshedTurn) over a real tool-search service and skill service, with
 * a scripted model: what round 1 offers and carries for each skill setting, the token event and
 * the footer, and the caller's hooks.
 */
describe('runToolshedTurn: one @toolshed turn', () => {
  const countTokens = async (text: string) => Math.ceil(text.length / 4);

  /** Calls `weather_forecast` once when offered, then answers; records what each round carried. */
  function scriptedModel(seen: Array<{ instructions: string; tools: string[] }>): ChatModelPort {
    return {
      async *send(messages: ChatMessage[], tools: ToolDefinition[]): AsyncIterable<ChatPart> {
        const first = messages[0]?.parts[0];
        seen.push({ instructions: first?.kind === 'text' ? first.text : '', tools: tools.map((t) => t.name) });
        const called = messages.some((m) => m.parts.some((p) => p.kind === 'toolCall'));
        if (!called && tools.some((t) => t.name === 'weather_forecast')) yield { kind: 'toolCall', callId: 'c1', name: 'weather_forecast', input: {} };
        else yield { kind: 'text', text: 'Sunny.' };
      },
      countTokens,
    };
  }

  async function turn(skillSettings: Partial<ToolshedSettings['skills']>, hooks?: TurnDeps['hooks'], skillFiles?: Record<string, string>) {
    const settings = defaultSettings();
    settings.skills = { ...settings.skills, ...skillSettings };
    const tools = await createToolSearchService({
      engine: await engineWith(),
      store: new MemoryByteStore(),
      saveDelayMs: 60_000,
      config: { toolSearch: { mode: 'always' } },
    });
    tools.setTools([
      { name: 'weather_forecast', description: 'Weather forecast for a city: temperature, rain and wind for the coming days', inputSchema: {} },
      { name: 'create_branch', description: 'Create a git branch in a repository', inputSchema: {} },
      ...toolshedOwnTools(),
    ]);
    const root = tempDir();
    writeTree(
      root,
      skillFiles ?? {
        'trip.skill.yaml': stepSkill('trip-weather', 'check the weather forecast before a trip', ['Look up the forecast for each city.']),
        'packing.skill.yaml': stepSkill('packing-list', 'write a packing list of clothes, chargers and documents for a trip', ['List what to pack.']),
      },
    );
    const harness = await makeService();
    await harness.service.loadPacks([pack('p', root)]);
    const events = new MemoryEventSink();
    const seen: Array<{ instructions: string; tools: string[] }> = [];
    const calls: string[] = [];
    const run = await tools.startRun();
    try {
      const result = await runToolshedTurn(
        { prompt: 'What is the weather forecast for my trip to Lisbon?', history: [], sessionId: 's1' },
        {
          settings,
          run,
          decideDeferral: modelDeferral(tools.config.toolSearch, { id: 'test', maxInputTokens: 128_000, countTokens }),
          model: scriptedModel(seen),
          skills: { service: harness.service, context: ctx, pinnedNames: [] },
          executor: {
            invoke: async (name) => {
              calls.push(name);
              return { text: '{"ok":true}' };
            },
          },
          progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
          events,
          signal: { isCancelled: false },
          refuseToolRuns: false,
          hooks,
        },
      );
      return { result, seen, events, calls };
    } finally {
      run.end();
      await tools.dispose();
      await harness.service.dispose();
    }
  }

  it('discovery style: offers the skill discovery tools, never tool_invoke or the static skill tool, and injects the matching skill', async () => {
    const { result, seen } = await turn({ toolStyle: 'discovery' });
    assert.deepEqual(result.hidden, ['tool_invoke', 'skill']);
    const round1 = seen[0]!;
    assert.ok(round1.tools.includes('skill_search') && round1.tools.includes('tool_search'), round1.tools.join());
    assert.ok(!round1.tools.includes('tool_invoke') && !round1.tools.includes('skill'), round1.tools.join());
    assert.match(round1.instructions, /Look up the forecast for each city/);
    assert.deepEqual(
      result.outcome.usedSkills.map((s) => s.name),
      ['trip-weather'],
    );
  });

  it('single style: offers the `skill` tool with this run listing instead of skill_search/skill_get/skill_list', async () => {
    const { seen } = await turn({ toolStyle: 'single' });
    const round1 = seen[0]!.tools;
    assert.ok(round1.includes('skill'), round1.join());
    assert.ok(!round1.some((name) => name === 'skill_search' || name === 'skill_get' || name === 'skill_list'), round1.join());
  });

  it('skills off: no skill tool is offered and nothing is injected', async () => {
    const { result, seen } = await turn({ enabled: false });
    assert.ok(!seen[0]!.tools.some((name) => name.startsWith('skill')), seen[0]!.tools.join());
    assert.doesNotMatch(seen[0]!.instructions, /Look up the forecast/);
    assert.deepEqual(result.outcome.usedSkills, []);
  });

  it('emits request_tokens with the rounds the footer counts, and returns the footer', async () => {
    const { result, events, calls } = await turn({});
    assert.deepEqual(calls, ['weather_forecast']);
    const [event] = events.ofType('request_tokens');
    assert.equal(event?.payload.rounds, result.outcome.rounds.length);
    assert.equal(event?.payload.session_id, 's1');
    assert.equal(result.outcome.rounds.length, 2);
    assert.match(result.footer, /Model requests: 2 \(2 rounds\)/);
    assert.match(result.footer, /Tool search: .*deferred/);
  });

  it("runs the caller's hooks: the decorated skills and the wrapped executor", async () => {
    const wrapped: string[] = [];
    const { seen } = await turn(
      {},
      {
        decorateSkills: (skills) =>
          skills && {
            ...skills,
            preflight: async (prompt) => {
              const injected = await skills.preflight(prompt);
              return { ...injected, relevantBlock: `${injected.relevantBlock}\nDECORATED` };
            },
          },
        wrapExecutor: (inner) => ({
          invoke: async (name, input, signal) => {
            wrapped.push(name);
            return inner.invoke(name, input, signal);
          },
        }),
      },
    );
    assert.match(seen[0]!.instructions, /DECORATED/);
    assert.deepEqual(wrapped, ['weather_forecast']);
  });

  it('explains itself from what it recorded: the injected skill, the gated-out one, the pre-activated tool, each round', async () => {
    const { result } = await turn({ selection: 'search' });
    const { skills, tools, rounds } = result.explanation;
    const trip = skills.candidates.find((c) => c.name === 'trip-weather');
    const packing = skills.candidates.find((c) => c.name === 'packing-list');
    assert.equal(trip?.decision, 'injected (best match)');
    assert.equal(trip?.relevance, result.outcome.usedSkills.find((s) => s.name === 'trip-weather')?.relevance, 'the relevance the turn used');
    assert.ok(packing && !packing.injected, JSON.stringify(skills.candidates));
    assert.match(packing.decision, /^below (toolshed\.skills\.minRelevance|the relative cut)/);
    const weather = tools.candidates.find((c) => c.name === 'weather_forecast');
    assert.equal(weather?.decision, 'activated before round 1');
    assert.equal(weather?.relevance, result.outcome.tokens.requestMatchedTools?.[0]?.relevance);
    assert.deepEqual(
      rounds.map((r) => r.calls.map((c) => c.name)),
      [['weather_forecast'], []],
    );
    assert.ok(rounds[0]!.toolsSent.includes('weather_forecast'));
    assert.deepEqual(tools.hidden, result.hidden);
    const text = explainTurnMarkdown(result.explanation);
    assert.match(text, /✅ `trip-weather` — \d\.\d\d — injected \(best match\)/);
    assert.match(text, /▫️ `packing-list` — \d\.\d\d — below/);
    assert.match(text, /✅ `weather_forecast` — \d\.\d\d \(matched: [a-z, ]+\) — activated before round 1/);
  });

  it('explains a skill whose name was redacted as what happened to it (injected), never "not among the best"', async () => {
    const secretName = 'trip-weather-ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    const { result } = await turn({ selection: 'hybrid' }, undefined, {
      'trip.skill.yaml': stepSkill(secretName, 'check the weather forecast before a trip', ['Look up the forecast for each city.']),
    });
    const used = result.outcome.usedSkills.map((s) => s.name);
    assert.equal(used.length, 1, JSON.stringify(used));
    assert.ok(!used[0]!.includes('ghp_16C7e42F'), `the name is redacted where the turn shows it: ${used[0]}`);
    const [candidate, ...others] = result.explanation.skills.candidates;
    assert.deepEqual(others, [], JSON.stringify(result.explanation.skills.candidates));
    assert.ok(candidate && !candidate.name.includes('ghp_16C7e42F'), JSON.stringify(candidate));
    assert.equal(candidate.injected, true, JSON.stringify(candidate));
    assert.equal(candidate.decision, 'injected (best match)');
  });

  it('redacts the request it keeps', async () => {
    const settings = defaultSettings();
    const tools = await createToolSearchService({ engine: await engineWith(), store: new MemoryByteStore(), saveDelayMs: 60_000 });
    tools.setTools(toolshedOwnTools());
    const run = await tools.startRun();
    const secret = 'ghp_' + 'a'.repeat(36);
    try {
      const { explanation } = await runToolshedTurn(
        { prompt: `why does ${secret} not work`, history: [], sessionId: 's' },
        {
          settings,
          run,
          decideDeferral: modelDeferral(tools.config.toolSearch, { id: 'test', maxInputTokens: 128_000, countTokens }),
          model: scriptedModel([]),
          executor: { invoke: async () => ({ text: '' }) },
          progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
          events: new MemoryEventSink(),
          signal: { isCancelled: false },
          refuseToolRuns: true,
        },
      );
      assert.ok(!explanation.request.includes(secret), explanation.request);
      assert.equal(explanation.tools.restricted, true);
      assert.match(explainTurnMarkdown(explanation), /Restricted Mode: no tool runs/);
    } finally {
      run.end();
      await tools.dispose();
    }
  });
});
