import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { passingRelevance } from '../../../src/core/search/relativeCut';

const relevanceOf = (r: number | undefined) => r;

describe('relative cut (pre-flight gates)', () => {
  it('keeps what reaches both the absolute minimum and the share of the best, in order; the best passes whenever it reaches the minimum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }), { maxLength: 12 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (items, minRelevance, ratio) => {
          const kept = passingRelevance(items, relevanceOf, minRelevance, ratio);
          const measured = items.filter((r): r is number => r !== undefined);
          const best = measured.length ? Math.max(...measured) : 0;
          assert.deepEqual(
            kept,
            items.filter((r) => r === undefined || (r >= minRelevance && r >= ratio * best)),
          );
          if (best >= minRelevance && measured.length) assert.ok(kept.includes(best), 'the best candidate is never cut by itself');
          assert.equal(kept.filter((r) => r === undefined).length, items.filter((r) => r === undefined).length, 'an unmeasured hit always passes');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('ratio 0 is the absolute gate alone', () => {
    assert.deepEqual(passingRelevance([0.9, 0.21, 0.1], relevanceOf, 0.2, 0), [0.9, 0.21]);
    assert.deepEqual(passingRelevance([0.9, 0.21, 0.8], relevanceOf, 0.2, 0.7), [0.9, 0.8]);
  });
});
