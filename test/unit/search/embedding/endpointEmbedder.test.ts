import * as assert from 'node:assert/strict';
import { EndpointEmbedder, EndpointError } from '../../../../src/core/search/embedding/endpointEmbedder';
import { redact } from '../../../../src/core/privacy/redaction';
import { MemoryByteStore } from '../../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../../src/core/platform/basicPorts';
import { createToolSearchService } from '../../../../src/core/tools/toolSearchService';
import { TOOL_INDEX_KEY } from '../../../../src/core/tools/index/toolIndex';
import type { ToolInput } from '../../../../src/core/tools/toolRecord';
import { engineWith } from '../../tools/helpers';
import { useFakeEmbeddingServer } from './fakeEmbeddingServer';

describe('embedding endpoint client (real local HTTP server)', () => {
  const fake = useFakeEmbeddingServer();

  for (const path of ['/api/embed', '/v1/embeddings']) {
    it(`${path}: batches texts and returns unit vectors in input order`, async () => {
      const embedder = new EndpointEmbedder({ url: `${fake.base}${path}`, model: 'nomic-embed-text', scrub: redact, batchSize: 4 });
      const texts = Array.from({ length: 10 }, (_, i) => `text number ${'z'.repeat(i)}`);
      const vectors = await embedder.embed(texts);
      assert.deepEqual(
        fake.server.requests.map((r) => r.input.length),
        [4, 4, 2],
      );
      assert.equal(vectors.length, 10);
      assert.equal(embedder.dims, 26);
      // Vector i has i more z's than the first: order kept even when the server answers out of order.
      assert.ok(vectors[9][25] > vectors[1][25]);
      assert.ok(Math.abs(Math.hypot(...vectors[3]) - 1) < 1e-5);
    });
  }

  it('a server that does not answer in time is an error, and then counts as down', async () => {
    let now = 0;
    const embedder = new EndpointEmbedder({ url: `${fake.base}/hang`, model: 'm', scrub: redact, timeoutMs: 50, now: () => now });
    await assert.rejects(embedder.embed(['x']), (e: unknown) => e instanceof EndpointError && /no answer within 50 ms/.test(e.message));
    assert.equal(embedder.down, true);
    await embedder.prepare('a query'); // never rejects; does not even try while down
    assert.equal(embedder.vectorNow('a query'), undefined);
    // The first request may reach the server after the client gave up (a loaded machine), so
    // count what the server saw of the second text, not how many requests arrived.
    assert.ok(!fake.server.textsSeen.includes('a query'), 'no request while down');
    now += 60_000;
    assert.equal(embedder.down, false);
  });

  it('garbage answers and refused connections are errors that say what went wrong', async () => {
    fake.server.garbage = true;
    await assert.rejects(new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'm', scrub: redact }).embed(['x']), /not a vector of numbers/);
    await assert.rejects(new EndpointEmbedder({ url: 'http://127.0.0.1:9/api/embed', model: 'm', scrub: redact }).embed(['x']), /unreachable/);
  });

  it('secrets are redacted before a text leaves the process', async () => {
    const embedder = new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'm', scrub: redact });
    await embedder.embed(['deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789']);
    assert.ok(!fake.server.textsSeen.join(' ').includes('ghp_abcdefghijklmnopqrstuvwxyz0123456789'));
  });

  describe('tool search with an endpoint', () => {
    const tools: ToolInput[] = [
      { name: 'zzz_sleep', description: 'zzz zzz zzz', inputSchema: {} },
      { name: 'banana_tool', description: 'banana bandana cabana', inputSchema: {} },
      { name: 'query_words', description: 'xyz words here', inputSchema: {} },
    ];
    async function service(store: MemoryByteStore, url: string) {
      const embedder = new EndpointEmbedder({ url, model: 'nomic-embed-text', scrub: redact, timeoutMs: 200 });
      const s = await createToolSearchService({
        engine: await engineWith(),
        store,
        logger: new MemoryLogger(),
        embedder,
        saveDelayMs: 60_000,
        config: { toolSearch: { alwaysLoadedPatterns: [] } },
      });
      return { s, embedder };
    }
    const search = async (s: Awaited<ReturnType<typeof service>>, query: string) => {
      await s.embedder.prepare(query);
      return s.s.withRun({}, (run) => run.search({ query, limit: 3 }));
    };

    it('caches vectors by record hash: unchanged tools are not sent again, a changed one is', async () => {
      const store = new MemoryByteStore();
      const first = await service(store, `${fake.base}/api/embed`);
      first.s.setTools(tools);
      await first.s.embeddings.settled();
      assert.equal(fake.server.textsSeen.length, 3);
      await first.s.flush();

      const second = await service(store, `${fake.base}/api/embed`);
      second.s.setTools(tools);
      await second.s.embeddings.settled();
      assert.equal(fake.server.textsSeen.length, 3, 'all three came from the cache');
      second.s.setTools(tools.map((t) => (t.name === 'banana_tool' ? { ...t, description: 'banana split' } : t)));
      await second.s.embeddings.settled();
      assert.deepEqual(fake.server.textsSeen.slice(3), ['banana_tool: banana split']);
      // A query sharing no word with any tool still finds the one close in meaning (letters here).
      const found = await search(second, 'bananas');
      assert.ok(found.ok && found.output.tools[0]?.name === 'banana_tool', JSON.stringify(found));
    });

    /** The vectors the saved tools.db holds (sql.js), as letter counts' directions. */
    async function storedVectors(store: MemoryByteStore): Promise<Float32Array[]> {
      const db = new (await engineWith()).sql.Database(store.entries.get(TOOL_INDEX_KEY));
      try {
        const rows = db.exec('SELECT vector FROM embedding_vectors')[0]?.values ?? [];
        return rows.map(([bytes]) => new Float32Array((bytes as Uint8Array).slice().buffer));
      } finally {
        db.close();
      }
    }
    const C = 2; // 'c': only the first banana_tool text ("bandana cabana") has one

    it('an edited or removed tool leaves no vector behind; an unchanged one is not sent again and serves after a restart', async () => {
      const store = new MemoryByteStore();
      const first = await service(store, `${fake.base}/api/embed`);
      first.s.setTools(tools);
      await first.s.embeddings.settled();
      first.s.setTools(tools.map((t) => (t.name === 'banana_tool' ? { ...t, description: 'banana split' } : t)));
      await first.s.embeddings.settled();
      assert.deepEqual(fake.server.textsSeen.slice(3), ['banana_tool: banana split'], 'only the edited tool was sent again');
      await first.s.flush();
      let vectors = await storedVectors(store);
      assert.equal(vectors.length, 3, 'one vector per tool');
      assert.ok(!vectors.some((v) => v[C] > 0), "the edited tool's old vector is gone");

      // A tool gone while closed: the next session's first pass drops its vector, sending nothing.
      const second = await service(store, `${fake.base}/api/embed`);
      second.s.setTools(tools.filter((t) => t.name !== 'zzz_sleep').map((t) => (t.name === 'banana_tool' ? { ...t, description: 'banana split' } : t)));
      await second.s.embeddings.settled();
      await second.s.flush();
      vectors = await storedVectors(store);
      assert.equal(vectors.length, 2);
      assert.equal(fake.server.textsSeen.length, 4, 'nothing was sent again');
      // The kept vectors serve at once: "nab ban" shares no word with any tool, only letters.
      const found = await search(second, 'nab ban');
      assert.ok(found.ok && found.output.tools[0]?.name === 'banana_tool', JSON.stringify(found));
    });

    it('falls back to lexical ranking when the endpoint is down', async () => {
      const down = await service(new MemoryByteStore(), 'http://127.0.0.1:9/api/embed');
      down.s.setTools(tools);
      await down.s.embeddings.settled();
      const lexical = await createToolSearchService({
        engine: await engineWith(),
        store: new MemoryByteStore(),
        saveDelayMs: 60_000,
        config: { toolSearch: { alwaysLoadedPatterns: [] } },
      });
      lexical.setTools(tools);
      const withDown = await search(down, 'xyz words');
      const plain = await lexical.withRun({}, (run) => run.search({ query: 'xyz words', limit: 3 }));
      assert.ok(withDown.ok && plain.ok);
      assert.deepEqual(
        withDown.output.tools.map((t) => [t.name, t.score]),
        plain.output.tools.map((t) => [t.name, t.score]),
      );
      assert.equal((await search(down, 'bananas')).ok, true);
    });
  });
});
