import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { defaultSettings } from '../../../src/core/config/settingsSchema';
import { analyze, splitIdentifier } from '../../../src/core/search/textAnalysis';
import { canonicalJson, sha256Hex } from '../../../src/core/platform/canonicalJson';
import { ToolIndex } from '../../../src/core/tools/index/toolIndex';
import { catalogFingerprint } from '../../../src/core/tools/index/catalogFingerprint';
import { TOOL_FIELDS, toolFieldTerms } from '../../../src/core/tools/index/toolDocument';
import { rankTools } from '../../../src/core/tools/index/toolRanker';
import { CompiledToolConfig, normalizeTool } from '../../../src/core/tools/toolRecord';
import type { ToolInput, ToolRecord } from '../../../src/core/tools/toolRecord';
import { SAMPLE_TOOLS, engineWith } from './helpers';

/**
 * The cold index is searchable before sql.js is written (in-memory stage-1 postings), the
 * deferred write stores the same index, and lazily computed record hashes still detect changes.
 */

const settings = defaultSettings();
const config = new CompiledToolConfig(settings.toolSearch, settings.toolExamples, settings.tools);
const toRecords = (inputs: readonly ToolInput[]): ToolRecord[] => inputs.map((input) => normalizeTool(input, config, {}));

const VERBS = ['create', 'list', 'delete', 'merge', 'search', 'convert', 'forecast', 'upload'];
const NOUNS = ['issue', 'pull request', 'file', 'currency', 'weather', 'invoice', 'terminal', 'branch'];
/** SAMPLE_TOOLS plus generated tools whose words overlap, so postings lists are shared. */
const POOL: ToolInput[] = [
  ...SAMPLE_TOOLS,
  ...Array.from({ length: 60 }, (_, i) => ({
    name: `gen_${VERBS[i % VERBS.length]}_${NOUNS[(i * 3) % NOUNS.length].replace(' ', '_')}_${i}`,
    description: `${VERBS[(i * 5) % VERBS.length]} a ${NOUNS[i % NOUNS.length]} for project ${i % 7}.`,
    inputSchema: {
      type: 'object',
      properties: { [`${NOUNS[(i * 7) % NOUNS.length].replace(' ', '')}Id`]: { type: 'string', description: `The ${NOUNS[i % NOUNS.length]}.` } },
    },
    tags: i % 4 === 0 ? ['bulk'] : [],
  })),
];
const VOCABULARY = [...new Set(toRecords(POOL).flatMap((record) => TOOL_FIELDS.flatMap((field) => toolFieldTerms(record)[field])))];
const QUERIES = [
  'create an issue',
  'merge the pull request',
  'weather forecast for tomorrow',
  'convert currency',
  'upload a file to the branch',
  'run a shell command',
  'delete invoice 4',
];

async function openIndex(store = new MemoryByteStore()): Promise<ToolIndex> {
  return ToolIndex.open({ engine: await engineWith(), store, logger: nullLogger });
}

/** The tools whose analysed fields hold any of `terms`, by scanning every record (what the postings must return). */
function holdingAny(records: readonly ToolRecord[], terms: readonly string[]): string[] {
  const wanted = new Set(terms);
  return records
    .filter((record) => TOOL_FIELDS.some((field) => toolFieldTerms(record)[field].some((term) => wanted.has(term))))
    .map((record) => record.name)
    .sort();
}

const ranked = (index: ToolIndex) => QUERIES.map((query) => rankTools(index, query, () => true, 5));

