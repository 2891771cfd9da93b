import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldStats } from '../../../src/core/search/bm25f';

/**
 * The statistics' documents as a snapshot keeps them (`snapshotOf`) come back as the same
 * collection (`restore`), and words that are not such a snapshot — any damage a checksum let
 * through — are refused with an error, never read out of bounds, never left half restored.
 */

const FIELDS = ['name', 'body'] as const;
type F = (typeof FIELDS)[number];
const TERMS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta'];

const docArb = fc.record({
  name: fc.array(fc.constantFrom(...TERMS), { maxLength: 4 }),
  body: fc.array(fc.constantFrom(...TERMS), { maxLength: 80 }),
});

function collection(docs: Array<{ name: string[]; body: string[] }>): FieldStats<F, number> {
  const stats = new FieldStats<F, number>(FIELDS);
  docs.forEach((doc, i) => stats.set(i, doc));
  return stats;
}

/** What a reader sees: per document its weighted terms, and every term's document frequency. */
function seen(stats: FieldStats<F, number>, keys: number[]): unknown {
  return {
    docs: keys.map((key) => stats.documentTerms(key, { name: 2, body: 1 }, false)),
    df: TERMS.map((term) => stats.df(term)),
    size: stats.size,
  };
}

describe('search: the packed documents as a snapshot keeps them', () => {
  it('restores the same collection', () => {
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 12 }), (docs) => {
        const stats = collection(docs);
        const keys = docs.map((_, i) => i);
        const { terms, offsets, words } = stats.snapshotOf(keys);
        const restored = new FieldStats<F, number>(FIELDS);
        restored.restore(terms, keys, offsets, words.slice());
        assert.deepEqual(seen(restored, keys), seen(stats, keys));
      }),
    );
  });

  it('refuses damaged words with an error, leaving the collection empty, or restores a collection that reads within bounds', () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 0xffffffff })), { minLength: 1, maxLength: 4 }),
        (docs, damage) => {
          const stats = collection(docs);
          const keys = docs.map((_, i) => i);
          const { terms, offsets, words } = stats.snapshotOf(keys);
          const damaged = words.slice();
          for (const [at, value] of damage) damaged[at % damaged.length] = value;
          const restored = new FieldStats<F, number>(FIELDS);
          try {
            restored.restore(terms, keys, offsets, damaged);
          } catch (error) {
            assert.ok(error instanceof Error);
            assert.equal(restored.size, 0);
            return;
          }
          // Accepted: every document reads, and every document frequency stays within the collection.
          seen(restored, keys);
          for (const term of TERMS) assert.ok(restored.df(term) >= 0 && restored.df(term) <= keys.length);
        },
      ),
    );
  });
});
