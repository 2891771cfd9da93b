import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { TOOL_INDEX_KEY } from '../../../src/core/tools/index/toolIndex';
import { engineWith, makeService, SAMPLE_TOOLS } from './helpers';

/**
 * Damage inside a row of tools.db: SQLite's integrity check passes, but a tool's stored terms
 * changed. The catalog's fingerprint still matches (the record hashes are intact), so without a
 * check the warm start would serve those terms as the catalog's index. Such bytes are not the
 * ones the index last wrote (their digest differs): it indexes every tool again from the catalog.
 */

/** Every word of the catalog's names and descriptions, each a query: a damaged term shows in one of them. */
const QUERIES = [...new Set(SAMPLE_TOOLS.flatMap((t) => `${t.name} ${t.description}`.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length > 2))];

/** The tools each query finds, in order (the catalog synced first, as the host does on start). */
async function answers(store: MemoryByteStore): Promise<string[][]> {
  const { service } = await makeService({ store, tools: SAMPLE_TOOLS });
  const run = await service.startRun();
  const out = QUERIES.map((query) => {
    const result = run.search({ query });
    assert.ok(result.ok);
    return result.output.tools.map((t) => t.name);
  });
  await service.dispose();
  return out;
}

/** A tools.db indexed from SAMPLE_TOOLS and saved with its digest, as a warm start finds it. */
async function savedIndex(): Promise<MemoryByteStore> {
  const store = new MemoryByteStore();
  const { service } = await makeService({ store, tools: SAMPLE_TOOLS });
  await service.flush();
  await service.dispose();
  return store;
}

/** Where each stored tool's term blob lies in the file: [start, end) (each blob found once). */
async function blobRanges(file: Uint8Array): Promise<Array<[number, number]>> {
  const db = new (await engineWith()).sql.Database(file);
  try {
    const blobs = (db.exec('SELECT terms FROM tools')[0]?.values ?? []).map((row) => row[0] as Uint8Array);
    const bytes = Buffer.from(file);
    return blobs
      .map((blob) => [bytes.indexOf(Buffer.from(blob)), blob.length] as const)
      .filter(([at, length]) => at >= 0 && bytes.indexOf(Buffer.from(file.subarray(at, at + length)), at + 1) < 0)
      .map(([at, length]) => [at, at + length]);
  } finally {
    db.close();
  }
}

describe('tool index: damage inside a row (SQLite’s checks pass) is never served', () => {
  let clean: string[][];
  before(async () => {
    clean = await answers(new MemoryByteStore());
    assert.deepEqual(clean[QUERIES.indexOf('merge')], ['mcp_github_merge_pull_request']);
  });

  it('two tools whose stored terms were swapped by something else are found by their own words again', async () => {
    const store = await savedIndex();
    const db = new (await engineWith()).sql.Database(store.entries.get(TOOL_INDEX_KEY));
    db.run(`UPDATE tools SET terms = CASE name
      WHEN 'mcp_github_merge_pull_request' THEN (SELECT terms FROM tools WHERE name = 'weather.get_forecast')
      ELSE (SELECT terms FROM tools WHERE name = 'mcp_github_merge_pull_request') END
      WHERE name IN ('mcp_github_merge_pull_request', 'weather.get_forecast')`);
    assert.equal(db.getRowsModified(), 2);
    await store.write(TOOL_INDEX_KEY, db.export());
    db.close();
    const { service, logger } = await makeService({ store });
    assert.equal(service.indexStatus.status, 'loaded', 'the damage passes the integrity check');
    const report = service.setTools(SAMPLE_TOOLS);
    const run = await service.startRun();
    const found = (query: string) => {
      const out = run.search({ query });
      assert.ok(out.ok);
      return out.output.tools[0]?.name;
    };
    assert.equal(found('merge pull request'), 'mcp_github_merge_pull_request');
    assert.equal(found('weather forecast'), 'weather.get_forecast');
    assert.equal(report.added, SAMPLE_TOOLS.length, 'every tool is indexed again from the catalog');
    assert.ok(logger.lines.some((l) => l.message.includes('every tool is indexed again from the catalog')));
    await service.dispose();
    // Written back with its digest: the next start is warm and indexes nothing.
    const warm = await makeService({ store });
    assert.equal(warm.service.setTools(SAMPLE_TOOLS).skipped, true);
    await warm.service.dispose();
  });

  it('a flipped byte inside any tool’s stored terms never changes what a search finds', async () => {
    const store = await savedIndex();
    const file = store.entries.get(TOOL_INDEX_KEY)!;
    const ranges = await blobRanges(file);
    assert.ok(ranges.length >= SAMPLE_TOOLS.length - 1, 'the term blobs are found in the file');
    await fc.assert(
      fc.asyncProperty(
        fc.nat(ranges.length - 1),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.constantFrom(1, 2, 4, 8, 16, 32, 64, 128),
        async (which, where, mask) => {
          const [start, end] = ranges[which]!;
          const damaged = file.slice();
          damaged[start + Math.floor(where * (end - start))]! ^= mask;
          const copy = new MemoryByteStore();
          await copy.write(TOOL_INDEX_KEY, damaged);
          assert.deepEqual(await answers(copy), clean);
        },
      ),
      { numRuns: 60 },
    );
  });
});
