import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { ToolIndex } from '../../../src/core/tools/index/toolIndex';
import { rankTools } from '../../../src/core/tools/index/toolRanker';
import { SAMPLE_TOOLS, makeService } from './helpers';

/** The ranker checks the caller's filter only for tools that would enter the top k. */
describe('tool ranker: the candidate filter', () => {
  it('property: the top k equals ranking everything, filtering, then keeping k', async () => {
    const tools = [
      ...SAMPLE_TOOLS,
      ...Array.from({ length: 40 }, (_, i) => ({ name: `issue_tool_${i}`, description: `Work with an issue or a pull request, variant ${i % 5}.` })),
    ];
    const { service } = await makeService({ tools });
    const index = (service as unknown as { index: ToolIndex }).index;
    const names = tools.map((t) => t.name);
    fc.assert(
      fc.property(
        fc.constantFrom('create an issue', 'merge pull request', 'weather', 'issue variant 3', 'read a file'),
        fc.subarray(names),
        fc.integer({ min: 1, max: 12 }),
        (query, hidden, k) => {
          const hiddenSet = new Set(hidden);
          const allowed = (name: string) => !hiddenSet.has(name);
          const expected = rankTools(index, query, () => true, tools.length)
            .filter((hit) => allowed(hit.name))
            .slice(0, k);
          assert.deepEqual(rankTools(index, query, allowed, k), expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
