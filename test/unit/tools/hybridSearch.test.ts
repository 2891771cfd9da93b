import * as assert from 'node:assert/strict';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { loadBundledEmbedder } from '../../../src/core/search/embedding/bundledEmbedder';
import { defaultSettings } from '../../../src/core/config/settingsSchema';
import { embedderFromSettings } from '../../../src/core/tools/index/embedderChoice';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { makeService } from './helpers';

const bundled = loadBundledEmbedder()!;

const TOOLS: ToolInput[] = [
  {
    name: 'currency_converter',
    description: 'Convert an amount of money from one currency to another at the exchange rate.',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
  },
  { name: 'weather_forecast', description: 'Get the weather forecast for a city.', inputSchema: {} },
  { name: 'job_search', description: 'Search job openings and vacancies by role and location.', inputSchema: {} },
  { name: 'triangle_area', description: 'Compute the area of a triangle.', inputSchema: {} },
  { name: 'dollars', description: 'Format a number of dollars and euros for display in a table.', inputSchema: {} },
];

describe('hybrid tool search (bundled vectors)', () => {
  async function search(service: Awaited<ReturnType<typeof makeService>>['service'], query: string) {
    const result = await service.withRun({}, (run) => run.search({ query, limit: 5 }));
    assert.ok(result.ok);
    return result.output.tools.map((t) => t.name);
  }

  it('finds a tool that shares no word with the request, and only when the embedder is on', async () => {
    const { service } = await makeService({ tools: TOOLS, toolSearch: { alwaysLoadedPatterns: [] } });
    assert.deepEqual(await search(service, 'will it rain tomorrow'), [], 'no word in common: lexical finds nothing');
    service.embeddings.use(bundled);
    assert.equal((await search(service, 'will it rain tomorrow'))[0], 'weather_forecast');
    assert.equal((await search(service, 'recruit staff'))[0], 'job_search');
    service.embeddings.use(undefined);
    assert.deepEqual(await search(service, 'will it rain tomorrow'), []);
  });

  it('keeps tool vectors in step with the index: added, changed and removed tools', async () => {
    const { service } = await makeService({ tools: TOOLS, toolSearch: { alwaysLoadedPatterns: [] } });
    service.embeddings.use(bundled);
    const stage = () => service.embeddings.stage!;
    await service.embeddings.settled();
    assert.equal(stage().table.size, TOOLS.length);
    service.upsertTools([{ name: 'salary_lookup', description: 'Typical salary of an occupation.', inputSchema: {} }]);
    await service.embeddings.settled();
    assert.equal(stage().table.size, TOOLS.length + 1);
    const before = stage().table.similarity('weather_forecast', bundled.vectorNow('rain tomorrow')!)!;
    service.upsertTools([{ name: 'weather_forecast', description: 'Translate a sentence into French.', inputSchema: {} }]);
    await service.embeddings.settled();
    const after = stage().table.similarity('weather_forecast', bundled.vectorNow('rain tomorrow')!)!;
    assert.ok(after < before, `a changed description changes the vector (${before} → ${after})`);
    service.removeTools(['salary_lookup']);
    assert.equal(stage().table.has('salary_lookup'), false);
  });

  it('a cold catalog is searchable at once; its vectors follow in the background', async () => {
    const many: ToolInput[] = Array.from({ length: 600 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Does thing number ${i} with widgets.`,
      inputSchema: {},
    }));
    const { service } = await makeService({ tools: [...many, ...TOOLS], toolSearch: { alwaysLoadedPatterns: [] } });
    service.embeddings.use(bundled);
    assert.deepEqual(await search(service, 'will it rain tomorrow'), [], 'lexical until the vectors are there');
    await service.embeddings.settled();
    assert.equal((await search(service, 'will it rain tomorrow'))[0], 'weather_forecast');
  });

  it('never demotes a tool named exactly as the query', async () => {
    const { service } = await makeService({ tools: TOOLS, toolSearch: { alwaysLoadedPatterns: [] } });
    const lexical = await search(service, 'dollars');
    service.embeddings.use(bundled);
    const fused = await search(service, 'dollars');
    assert.ok(fused.indexOf('dollars') <= lexical.indexOf('dollars') && fused.indexOf('dollars') >= 0);
  });

  it('a denied tool is never found through the embedding either', async () => {
    const { service } = await makeService({ tools: TOOLS, toolSearch: { alwaysLoadedPatterns: [], deny: ['job_*'] } });
    service.embeddings.use(bundled);
    const found = await search(service, 'recruit staff');
    assert.ok(found.length > 0 && !found.includes('job_search'), JSON.stringify(found));
  });

  it('the setting follows the endpoint trust rule', () => {
    const logger = new MemoryLogger();
    const settings = defaultSettings().embeddings;
    assert.equal(settings.embedder, 'off');
    assert.equal(embedderFromSettings(settings, true, logger), undefined);
    assert.equal(embedderFromSettings({ ...settings, embedder: 'bundled' }, false, logger)?.key.startsWith('bundled'), true);
    const remote = { ...settings, embedder: 'endpoint' as const, endpointUrl: 'https://embed.example.com/v1/embeddings', allowRemoteEndpoint: true };
    assert.equal(embedderFromSettings(remote, false, logger), undefined, 'remote refused in Restricted Mode');
    assert.ok(logger.lines.some((e) => /Restricted Mode/.test(e.message)));
    assert.equal(embedderFromSettings({ ...remote, allowRemoteEndpoint: false }, true, logger), undefined, 'remote needs the setting');
    assert.equal(embedderFromSettings(remote, true, logger)?.key, 'endpoint:nomic-embed-text@https://embed.example.com/v1/embeddings');
    assert.ok(embedderFromSettings({ ...settings, embedder: 'endpoint' }, false, logger), 'loopback is fine untrusted');
  });
});

describe('pre-activation with fused relevance (bundled vectors)', () => {
  const request = 'will it rain tomorrow';
  async function withEmbedder(embedder: ReturnType<typeof loadBundledEmbedder>) {
    const { service } = await makeService({ tools: TOOLS, toolSearch: { alwaysLoadedPatterns: [], mode: 'always' } });
    service.embeddings.use(embedder);
    await service.embeddings.settled();
    return service;
  }
  const activated = async (embedder: ReturnType<typeof loadBundledEmbedder>) =>
    (await withEmbedder(embedder)).withRun({}, (run) => run.activateForRequest(request).map((t) => t.name));

  it('activates a tool only the embedding found once its calibrated similarity reaches the gate', async () => {
    assert.deepEqual(await activated(undefined), [], 'lexical: no word in common, relevance 0');
    // The shipped calibration is conservative: this paraphrase stays below the gate.
    assert.deepEqual(await activated(bundled), []);
    const similarity = (await withEmbedder(bundled)).embeddings.stage!.table.similarity('weather_forecast', bundled.vectorNow(request)!)!;
    // A calibration whose floor lies below this similarity lifts the tool over toolSearch.minRelevance (0.2).
    assert.deepEqual(await activated(loadBundledEmbedder(undefined, { floor: similarity - 0.1, ceiling: similarity + 0.1 })), ['weather_forecast']);
  });
});
