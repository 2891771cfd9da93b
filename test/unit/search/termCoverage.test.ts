import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { idfCoverage } from '../../../src/core/search/termCoverage';

const idf = (weights: Record<string, number>) => (term: string) => weights[term] ?? 4;
const matchOf = (found: Record<string, number>) => (term: string) => found[term] ?? 0;

describe("absolute relevance: share of the request's IDF mass a skill covers", () => {
  it('covers every term → 1; none → 0; an empty request → 0', () => {
    assert.equal(idfCoverage({ terms: ['commit', 'messag'], idf: idf({}), match: () => 1 }), 1);
    assert.equal(idfCoverage({ terms: ['weather', 'pari'], idf: idf({}), match: () => 0 }), 0);
    assert.equal(idfCoverage({ terms: [], idf: idf({}), match: () => 1 }), 0);
  });

  it('a rare word the skill lacks outweighs a common word it has', () => {
    // "install numpy": "install" is in many skills (low IDF), "numpy" in none (highest IDF).
    const value = idfCoverage({ terms: ['instal', 'numpi'], idf: idf({ instal: 1, numpi: 4.5 }), match: matchOf({ instal: 1 }) });
    assert.ok(Math.abs(value - 1 / 5.5) < 1e-9, String(value));
  });

  it('a body-only match counts partly; a repeated request word counts once', () => {
    const partly = idfCoverage({ terms: ['a', 'b', 'b'], idf: () => 1, match: matchOf({ a: 1, b: 0.25 }) });
    assert.equal(partly, 1.25 / 2);
  });

  it('garbage weights (NaN, negative, infinite, match above 1) stay within [0, 1]', () => {
    const value = idfCoverage({ terms: ['x', 'y', 'z'], idf: (t) => (t === 'x' ? Number.NaN : t === 'y' ? -3 : Number.POSITIVE_INFINITY), match: () => 7 });
    assert.ok(value >= 0 && value <= 1);
  });

  const terms = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), { minLength: 1, maxLength: 8 });
  const weights = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), fc.double({ min: 0, max: 10, noNaN: true }));
  const matches = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), fc.constantFrom(0, 0.25, 1));

  it('property: always in [0, 1], and a function of the request, the weights and this skill alone', () => {
    fc.assert(
      fc.property(terms, weights, matches, fc.array(matches, { maxLength: 4 }), (q, w, m, others) => {
        const mine = idfCoverage({ terms: q, idf: idf(w), match: matchOf(m) });
        assert.ok(mine >= 0 && mine <= 1);
        // Scoring other candidates before or after this one does not change it.
        for (const other of others) idfCoverage({ terms: q, idf: idf(w), match: matchOf(other) });
        assert.equal(idfCoverage({ terms: q, idf: idf(w), match: matchOf(m) }), mine);
      }),
      { numRuns: 500 },
    );
  });

  it('property: the skill gaining a request word never lowers it; the request gaining a word the skill lacks never raises it', () => {
    fc.assert(
      fc.property(
        terms,
        weights,
        matches,
        fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
        fc.constantFrom('x', 'y', 'z'),
        (q, w, m, gained, unknown) => {
          const before = idfCoverage({ terms: q, idf: idf(w), match: matchOf(m) });
          const richer = idfCoverage({ terms: q, idf: idf(w), match: matchOf({ ...m, [gained]: 1 }) });
          assert.ok(richer >= before - 1e-12, `${richer} < ${before}`);
          const longer = idfCoverage({ terms: [...q, unknown], idf: idf(w), match: matchOf(m) });
          assert.ok(longer <= before + 1e-12, `${longer} > ${before}`);
        },
      ),
      { numRuns: 500 },
    );
  });
});