describe('tool index: in-memory stage 1 and deferred sql.js writes', () => {
  it('property: candidates are exactly the tools holding a query term, through adds, updates and removals, and after a warm start', async () => {
    const store = new MemoryByteStore();
    let index = await openIndex(store);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            keep: fc.subarray(
              POOL.map((_, i) => i),
              { minLength: 1 },
            ),
            revise: fc.nat(POOL.length - 1),
            word: fc.constantFrom(...VOCABULARY),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.array(fc.subarray(VOCABULARY, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        async (steps, termSets) => {
          for (const step of steps) {
            const inputs = step.keep.map((i) => (i === step.revise ? { ...POOL[i], description: `${POOL[i].description ?? ''} ${step.word}` } : POOL[i]));
            const records = toRecords(inputs);
            const report = index.sync(records);
            if (!report.skipped) assert.ok(index.pendingWrites > 0, 'the change waits for the write');
            // In memory first (nothing written yet), then from the stored terms after a warm start.
            for (const terms of termSets) assert.deepEqual([...index.candidateNames(terms)].sort(), holdingAny(records, terms), terms.join(' '));
            await index.save();
            assert.equal(index.pendingWrites, 0);
            index.close();
            index = await openIndex(store);
            for (const terms of termSets) assert.deepEqual([...index.candidateNames(terms)].sort(), holdingAny(records, terms), terms.join(' '));
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a cold index ranks before anything is written; the deferred write stores an index that ranks the same after a warm start', async () => {
    const store = new MemoryByteStore();
    const cold = await openIndex(store);
    const records = toRecords(POOL);
    const report = cold.sync(records);
    assert.equal(report.added, POOL.length);
    assert.equal(cold.pendingWrites, POOL.length, 'rows are queued, not written');
    const coldRanking = ranked(cold);
    assert.ok(
      coldRanking.every((hits) => hits.length > 0),
      'every query finds tools before the write',
    );
    await cold.save();
    assert.equal(cold.pendingWrites, 0);
    assert.equal(cold.db.get<{ n: number }>('SELECT count(*) AS n FROM tools')?.n, POOL.length);
    cold.close();

    const warm = await openIndex(store);
    assert.deepEqual(ranked(warm), coldRanking);
    assert.equal(warm.catalogFingerprint(), catalogFingerprint(records));
    assert.equal(warm.sync(toRecords(POOL)).skipped, true, 'fresh records with equal hashes change nothing');
    warm.close();
  });

  it('lazily computed record hashes still find the one changed tool on a warm start', async () => {
    const store = new MemoryByteStore();
    const first = await openIndex(store);
    first.sync(toRecords(POOL));
    await first.save();
    first.close();

    const changed = POOL.map((tool) => (tool.name === 'weather.get_forecast' ? { ...tool, description: 'Forecast the weather, with pollen counts.' } : tool));
    const second = await openIndex(store);
    const report = second.sync(toRecords(changed));
    assert.deepEqual([report.added, report.updated, report.removed, report.unchanged], [0, 1, 0, POOL.length - 1]);
    assert.ok(second.candidateNames(analyze('pollen')).includes('weather.get_forecast'));
    await second.save();
    second.close();
    const third = await openIndex(store);
    assert.equal(third.sync(toRecords(changed)).skipped, true);
    assert.ok(third.candidateNames(analyze('pollen')).includes('weather.get_forecast'));
  });

  it('the record hash read later is the sha256 of the canonical metadata, and a spread copy keeps it', () => {
    const [record] = toRecords([SAMPLE_TOOLS[0]]);
    const { exampleSource: _source, exampleProblems: _problems, recordHash: _hash, ...metadata } = { ...record };
    assert.equal(record.recordHash, sha256Hex(canonicalJson(metadata)));
    assert.equal({ ...record }.recordHash, record.recordHash);
    const [edited] = toRecords([{ ...SAMPLE_TOOLS[0], description: `${SAMPLE_TOOLS[0].description} Also labels.` }]);
    assert.notEqual(edited.recordHash, record.recordHash);
  });

  it('property: an ASCII parameter name is analysed as its split words were', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'aAbBzZHTTPx09_-. $'.split('')), minLength: 1, maxLength: 24 }), (key) => {
        const terms = toolFieldTerms({ name: 't', tags: [], description: '', inputSchema: { type: 'object', properties: { [key]: { type: 'string' } } } });
        assert.deepEqual(terms.paramNames, analyze(splitIdentifier(key).join(' ')));
      }),
      { numRuns: 2000 },
    );
  });
});
