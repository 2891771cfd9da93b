import * as assert from 'node:assert/strict';
import { loadBundledEmbedder } from '../../../src/core/search/embedding/bundledEmbedder';
import { ctx, makeService, pack, stepSkill, tempDir, writeTree } from './helpers';

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
});
