import * as assert from 'node:assert/strict';
import { EndpointEmbedder } from '../../../../src/core/search/embedding/endpointEmbedder';
import { loadBundledEmbedder } from '../../../../src/core/search/embedding/bundledEmbedder';
import { VectorBuilder } from '../../../../src/core/search/embedding/vectorBuilder';
import { redact } from '../../../../src/core/privacy/redaction';
import { MemoryLogger } from '../../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../../src/core/platform/memoryByteStore';
import { SqlDatabase } from '../../../../src/core/sql/sqlDatabase';
import { VectorCache } from '../../../../src/core/sql/vectorCache';
import { createToolSearchService } from '../../../../src/core/tools/toolSearchService';
import { engine } from '../../skills/helpers';
import { useFakeEmbeddingServer } from './fakeEmbeddingServer';

/**
 * The one fetch-through-cache step of tool and skill vectors, over a real sql.js store and a
 * real embedding server on 127.0.0.1 (its vectors count letters).
 */
describe('vector builder: vectors by content hash, embedded once (sql.js store, real local HTTP server)', () => {
  const fake = useFakeEmbeddingServer();

  /** A fresh sql.js database, or one reopened from a saved one (a later session). */
  async function database(saved?: Uint8Array): Promise<SqlDatabase> {
    return new SqlDatabase(new (await engine()).sql.Database(saved));
  }
  const endpoint = (model = 'nomic-embed-text', url = `${fake.base}/api/embed`) => new EndpointEmbedder({ url, model, scrub: redact, timeoutMs: 500 });
  const TEXTS = new Map([
    ['h-zzz', 'zzz zzz zzz'],
    ['h-banana', 'banana bandana cabana'],
    ['h-words', 'xyz words here'],
  ]);

  it('a second session with the same texts embeds nothing; a changed text re-embeds just that one', async () => {
    const db = await database();
    let stores = 0;
    const first = await new VectorBuilder(new VectorCache(() => db), () => stores++).fetch(endpoint(), TEXTS);
    assert.ok(first && first.failure === undefined);
    assert.equal(first.embedded, 3);
    assert.deepEqual(fake.server.textsSeen.sort(), [...TEXTS.values()].sort());
    assert.equal(stores, 1, 'the owner was told once that new vectors need saving');

    const later = await database(db.export());
    const builder = new VectorBuilder(new VectorCache(() => later), () => stores++);
    const second = await builder.fetch(endpoint(), TEXTS);
    assert.ok(second);
    assert.equal(second.embedded, 0);
    assert.equal(fake.server.textsSeen.length, 3, 'nothing was sent again');
    assert.equal(stores, 1, 'nothing new to save');
    for (const [hash, vector] of first.vectors) assert.deepEqual(second.vectors.get(hash), vector, `${hash}: the stored vector comes back as it was made`);

    const edited = new Map([...TEXTS, ['h-banana-2', 'banana split']]);
    edited.delete('h-banana');
    const third = await builder.fetch(endpoint(), edited);
    assert.ok(third);
    assert.equal(third.embedded, 1);
    assert.deepEqual(fake.server.textsSeen.slice(3), ['banana split']);
    assert.equal(third.vectors.size, 3);
    // The edited text's old vector goes once the owner knows every current hash.
    assert.equal(builder.retain(endpoint().key, edited.keys()), 1);
  });

  it("another model's vectors are never used: its key names the vector space", async () => {
    const db = await database();
    const builder = new VectorBuilder(new VectorCache(() => db));
    await builder.fetch(endpoint('model-a'), TEXTS);
    const other = await builder.fetch(endpoint('model-b'), TEXTS);
    assert.equal(other?.embedded, 3);
    assert.equal(fake.server.textsSeen.length, 6);
  });

  it('an embedder failure is reported, keeps what the store had and stores nothing', async () => {
    const db = await database();
    let stores = 0;
    const builder = new VectorBuilder(new VectorCache(() => db), () => stores++);
    await builder.fetch(endpoint(), new Map([['h-zzz', 'zzz zzz zzz']]));
    fake.server.garbage = true; // the same server now answers with no vectors
    const failed = await builder.fetch(endpoint(), TEXTS);
    assert.ok(failed?.failure, 'the caller is told what went wrong');
    assert.match(failed.failure, /vector/i);
    assert.deepEqual([...failed.vectors.keys()], ['h-zzz'], "the store's vector is still there");
    assert.equal(failed.embedded, 0);
    assert.equal(stores, 1, 'the failure stored nothing');
    fake.server.garbage = false;
    const recovered = await builder.fetch(endpoint(), TEXTS);
    assert.equal(recovered?.embedded, 2, 'once it answers, only what the store lacks is sent');
  });

  it('a store that cannot be read or written costs an embedding, never a search', async () => {
    const db = await database();
    db.raw.close();
    let stores = 0;
    const fetched = await new VectorBuilder(new VectorCache(() => db), () => stores++).fetch(endpoint(), TEXTS);
    assert.equal(fetched?.embedded, 3);
    assert.equal(fetched?.vectors.size, 3);
    assert.equal(stores, 0, 'nothing was saved, so the owner is not told to save');
  });

  it('an owner gone while the embedder answered stores nothing', async () => {
    const db = await database();
    const cache = new VectorCache(() => db);
    const fetched = await new VectorBuilder(cache).fetch(endpoint(), TEXTS, () => false);
    assert.equal(fetched, undefined);
    assert.equal(cache.all(endpoint().key).size, 0);
  });

  it('in-process: the store answers first (whole model in one read), the rest embedded now and stored', async () => {
    const bundled = loadBundledEmbedder()!;
    const db = await database();
    const cache = new VectorCache(() => db);
    let stores = 0;
    const builder = new VectorBuilder(cache, () => stores++);
    const texts = new Map([
      ['h-rain', 'will it rain tomorrow'],
      ['h-none', 'zqxv qzxv'],
    ]);
    const first = builder.vectorsNow(bundled, texts);
    assert.deepEqual(first.get('h-rain'), bundled.vectorNow('will it rain tomorrow'));
    assert.equal(first.get('h-none'), undefined, 'a text none of whose words are known has no vector');
    assert.deepEqual([...cache.all(bundled.key).keys()], ['h-rain']);
    assert.equal(stores, 1);
    // A stored vector is used as it is, whatever the text now says of it (the hash is the identity).
    cache.put(bundled.key, new Map([['h-rain', bundled.vectorNow('job openings')!]]));
    assert.deepEqual(builder.vectorsNow(bundled, texts).get('h-rain'), bundled.vectorNow('job openings'));
    assert.equal(stores, 1, 'nothing new was stored');
  });

  it('tool search reports an endpoint failure in the log, and its lexical ranking goes on', async () => {
    const logger = new MemoryLogger();
    const service = await createToolSearchService({
      engine: await engine(),
      store: new MemoryByteStore(),
      logger,
      embedder: endpoint('nomic-embed-text', 'http://127.0.0.1:9/api/embed'),
      saveDelayMs: 60_000,
      config: { toolSearch: { alwaysLoadedPatterns: [] } },
    });
    service.setTools([
      { name: 'query_words', description: 'xyz words here', inputSchema: {} },
      { name: 'banana_tool', description: 'banana bandana cabana', inputSchema: {} },
    ]);
    await service.embeddings.settled();
    const said = logger.lines.map((line) => line.message);
    assert.ok(
      said.some((line) => /^Embedding endpoint: .+; tool vectors wait until it answers\.$/.test(line)),
      said.join('\n'),
    );
    const found = await service.withRun({}, (run) => run.search({ query: 'xyz words', limit: 3 }));
    assert.ok(found.ok && found.output.tools[0]?.name === 'query_words', JSON.stringify(found));
  });
});
