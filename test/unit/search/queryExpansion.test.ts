import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { expandQuery, splitCompound, stemVariants } from '../../../src/core/search/queryExpansion';
import type { ExpansionOptions } from '../../../src/core/search/queryExpansion';
import { RelatedTerms, bundledRelatedTerms } from '../../../src/core/search/relatedTerms';
import { analyze } from '../../../src/core/search/textAnalysis';
import { RANKER_DEFAULTS } from '../../../src/core/tools/index/toolRanker';
import type { RankerOptions } from '../../../src/core/tools/index/toolRanker';
import type { ToolInput } from '../../../src/core/tools/toolRecord';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import { engineWith } from '../tools/helpers';

const OFF: ExpansionOptions = {
  relatedWeight: 0,
  relationKinds: ['s', 'd', 'h'],
  maxRelatedPerTerm: 3,
  compoundPartWeight: 0,
  onlyMissingTerms: true,
  variantWeight: 0,
  variantMaxExtra: 3,
  toolVocabularyWeight: 0,
};

/** A vocabulary over a fixed set of terms (df 1 each, idf 1). */
const vocabularyOf = (terms: string[]) => ({ df: (t: string) => (terms.includes(t) ? 1 : 0), idf: () => 1 });

async function searchWith(
  tools: ToolInput[],
  query: string,
  ranker: Omit<Partial<RankerOptions>, 'expansion'> & { expansion?: Partial<ExpansionOptions> },
  table?: string,
): Promise<string[]> {
  const service = await createToolSearchService({
    engine: await engineWith(),
    store: new MemoryByteStore(),
    config: { toolSearch: { alwaysLoadedPatterns: [] } },
    ranker: { ...RANKER_DEFAULTS, ...ranker, expansion: { ...RANKER_DEFAULTS.expansion, ...ranker.expansion } },
    relatedTerms: table === undefined ? undefined : new RelatedTerms(table),
    saveDelayMs: 60_000,
  });
  service.setTools(tools);
  const names = await service.withRun({}, (run) => {
    const result = run.search({ query, include_always_loaded: true });
    return result.ok ? result.output.tools.map((t) => t.name) : [];
  });
  await service.dispose();
  return names;
}

describe('query expansion: de-compounding', () => {
  it('splits a word the catalog lacks into two words it has', () => {
    assert.deepEqual(splitCompound('copyediting', vocabularyOf(['copi', 'edit'])), ['copi', 'edit']);
    assert.equal(splitCompound('copyediting', vocabularyOf(['copi'])), undefined);
    assert.equal(splitCompound('short', vocabularyOf(['sho', 'rt'])), undefined);
  });

  it('"copyediting" finds performCopyEditing (the default ranker)', async () => {
    const tools: ToolInput[] = [
      { name: 'performCopyEditing', description: 'Improve grammar and style of a text.' },
      { name: 'translate_text', description: 'Translate a text into another language.' },
    ];
    assert.deepEqual((await searchWith(tools, 'copyediting of my essay', {}))[0], 'performCopyEditing');
    assert.deepEqual(await searchWith(tools, 'copyediting', { expansion: { compoundPartWeight: 0 } }), []);
  });
});

describe('query expansion: stem variants', () => {
  it('a stem and its longer or shorter forms are variants; stems that only share a beginning are not', () => {
    assert.deepEqual(stemVariants('discov', ['discov', 'discover', 'discoveri', 'discount', 'discoverable'], 3), ['discover', 'discoveri']);
    assert.deepEqual(stemVariants('discoveri', ['discov', 'discover'], 3), ['discov', 'discover']);
    assert.deepEqual(stemVariants('calc', ['calcul'], 3), [], 'too short to have variants');
    assert.deepEqual(stemVariants('map_x', ['map_xy'], 3), [], 'only plain words');
  });

  it('"Who discovered the neutron?" finds the discoverer tool (Porter leaves discov / discover apart)', async () => {
    const tools: ToolInput[] = [
      { name: 'get_discoverer', description: 'Get the person or team who made a particular scientific discovery.' },
      { name: 'element_info', description: 'Facts about a chemical element or particle, such as the neutron.' },
      { name: 'weather_lookup', description: 'Returns the weather of a city.' },
    ];
    assert.ok(!(await searchWith(tools, 'Who discovered it?', { expansion: { variantWeight: 0 } })).includes('get_discoverer'));
    assert.deepEqual(await searchWith(tools, 'Who discovered it?', {}), ['get_discoverer'], 'on by default');
  });

  it('a variant never outscores the same exact word (weight below 1, IDF capped at the user’s word)', async () => {
    // Same field lengths; the variant is rarer (higher IDF) and its tool wins ties by name.
    const tools: ToolInput[] = [
      { name: 'x_exact', description: 'Returns the discoverer of an element.' },
      { name: 'w_variant', description: 'Returns the discovery of an element.' },
      { name: 'discoverer_history', description: 'Lists discoverer changes over time.' },
      { name: 'discoverer_bands', description: 'Shows discoverer bands of a company.' },
    ];
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0.05, max: 0.99, noNaN: true }), async (weight) => {
        const names = await searchWith(tools, 'discoverer', { expansion: { variantWeight: weight } });
        assert.ok(names.includes('w_variant'), 'the variant-only tool is found');
        assert.ok(names.indexOf('x_exact') < names.indexOf('w_variant'), names.join(', '));
      }),
      { numRuns: 8 },
    );
  });
});

