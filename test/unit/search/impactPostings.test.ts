import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FieldStats } from '../../../src/core/search/bm25f';
import type { WeightedTerm } from '../../../src/core/search/bm25f';
import { ImpactPostings } from '../../../src/core/search/impactPostings';

/**
 * The exact top-k of impact postings must be the top-k of scoring every document with
 * `FieldStats.scorer` (the BM25F reference): no document the reference ranks above the k-th
 * result may be missing, through any sequence of adds, replacements and deletes (the postings
 * are rebuilt lazily after each change), whatever the accept filter.
 */

const FIELDS = ['name', 'body'] as const;
type F = (typeof FIELDS)[number];
const WEIGHTS: Record<F, number> = { name: 4, body: 0.5 };
const B: Record<F, number> = { name: 0.75, body: 0.75 };
const VOCABULARY = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta', 'iota', 'kappa'];

const term = fc.constantFrom(...VOCABULARY);
const doc = fc.record({ name: fc.array(term, { maxLength: 4 }), body: fc.array(term, { maxLength: 30 }) });
const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 1, max: 40 }), doc }),
  fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('search' as const),
    query: fc.uniqueArray(term, { minLength: 1, maxLength: 6 }),
    weights: fc.array(fc.double({ min: 0.1, max: 3, noNaN: true }), { minLength: 6, maxLength: 6 }),
    limit: fc.integer({ min: 1, max: 8 }),
    parity: fc.constantFrom(0, 1, 2),
  }),
);

function before(a: number, b: number): boolean {
  return a < b;
}

describe('ImpactPostings (exact top-k)', () => {
  it('returns the same top-k as scoring every document with FieldStats.scorer, through adds, replacements and deletes', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const stats = new FieldStats<F, number>(FIELDS);
        const postings = new ImpactPostings(stats, WEIGHTS, B);
        for (const step of ops) {
          if (step.kind === 'set') {
            stats.set(step.key, step.doc);
          } else if (step.kind === 'delete') {
            stats.delete(step.key);
          } else {
            const query: WeightedTerm[] = step.query.map((t, i) => ({ term: t, weight: step.weights[i] ?? 1 }));
            // parity 2 accepts every document; 0 and 1 keep even or odd keys (a scope filter).
            const accept = (key: number) => step.parity === 2 || key % 2 === step.parity;
            const got = postings.topK(query, accept, step.limit, before);
            const score = stats.scorer(query, WEIGHTS, B);
            const reference: Array<{ key: number; score: number }> = [];
            for (let key = 1; key <= 40; key++) {
              if (!stats.has(key) || !accept(key)) continue;
              const s = score(key);
              if (s > 0) reference.push({ key, score: s });
            }
            reference.sort((x, y) => y.score - x.score || x.key - y.key);
            const expected = reference.slice(0, step.limit);
            assert.equal(got.length, expected.length, 'as many results as documents with a query term (up to the limit)');
            const tolerance = 1e-5;
            for (let i = 0; i < got.length; i++) {
              assert.ok(Math.abs(got[i].score - expected[i].score) <= tolerance * Math.max(1, expected[i].score), `score at rank ${i + 1}`);
              assert.ok(Math.abs(score(got[i].key) - got[i].score) <= tolerance * Math.max(1, got[i].score), `result ${got[i].key} carries its own score`);
              assert.ok(accept(got[i].key), 'only accepted documents');
            }
            if (got.length > 0) {
              const kth = got[got.length - 1].score;
              const returned = new Set(got.map((h) => h.key));
              for (const r of reference) {
                if (!returned.has(r.key))
                  assert.ok(
                    r.score <= kth + tolerance * Math.max(1, kth),
                    `document ${r.key} (score ${r.score}) ranks above the k-th result (${kth}) but was dropped`,
                  );
              }
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('orders equal scores by the caller’s tie-break and returns nothing for unknown terms', () => {
    const stats = new FieldStats<F, number>(FIELDS);
    const postings = new ImpactPostings(stats, WEIGHTS, B);
    for (const key of [5, 3, 9]) stats.set(key, { name: ['alpha'], body: [] });
    assert.deepEqual(
      postings.topK([{ term: 'alpha', weight: 1 }], () => true, 2, before).map((h) => h.key),
      [3, 5],
    );
    assert.deepEqual(
      postings.topK([{ term: 'missing', weight: 1 }], () => true, 2, before),
      [],
    );
  });
});
