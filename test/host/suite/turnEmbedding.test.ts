import * as assert from 'node:assert/strict';
import { eventually, scriptedModel, toolshed } from './helpers';
import { askToolshed, driver, lastToolResultText, withSettings } from './chatHelpers';
import type { RecordedRequest } from '../driver/scriptedModel';
// The unit tests' embedding server: a real one on 127.0.0.1 whose vectors count letters a–z.
import { FakeEmbeddingServer } from '../../unit/search/embedding/fakeEmbeddingServer';

suite('@toolshed with an embedding endpoint (local HTTP server, scripted model)', () => {
  setup(async () => {
    await toolshed();
    (await driver()).testTools.reset();
  });

  test('the request is embedded once per turn: skill pre-flight, pre-activation and the tool_search round share it', async () => {
    const api = await toolshed();
    const server = new FakeEmbeddingServer();
    const url = `${await server.start()}/api/embed`;
    try {
      await withSettings({ 'toolshed.embeddings.embedder': 'endpoint', 'toolshed.embeddings.endpointUrl': url }, async () => {
        const model = await scriptedModel();
        // A selection request (no tools offered) picks nothing; a round searches once, then answers.
        const reply = (request: RecordedRequest) => {
          if (request.toolNames.length === 0) return JSON.stringify({ skills: [] });
          const searched = request.messages.some((m) => m.content.some((p) => p.type === 'toolResult'));
          return searched ? 'Done.' : [{ toolCall: { name: 'tool_search', input: { query: 'qqq' } } }];
        };
        model.setScript([reply, reply, reply, reply]);
        // Every tool's vector is in before the turn (until then ranking stays lexical).
        await api.services.tools.embeddings.settled();
        const prompt = 'Is it going to be sunny in Oslo tomorrow?';
        await askToolshed(prompt);
        const seen = server.requests.map((request) => request.input);
        const forPrompt = seen.filter((input) => input.includes(prompt));
        assert.equal(forPrompt.length, 1, `requests: ${JSON.stringify(seen.map((i) => i.slice(0, 2)))}`);
        assert.deepEqual(forPrompt[0], [prompt], 'the request alone, not batched with anything else');
        assert.ok(!seen.some((input) => input.includes('qqq')), 'the round’s search query is not embedded on its own');
        // "qqq" shares no word with any tool: only the request's vector can rank tools for it.
        const result = lastToolResultText(model.requests.find((r) => r.messages.some((m) => m.content.some((p) => p.type === 'toolResult')))! as never);
        assert.match(result, /"name":/, `the round's search found tools by the request's meaning: ${result.slice(0, 300)}`);
      });
    } finally {
      await server.stop();
    }
  });

  test('a failing endpoint: the answer says so under the turn, a status-bar item shows it until it answers again', async () => {
    const api = await toolshed();
    const server = new FakeEmbeddingServer();
    server.reply = (res) => {
      res.writeHead(500);
      res.end('boom');
    };
    const url = `${await server.start()}/api/embed`;
    try {
      await withSettings({ 'toolshed.embeddings.embedder': 'endpoint', 'toolshed.embeddings.endpointUrl': url }, async () => {
        const model = await scriptedModel();
        model.setScript(['Done.', 'Done.', 'Done.']);
        const { recorded } = await askToolshed('Is it going to be sunny in Oslo tomorrow?');
        // In the answer text, not a folded step.
        assert.match(
          recorded.markdown(),
          /The embedding endpoint failed \(embedding endpoint answered HTTP 500\): this turn's tool and skill search was lexical\./,
        );
        assert.ok(!recorded.steps().some((step) => /embedding endpoint failed/i.test(step)), recorded.steps().join(' | '));
        const status = api.services.embeddingStatus;
        assert.equal(status.failure, 'embedding endpoint answered HTTP 500');
        assert.match(status.tooltip ?? '', /tool and skill search are lexical until it answers/);
      });
      // Another embedder (the setting back to off): the sign goes.
      await eventually(() => api.services.embeddingStatus.failure === undefined || undefined, 'the status item hidden once the endpoint is off');
    } finally {
      await server.stop();
    }
  });
});
