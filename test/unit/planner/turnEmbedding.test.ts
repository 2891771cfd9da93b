import * as assert from 'node:assert/strict';
import type { ChatMessage, ChatModelPort, ChatPart } from '../../../src/core/platform/chatTypes';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { runPlanner } from '../../../src/core/planner/plannerLoop';
import { plannerSkillsFrom } from '../../../src/core/planner/plannerSkills';
import { plannerToolRunFrom } from '../../../src/core/planner/plannerToolRun';
import { redact } from '../../../src/core/privacy/redaction';
import { EndpointEmbedder } from '../../../src/core/search/embedding/endpointEmbedder';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import type { ToolSearchService } from '../../../src/core/tools/toolSearchService';
import type { SkillService } from '../../../src/core/skills/skillService';
import { toolshedOwnTools } from '../../../src/cli/commands/toolCliSupport';
import { engineWith } from '../tools/helpers';
import { useFakeEmbeddingServer } from '../search/embedding/fakeEmbeddingServer';
import { ctx, makeService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';

/**
 * @toolshed's own loop with an embedding endpoint (a real HTTP server on 127.0.0.1): the turn's
 * request is embedded once and shared by skill pre-flight, tool pre-activation and every
 * `tool_search` round; with the server down the turn is lexical and the server is not asked again.
 */
describe('planner loop: one embedding request per turn (real local HTTP server)', () => {
  const fake = useFakeEmbeddingServer();

  async function wired(url: string): Promise<{ tools: ToolSearchService; skills: SkillService }> {
    const embedder = new EndpointEmbedder({ url, model: 'nomic-embed-text', scrub: redact, timeoutMs: 300 });
    const tools = await createToolSearchService({
      engine: await engineWith(),
      store: new MemoryByteStore(),
      logger: new MemoryLogger(),
      embedder,
      saveDelayMs: 60_000,
      config: { toolSearch: { mode: 'always' } },
    });
    tools.setTools([
      { name: 'banana_tool', description: 'banana bandana cabana', inputSchema: {} },
      { name: 'zzz_sleep', description: 'zzz zzz zzz', inputSchema: {} },
      ...toolshedOwnTools(),
    ]);
    await tools.embeddings.settled();
    const root = tempDir();
    writeTree(root, { 'fx.skill.yaml': stepSkill('money-exchange', 'convert money between currencies', ['Call the rates API.']) });
    const harness = await makeService();
    await harness.service.loadPacks([pack('p', root)]);
    harness.service.useEmbedder(embedder);
    return { tools, skills: harness.service };
  }

  /** Searches once with its own words, then answers. */
  function searchingModel(query: string): ChatModelPort {
    return {
      async *send(messages: ChatMessage[]): AsyncIterable<ChatPart> {
        const searched = messages.some((m) => m.parts.some((p) => p.kind === 'toolCall'));
        if (searched) yield { kind: 'text', text: 'Done.' };
        else yield { kind: 'toolCall', callId: 'c1', name: 'tool_search', input: { query } };
      },
      countTokens: async (text) => Math.ceil(text.length / 4),
    };
  }

  async function turn(wiring: { tools: ToolSearchService; skills: SkillService }, prompt: string, searchQuery: string) {
    const run = await wiring.tools.startRun();
    try {
      return await runPlanner(
        { prompt, history: [] },
        {
          model: searchingModel(searchQuery),
          tools: plannerToolRunFrom(run),
          skills: plannerSkillsFrom(wiring.skills, ctx, { maxTokens: 2000, topK: 3, pinnedNames: [], countTokens: async (t) => Math.ceil(t.length / 4) }),
          executor: { invoke: async () => ({ text: '{"ok":true}' }) },
          progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
          events: { emit: () => undefined },
          signal: { isCancelled: false },
        },
        { maxRounds: 4, discoveryBlocks: true, hiddenFromLoop: ['tool_invoke'] },
      );
    } finally {
      run.end();
    }
  }

  it('embeds the request once for skill pre-flight, pre-activation and the tool_search round', async () => {
    const wiring = await wired(`${fake.base}/api/embed`);
    await turn(wiring, 'warm up the skill vectors', 'zzz');
    const before = fake.server.requests.length;
    // The model's query shares no word and no letter with any tool.
    const outcome = await turn(wiring, 'nab ban please', 'qqq');
    const during = fake.server.requests.slice(before);
    assert.deepEqual(
      during.map((r) => r.input),
      [['nab ban please']],
      'one request: the request text, not the search query',
    );
    // The request's vector ranked the round's search: the tool close in meaning was found and sent next round.
    assert.ok(!outcome.rounds[0].toolsSent.includes('banana_tool'), 'not pre-activated: an endpoint model has no calibration');
    assert.ok(outcome.rounds[1]?.toolsSent.includes('banana_tool'), JSON.stringify(outcome.rounds));
  });

  it('a long request with blanks before it is still embedded once (skill pre-flight reads more of it than the tools)', async () => {
    const wiring = await wired(`${fake.base}/api/embed`);
    await turn(wiring, 'warm up the skill vectors', 'zzz');
    const before = fake.server.requests.length;
    await turn(wiring, `\n  ${'nab ban please '.repeat(200)}`, 'qqq');
    assert.equal(fake.server.requests.length - before, 1, JSON.stringify(fake.server.requests.slice(before).map((r) => r.input[0].length)));
  });

  it('with the server not answering, the turn is lexical and the next turn does not wait on it again', async () => {
    const wiring = await wired(`${fake.base}/api/embed`);
    await turn(wiring, 'warm up the skill vectors', 'zzz');
    fake.server.hangAll = true;
    const before = fake.server.requests.length;
    const first = await turn(wiring, 'first request words', 'zzz');
    assert.equal(first.stoppedBecause, 'done');
    assert.ok(first.rounds[1]?.toolsSent.includes('zzz_sleep'), 'the lexical search still found the tool');
    assert.deepEqual(
      fake.server.requests.slice(before).map((r) => r.input),
      [['first request words']],
      'one try, which timed out',
    );
    const second = await turn(wiring, 'second request words', 'zzz');
    assert.equal(second.stoppedBecause, 'done');
    assert.equal(fake.server.requests.length, before + 1, 'no request inside the back-off');
  });
});
