import * as assert from 'node:assert/strict';
import { EndpointEmbedder } from '../../../src/core/search/embedding/endpointEmbedder';
import { redact } from '../../../src/core/privacy/redaction';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { useFakeEmbeddingServer } from '../search/embedding/fakeEmbeddingServer';
import { ctx, engine, makeService, pack, stepSkill, tempDir, writeTree } from './helpers';

/**
 * Skill search through an embedding endpoint: a real HTTP server on 127.0.0.1 whose vectors
 * count letters (texts sharing letters are close), so meaning here is "same letters".
 */
describe('skill search with an embedding endpoint (real local HTTP server)', () => {
  const fake = useFakeEmbeddingServer();
  let root: string;
  beforeEach(() => {
    root = tempDir();
    writeTree(root, {
      'zzz.skill.yaml': stepSkill('zzz-sleep', 'zzz zzz zzz', ['Rest.']),
      'banana.skill.yaml': stepSkill('banana-split', 'banana bandana cabana', ['Peel.']),
      'words.skill.yaml': stepSkill('query-words', 'xyz words here', ['Count.']),
    });
  });

  let embedder: EndpointEmbedder;
  async function loaded(bytes: MemoryByteStore, url: string) {
    const harness = await makeService({ bytes });
    await harness.service.loadPacks([pack('p', root)]);
    embedder = new EndpointEmbedder({ url, model: 'nomic-embed-text', scrub: redact, timeoutMs: 500 });
    harness.service.useEmbedder(embedder);
    return harness.service;
  }
  /** How many cached vectors the saved skills.db holds (read with sql.js). */
  async function vectorRows(bytes: MemoryByteStore): Promise<number> {
    const db = new (await engine()).sql.Database(bytes.entries.get('skills.db'));
    try {
      return Number(db.exec('SELECT COUNT(*) FROM embedding_vectors')[0].values[0][0]);
    } finally {
      db.close();
    }
  }
  const names = async (service: Awaited<ReturnType<typeof loaded>>, query: string) =>
    (await service.search({ query, limit: 3 }, ctx)).skills.map((s) => s.name);

  it('finds a skill by the endpoint vectors, cached in the sql.js store by text hash across sessions', async () => {
    const bytes = new MemoryByteStore();
    const first = await loaded(bytes, `${fake.base}/api/embed`);
    // "nab ban" shares no word with any skill: only the endpoint's vectors find it.
    assert.equal((await names(first, 'nab ban'))[0], 'banana-split');
    const skillTexts = fake.server.textsSeen.filter((t) => t !== 'nab ban');
    assert.equal(skillTexts.length, 3, 'each skill embedded once');
    await first.dispose();

    const second = await loaded(bytes, `${fake.base}/api/embed`);
    assert.equal((await names(second, 'nab ban'))[0], 'banana-split');
    assert.deepEqual(
      fake.server.textsSeen.filter((t) => t !== 'nab ban'),
      skillTexts,
      'no skill was sent again: its vector came from the store',
    );
  });

  it("an uncalibrated endpoint model reorders search but never lifts a skill over pre-flight's relevance gate", async () => {
    const service = await loaded(new MemoryByteStore(), `${fake.base}/api/embed`);
    assert.equal((await names(service, 'nab ban'))[0], 'banana-split');
    const relevant = await service.getRelevant({ task: 'nab ban' }, ctx);
    assert.deepEqual(relevant.skills, []);
  });

  it('falls back to the lexical ranking when the endpoint is down, and then leaves it alone', async () => {
    const down = await loaded(new MemoryByteStore(), 'http://127.0.0.1:9/api/embed');
    const lexical = await makeService();
    await lexical.service.loadPacks([pack('p', root)]);
    for (const query of ['xyz words', 'banana', 'nab ban']) {
      const withDown = await down.search({ query, limit: 3 }, ctx);
      const plain = await lexical.service.search({ query, limit: 3 }, ctx);
      assert.deepEqual(
        withDown.skills.map((s) => [s.name, s.score]),
        plain.skills.map((s) => [s.name, s.score]),
      );
      // The first failure starts the back-off: later searches do not wait on the server again.
      assert.equal(embedder.down, true);
    }
  });

  it("sends no workspace skill in Restricted Mode, and a skill's secret leaves the process redacted", async () => {
    const workspaceRoot = tempDir();
    writeTree(workspaceRoot, { 'ws.skill.yaml': stepSkill('workspace-only-skill', 'nab ban from the workspace', ['Run it.']) });
    const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    writeTree(root, { 'token.skill.yaml': stepSkill('token-skill', `nab ban with token ${secret}`, ['Use it.']) });
    const harness = await makeService();
    await harness.service.loadPacks([pack('p', root), pack('ws', workspaceRoot, { workspace: true })]);
    harness.service.useEmbedder(new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'nomic-embed-text', scrub: redact, timeoutMs: 500 }));
    const untrusted = { includeWorkspacePacks: false };
    await harness.service.search({ query: 'nab ban', limit: 3 }, untrusted);
    await harness.service.getRelevant({ task: 'nab ban' }, untrusted);
    const seen = fake.server.textsSeen.join('\n');
    assert.ok(seen.includes('token-skill'), 'the trusted skills were embedded');
    assert.ok(!seen.includes('workspace-only-skill') && !seen.includes('from the workspace'), seen);
    assert.ok(!seen.includes(secret), seen);
  });

  it('an API key in the endpoint URL is never stored: the vector cache names the model by a hash of the query', async () => {
    const secret = 'sk-live-0123456789abcdefghij';
    const bytes = new MemoryByteStore();
    const service = await loaded(bytes, `${fake.base}/v1/embeddings?api-key=${secret}`);
    assert.equal((await names(service, 'nab ban'))[0], 'banana-split');
    assert.ok(!embedder.key.includes(secret), embedder.key);
    await service.dispose();
    const stored = [...bytes.entries.values()].map((entry) => Buffer.from(entry).toString('latin1')).join('');
    assert.ok(stored.includes('nomic-embed-text'), 'the vectors were cached under the model');
    assert.ok(!stored.includes(secret), 'no API key in the stored bytes');
    const other = new EndpointEmbedder({ url: `${fake.base}/v1/embeddings?api-key=another-key`, model: 'nomic-embed-text', scrub: redact });
    assert.notEqual(other.key, embedder.key, 'another query string is another cache key');
  });

  it('an edited skill leaves one cached vector; a skill of a scope this search cannot see keeps its own', async () => {
    const workspaceRoot = tempDir();
    writeTree(workspaceRoot, { 'ws.skill.yaml': stepSkill('workspace-skill', 'kept while hidden', ['Run it.']) });
    const bytes = new MemoryByteStore();
    const harness = await makeService({ bytes });
    const packs = [pack('p', root), pack('ws', workspaceRoot, { workspace: true })];
    await harness.service.loadPacks(packs);
    harness.service.useEmbedder(new EndpointEmbedder({ url: `${fake.base}/api/embed`, model: 'nomic-embed-text', scrub: redact, timeoutMs: 500 }));
    await harness.service.search({ query: 'nab ban', limit: 3 }, ctx);
    await harness.service.save();
    assert.equal(await vectorRows(bytes), 4, 'the four skills, the workspace one included');

    writeTree(root, { 'banana.skill.yaml': stepSkill('banana-split', 'banana split', ['Peel.']) });
    await harness.service.loadPacks(packs);
    const sentBefore = fake.server.textsSeen.length;
    // Restricted Mode now: the workspace skill is not visible to this search.
    await harness.service.search({ query: 'nab ban', limit: 3 }, { includeWorkspacePacks: false });
    const sent = fake.server.textsSeen.slice(sentBefore).filter((t) => t !== 'nab ban');
    assert.equal(sent.length, 1, `only the edited skill was sent again: ${JSON.stringify(sent)}`);
    assert.ok(sent[0].includes('banana split'));
    await harness.service.dispose();
    assert.equal(await vectorRows(bytes), 4, "the edited skill's old vector went; the hidden workspace skill's stayed");
  });

  it('a server answering garbage leaves skill search lexical', async () => {
    fake.server.garbage = true;
    const garbled = await loaded(new MemoryByteStore(), `${fake.base}/api/embed`);
    const lexical = await makeService();
    await lexical.service.loadPacks([pack('p', root)]);
    for (const query of ['xyz words', 'nab ban']) {
      assert.deepEqual(
        (await garbled.search({ query, limit: 3 }, ctx)).skills.map((s) => [s.name, s.score]),
        (await lexical.service.search({ query, limit: 3 }, ctx)).skills.map((s) => [s.name, s.score]),
      );
    }
    assert.ok(fake.server.requests.length > 0, 'the server was asked');
  });
});
