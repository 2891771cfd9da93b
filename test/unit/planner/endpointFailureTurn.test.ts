import * as assert from 'node:assert/strict';
import { defaultSettings } from '../../../src/core/config/settingsSchema';
import { MemoryEventSink, MemoryLogger } from '../../../src/core/platform/basicPorts';
import type { ChatModelPort } from '../../../src/core/platform/chatTypes';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { modelDeferral, runToolshedTurn } from '../../../src/core/planner/turn/toolshedTurn';
import { embedderFromSettings } from '../../../src/core/tools/index/embedderChoice';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import { toolshedOwnTools } from '../../../src/cli/commands/toolCliSupport';
import { engineWith } from '../tools/helpers';
import { ctx, makeService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';
import { useFakeEmbeddingServer } from '../search/embedding/fakeEmbeddingServer';

/**
 * An @toolshed turn whose embedding endpoint fails (a real HTTP server on 127.0.0.1 answering
 * 500): the footer of that turn says so, the log says it once per outage, and the status callback
 * (the extension's status-bar item) hears the failure and the recovery.
 */
const endpointConfig = (url: string) => ({ ...defaultSettings().embeddings, embedder: 'endpoint' as const, endpointUrl: url, endpointTimeoutMs: 500 });

describe('embedding endpoint failure: the turn footer, the log once, the status (real local HTTP server)', () => {
  const fake = useFakeEmbeddingServer();
  const countTokens = async (text: string) => Math.ceil(text.length / 4);
  const answering: ChatModelPort = {
    async *send() {
      yield { kind: 'text', text: 'Done.' };
    },
    countTokens,
  };
  const failing = () => {
    fake.server.reply = (res) => {
      res.writeHead(500);
      res.end('boom');
    };
  };

  async function turnWith(logger: MemoryLogger, statuses: Array<string | undefined>) {
    const config = endpointConfig(`${fake.base}/api/embed`);
    const embedder = embedderFromSettings(config, true, logger, (failure) => statuses.push(failure));
    const settings = defaultSettings();
    const tools = await createToolSearchService({
      engine: await engineWith(),
      store: new MemoryByteStore(),
      logger,
      embedder,
      saveDelayMs: 60_000,
      config: { toolSearch: { mode: 'always' } },
    });
    tools.setTools([{ name: 'weather_forecast', description: 'Weather forecast for a city', inputSchema: {} }, ...toolshedOwnTools()]);
    await tools.embeddings.settled();
    const root = tempDir();
    writeTree(root, { 'trip.skill.yaml': stepSkill('trip-weather', 'check the weather forecast before a trip', ['Look up the forecast.']) });
    const harness = await makeService();
    await harness.service.loadPacks([pack('p', root)]);
    harness.service.useEmbedder(embedder);
    const run = await tools.startRun();
    try {
      return await runToolshedTurn(
        { prompt: 'What is the weather forecast for my trip?', history: [], sessionId: 's1' },
        {
          settings,
          run,
          decideDeferral: modelDeferral(tools.config.toolSearch, { id: 'test', maxInputTokens: 128_000, countTokens }),
          model: answering,
          skills: { service: harness.service, context: ctx, pinnedNames: [] },
          executor: { invoke: async () => ({ text: '{}' }) },
          progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
          events: new MemoryEventSink(),
          signal: { isCancelled: false },
          refuseToolRuns: false,
        },
      );
    } finally {
      run.end();
      await tools.dispose();
      await harness.service.dispose();
    }
  }

  it("the footer of an affected turn says the endpoint failed and search was lexical; a working endpoint's turn does not", async () => {
    failing();
    const down = await turnWith(new MemoryLogger(), []);
    assert.match(down.footer, /The embedding endpoint failed \(embedding endpoint answered HTTP 500\): this turn's tool and skill search was lexical\./);
    fake.server.reply = undefined;
    const up = await turnWith(new MemoryLogger(), []);
    assert.doesNotMatch(up.footer, /embedding endpoint failed/);
  });

  it('the log says it once per outage, however many requests fail; the status hears the failure and the recovery', async () => {
    failing();
    const logger = new MemoryLogger();
    const statuses: Array<string | undefined> = [];
    const config = endpointConfig(`${fake.base}/api/embed?key=secret-in-query`);
    const embedder = embedderFromSettings(config, true, logger, (failure) => statuses.push(failure))!;
    for (let i = 0; i < 3; i++) await assert.rejects(embedder.embed([`text ${i}`]));
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    assert.equal(warnings.length, 1, JSON.stringify(logger.lines));
    assert.match(warnings[0]!.message, /Embedding endpoint 127\.0\.0\.1:\d+ failed: embedding endpoint answered HTTP 500\. Tool and skill search are lexical/);
    assert.doesNotMatch(warnings[0]!.message, /secret-in-query/, 'the URL query (an API key, perhaps) is not logged');
    fake.server.reply = undefined;
    await embedder.embed(['back']);
    assert.deepEqual(statuses, ['embedding endpoint answered HTTP 500', undefined]);
    assert.ok(logger.lines.some((line) => line.level === 'info' && /answers again/.test(line.message)));
  });
});