describe('query expansion: related words', () => {
  it('with everything off, the terms are exactly the distinct analysed query words', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (query) => {
        const expanded = expandQuery(query, vocabularyOf([]), new RelatedTerms('a\ts:b'), OFF);
        assert.deepEqual(
          expanded.terms.map((t) => t.term),
          [...new Set(analyze(query))],
        );
        assert.ok(expanded.terms.every((t) => t.weight === 1));
      }),
    );
  });

  it('by default only words the catalog lacks are expanded: a present word ranks as without the bridge', async () => {
    const tools: ToolInput[] = [
      { name: 'salary_report', description: 'Returns the salary of an employee.' },
      { name: 'wage', description: 'Returns the wage of an employee.' },
    ];
    const plain = await searchWith(tools, 'salary', { expansion: { relatedWeight: 0 } });
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0.05, max: 0.99, noNaN: true }), async (weight) => {
        assert.deepEqual(await searchWith(tools, 'salary', { expansion: { relatedWeight: weight } }, 'salari\ts:wage'), plain);
      }),
      { numRuns: 5 },
    );
  });

  it('when present words are expanded too, a related word scores below the same exact match', async () => {
    // Same field lengths; the related word is rarer (higher IDF) and its tool wins ties by name:
    // only the weight below 1 and the IDF cap keep the exact match first.
    const tools: ToolInput[] = [
      { name: 'x_exact', description: 'Returns the salary of an employee.' },
      { name: 'w_other', description: 'Returns the wage of an employee.' },
      { name: 'salary_history', description: 'Lists salary changes over time.' },
      { name: 'salary_bands', description: 'Shows salary bands of a company.' },
    ];
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0.05, max: 0.99, noNaN: true }), fc.constantFrom<'s' | 'd' | 'h'>('s', 'd', 'h'), async (weight, kind) => {
        const names = await searchWith(
          tools,
          'salary',
          { expansion: { relatedWeight: weight, relationKinds: [kind], onlyMissingTerms: false } },
          `salari\t${kind}:wage`,
        );
        assert.ok(names.includes('w_other'), 'the related-only tool is found');
        assert.ok(names.indexOf('x_exact') < names.indexOf('w_other'), names.join(', '));
      }),
      { numRuns: 8 },
    );
  });

  it('bridges a word the catalog lacks ("wage" → a salary tool)', async () => {
    const tools: ToolInput[] = [
      { name: 'payroll_lookup', description: 'Returns the salary of an employee.' },
      { name: 'weather_lookup', description: 'Returns the weather of a city.' },
    ];
    assert.deepEqual(await searchWith(tools, 'wage of Ann', { expansion: { relatedWeight: 0.5 } }, 'wage\ts:salari'), ['payroll_lookup']);
    assert.deepEqual(await searchWith(tools, 'wage of Ann', { expansion: { relatedWeight: 0 } }, 'wage\ts:salari'), []);
  });
});

describe('related-terms table', () => {
  it('looks terms up by kind, skipping comments and malformed lines, sorted or not', () => {
    const table = new RelatedTerms('# license\nzeta\ts:omega\nalpha\ts:beta,gamma\td:alphabet\th:letter\nbroken line\n');
    assert.deepEqual(table.lookup('alpha', ['s']), ['beta', 'gamma']);
    assert.deepEqual(table.lookup('alpha', ['d', 'h']), ['alphabet', 'letter']);
    assert.deepEqual(table.lookup('zeta', ['s']), ['omega']);
    assert.deepEqual(table.lookup('missing', ['s']), []);
    assert.equal(table.size, 2);
  });

  it('the shipped WordNet table is found and relates real words', () => {
    const table = bundledRelatedTerms();
    assert.ok(table.size > 5000, `table has ${table.size} terms`);
    assert.ok(table.lookup(analyze('discover')[0], ['d']).includes(analyze('discovery')[0]));
  });
});
