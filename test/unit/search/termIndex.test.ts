import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { FieldStats, WeightedTerm } from '../../../src/core/search/bm25f';
import { TermIndex } from '../../../src/core/search/termIndex';

/**
 * The term index's exact top-k must be the top-k of scoring every document with
 * `FieldStats.scorer` (the BM25F reference): no document the reference ranks above the k-th
 * result may be missing, through any sequence of adds, replacements and deletes, whichever way
 * its refresh policy serves a search (the postings block, or the documents holding a query term
 * scored one by one while the block waits for its next build).
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

const index = () => new TermIndex<F, number>(FIELDS, WEIGHTS, B);

/** Every document scored with the reference scorer, best first, the top `limit` that pass `accept`. */
function reference(stats: FieldStats<F, number>, query: WeightedTerm[], accept: (key: number) => boolean, limit: number) {
  const score = stats.scorer(query, WEIGHTS, B);
  const all: Array<{ key: number; score: number }> = [];
  for (let key = 1; key <= 40; key++) {
    if (!stats.has(key) || !accept(key)) continue;
    const s = score(key);
    if (s > 0) all.push({ key, score: s });
  }
  all.sort((x, y) => y.score - x.score || x.key - y.key);
  return { all, top: all.slice(0, limit), score };
}

describe('TermIndex (exact top-k, one refresh policy)', () => {
  it('returns the same top-k as scoring every document with FieldStats.scorer, through adds, replacements and deletes', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const terms = index();
        for (const step of ops) {
          if (step.kind === 'set') {
            terms.set(step.key, step.doc);
          } else if (step.kind === 'delete') {
            terms.delete(step.key);
          } else {
            const query: WeightedTerm[] = step.query.map((t, i) => ({ term: t, weight: step.weights[i] ?? 1 }));
            // parity 2 accepts every document; 0 and 1 keep even or odd keys (a scope filter).
            const accept = (key: number) => step.parity === 2 || key % 2 === step.parity;
            const got = terms.topK(query, accept, step.limit, before);
            const { all, top: expected, score } = reference(terms.stats, query, accept, step.limit);
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
              for (const r of all) {
                if (!returned.has(r.key))
                  assert.ok(
                    r.score <= kth + tolerance * Math.max(1, kth),
                    `document ${r.key} (score ${r.score}) ranks above the k-th result (${kth}) but was dropped`,
                  );
              }
            }
            // Every document with a query term scores above 0 (weights and IDFs are positive).
            const holding = terms.documentsHolding(step.query).sort((a, b) => a - b);
            const withTerm = reference(terms.stats, query, () => true, 40).all.map((r) => r.key);
            assert.deepEqual(
              holding,
              withTerm.sort((a, b) => a - b),
              'documentsHolding lists exactly the documents with a query term',
            );
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a search scored one by one after a change gives the very ranking (keys and scores) a rebuilt block gives', () => {
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 5, maxLength: 30 }),
        fc.array(doc, { minLength: 1, maxLength: 3 }),
        fc.uniqueArray(term, { minLength: 1, maxLength: 5 }),
        (docs, changes, words) => {
          const query = words.map((t) => ({ term: t, weight: 1 }));
          const live = index();
          docs.forEach((d, i) => live.set(i + 1, d));
          // The first search scores every document; the second builds the block.
          live.topK(query, () => true, 10, before);
          live.topK(query, () => true, 10, before);
          changes.forEach((d, i) => live.set(i + 1, d));
          const builds = live.builds;
          const got = live.topK(query, () => true, 10, before);
          assert.equal(live.builds, builds, 'served without a build');
          const fresh = index();
          docs.forEach((d, i) => fresh.set(i + 1, changes[i] ?? d));
          assert.deepEqual(
            got,
            fresh.topK(query, () => true, 10, before),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is built once: repeated searches never rebuild, a change is seen at once without a build, and changes between searches cost at most one build per collection’s worth of work', () => {
    const terms = index();
    for (let key = 1; key <= 100; key++) terms.set(key, { name: [VOCABULARY[key % 10]!], body: [VOCABULARY[(key * 3) % 10]!, 'alpha'] });
    const search = (word: string) => terms.topK([{ term: word, weight: 1 }], () => true, 5, before);
    assert.equal(terms.builds, 0, 'nothing is built before the first search');
    assert.deepEqual(
      search('beta').map((h) => h.key),
      [1, 11, 21, 31, 41],
    );
    assert.equal(terms.builds, 0, 'the first search answers without building the block');
    search('gamma');
    assert.equal(terms.builds, 1, 'the next search builds it');
    for (let i = 0; i < 50; i++) search(VOCABULARY[i % 10]!);
    assert.equal(terms.builds, 1, 'repeated searches do not rebuild');
    // A change between every search: each search sees it, none of them rebuilds until the
    // documents scored one by one add up to the collection.
    for (let i = 0; i < 20; i++) {
      terms.set(1000 + i, { name: [`new${i}`], body: [] });
      assert.deepEqual(
        search(`new${i}`).map((h) => h.key),
        [1000 + i],
      );
    }
    assert.equal(terms.builds, 1, 'small changes are scored one by one, not rebuilt per search');
    terms.delete(1000);
    assert.deepEqual(search('new0'), [], 'a deleted document is gone at once');
    for (let i = 0; i < 10; i++) search('alpha');
    assert.equal(terms.builds, 2, 'searches that score the whole collection one by one pay for one build, then use it');
    for (let i = 0; i < 10; i++) search('alpha');
    assert.equal(terms.builds, 2);
  });

  it('answers the first search (nothing built yet) with the very ranking, keys and scores, the built block gives, and builds at the next search', () => {
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 1, maxLength: 40 }),
        fc.uniqueArray(term, { minLength: 1, maxLength: 6 }),
        fc.array(fc.double({ min: 0.1, max: 3, noNaN: true }), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(0, 1, 2),
        (docs, words, weights, limit, parity) => {
          const query = words.map((t, i) => ({ term: t, weight: weights[i] ?? 1 }));
          const accept = (key: number) => parity === 2 || key % 2 === parity;
          const first = index();
          docs.forEach((d, i) => first.set(i + 1, d));
          const got = first.topK(query, accept, limit, before);
          assert.equal(first.builds, 0, 'the first search builds nothing');
          // A block built before the search gives the reference ranking.
          const built = index();
          docs.forEach((d, i) => built.set(i + 1, d));
          built.topK([{ term: 'unused', weight: 1 }], () => true, 1, before);
          built.topK([{ term: 'unused', weight: 1 }], () => true, 1, before);
          assert.equal(built.builds, 1);
          assert.deepEqual(got, built.topK(query, accept, limit, before));
          assert.deepEqual(first.topK(query, accept, limit, before), got, 'the next search builds and answers the same');
          assert.equal(first.builds, 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('orders equal scores by the caller’s tie-break and returns nothing for unknown terms', () => {
    const terms = index();
    for (const key of [5, 3, 9]) terms.set(key, { name: ['alpha'], body: [] });
    assert.deepEqual(
      terms.topK([{ term: 'alpha', weight: 1 }], () => true, 2, before).map((h) => h.key),
      [3, 5],
    );
    terms.set(1, { name: ['alpha'], body: [] });
    assert.deepEqual(
      terms.topK([{ term: 'alpha', weight: 1 }], () => true, 2, before).map((h) => h.key),
      [1, 3],
      'the same tie-break when scored one by one',
    );
    assert.deepEqual(
      terms.topK([{ term: 'missing', weight: 1 }], () => true, 2, before),
      [],
    );
  });
});
