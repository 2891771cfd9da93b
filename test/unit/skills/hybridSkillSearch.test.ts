import * as assert from 'node:assert/strict';
import { loadBundledEmbedder } from '../../../src/core/search/embedding/bundledEmbedder';
import type { Embedder, WeightedTerm } from '../../../src/core/search/embedding/embedder';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { ctx, makeService, pack, stepSkill, tempDir, writeTree } from './helpers';

/** The bundled model, counting the texts it embeds (queries and skills alike). */
class CountingEmbedder implements Embedder {
  readonly texts: string[] = [];
  readonly key: string;
  readonly dims?: number;
  readonly calibration: Embedder['calibration'];
  constructor(private readonly inner: Embedder) {
    this.key = inner.key;
    this.dims = inner.dims;
    this.calibration = inner.calibration;
  }
  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return this.inner.embed(texts);
  }
  vectorNow(text: string): Float32Array | undefined {
    this.texts.push(text);
    return this.inner.vectorNow(text);
  }
  prepare(text: string): Promise<void> {
    return this.inner.prepare(text);
  }
  vectorOfTerms(terms: Iterable<WeightedTerm>): Float32Array | undefined {
    return this.inner.vectorOfTerms!(terms);
  }
}

describe('hybrid skill_search (bundled vectors)', () => {
  async function loaded() {
    const root = tempDir();
    writeTree(root, {
      'jobs.skill.yaml': stepSkill('find-openings', 'look for job vacancies and hiring positions', ['Search the job board.']),
      'fx.skill.yaml': stepSkill('money-exchange', 'convert money between currencies', ['Call the exchange-rate API.']),
      'release.skill.yaml': stepSkill('release', 'publish a new version of the package', ['Tag, build, publish.']),
    });
    const harness = await makeService();
    await harness.service.loadPacks([pack('p', root)]);
    return harness.service;
  }
  const names = async (service: Awaited<ReturnType<typeof loaded>>, query: string) =>
    (await service.search({ query, limit: 3 }, ctx)).skills.map((s) => s.name);

  it('finds a skill that shares no word with the request only with the embedder on', async () => {
    const service = await loaded();
    assert.deepEqual(await names(service, 'recruit staff'), []);
    assert.deepEqual(await names(service, 'Euros to Canadian dollars'), []);
    service.useEmbedder(loadBundledEmbedder());
    assert.equal((await names(service, 'recruit staff'))[0], 'find-openings');
    assert.equal((await names(service, 'Euros to Canadian dollars'))[0], 'money-exchange');
  });

  it('keeps the lexical best match first and never demotes an exact name', async () => {
    const service = await loaded();
    const lexical = await names(service, 'release');
    service.useEmbedder(loadBundledEmbedder());
    const fused = await names(service, 'release');
    assert.equal(lexical[0], 'release');
    assert.equal(fused[0], 'release');
    const scores = (await service.search({ query: 'convert money', limit: 3 }, ctx)).skills.map((s) => s.score);
    assert.ok(scores.every((s, i) => s >= 0 && s <= 1 && (i === 0 || s <= scores[i - 1])));
  });

  it('pre-flight injects a skill only the embedding found once its calibrated similarity passes minRelevance', async () => {
    const service = await loaded();
    const injected = async () => (await service.getRelevant({ task: 'recruit staff' }, ctx)).skills;
    assert.deepEqual(await injected(), [], 'lexical: relevance 0');
    service.useEmbedder(loadBundledEmbedder());
    assert.deepEqual(await injected(), [], 'the shipped calibration keeps this weak paraphrase out');
    service.useEmbedder(loadBundledEmbedder(undefined, { floor: 0, ceiling: 0.3 }));
    const result = await service.getRelevant({ task: 'recruit staff' }, ctx);
    assert.deepEqual(result.skills, ['find-openings']);
    assert.ok(result.relevance['find-openings'] >= 0.25);
  });

  it('embeds each skill once: later searches, and a new session over the saved store, embed only the query and what changed', async () => {
    const root = tempDir();
    const skills = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`s${i}.skill.yaml`, stepSkill(`skill-${i}`, `handle chore number ${i} for the team`, ['Do it.'])]),
    );
    writeTree(root, skills);
    const bytes = new MemoryByteStore();
    const counting = () => new CountingEmbedder(loadBundledEmbedder()!);
    const skillTexts = (embedder: CountingEmbedder) => embedder.texts.filter((t) => t.startsWith('skill-'));
    const first = (await makeService({ bytes })).service;
    await first.loadPacks([pack('p', root)]);
    const embedder = counting();
    first.useEmbedder(embedder);
    for (const query of ['recruit staff', 'chore for the team', 'convert money']) await first.search({ query, limit: 3 }, ctx);
    assert.equal(skillTexts(embedder).length, 30, 'every skill embedded once over three searches');
    await first.dispose();

    writeTree(root, { 's3.skill.yaml': stepSkill('skill-3', 'water the office plants', ['Do it.']) });
    const second = (await makeService({ bytes })).service;
    await second.loadPacks([pack('p', root)]);
    const again = counting();
    second.useEmbedder(again);
    assert.equal((await second.search({ query: 'water the plants', limit: 3 }, ctx)).skills[0]?.name, 'skill-3');
    assert.deepEqual(
      skillTexts(again).map((t) => t.split(' ')[0]),
      ['skill-3'],
      'the new session embedded only the edited skill; the others came from the store',
    );
    await second.dispose();
  });
});
