import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { fusedRelevance, similarityRelevance } from '../../../../src/core/search/embedding/fusedRelevance';

describe('fused relevance (lexical or calibrated similarity)', () => {
  const calibration = { floor: 0.7, ceiling: 0.9 };

  it('maps a cosine linearly between floor and ceiling, clamped to [0, 1]', () => {
    assert.equal(similarityRelevance(0.5, calibration), 0);
    assert.ok(Math.abs(similarityRelevance(0.8, calibration) - 0.5) < 1e-9);
    assert.equal(similarityRelevance(0.95, calibration), 1);
    assert.equal(similarityRelevance(Number.NaN, calibration), 0);
    assert.equal(similarityRelevance(0.8, { floor: 0.9, ceiling: 0.9 }), 0, 'an empty span is no evidence');
  });

  it('never below the lexical relevance, never above 1, and lexical alone without a similarity or calibration', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), (lexical, similarity) => {
        const fused = fusedRelevance(lexical, similarity, calibration);
        assert.ok(fused >= lexical && fused <= 1);
        assert.equal(fusedRelevance(lexical, undefined, calibration), lexical);
        assert.equal(fusedRelevance(lexical, similarity, undefined), lexical);
      }),
    );
  });
});
