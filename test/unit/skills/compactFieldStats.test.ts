import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldStats } from '../../../src/core/search/bm25f';
import { CompactFieldStats } from '../../../src/core/skills/compactFieldStats';

/** The skills' compact BM25F statistics must score exactly like search/bm25f.ts's FieldStats. */

const FIELDS = ['a', 'b', 'c', 'd', 'e', 'f'] as const;
type F = (typeof FIELDS)[number];
const WEIGHTS = [4, 3, 2.5, 1.5, 2, 0.5];
const B = [0.75, 0.3, 0.75, 0.5, 0.75, 1];

const word = fc.constantFrom('git', 'commit', 'issue', 'review', 'test', 'api', 'deploy', 'token', 'user', 'find');
const doc = fc.array(fc.array(word, { maxLength: 12 }), { minLength: 6, maxLength: 6 });

describe('skills: compact BM25F statistics', () => {
  it('scores, df and idf equal FieldStats after adds, replacements and deletes', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ key: fc.integer({ min: 1, max: 15 }), fields: doc, remove: fc.boolean() }), { minLength: 1, maxLength: 40 }),
      fc.array(word, { minLength: 1, maxLength: 5 }),
      (ops, query) => {
        const reference = new FieldStats<F>(FIELDS);
        const compact = new CompactFieldStats(FIELDS.length);
        for (const op of ops) {
          if (op.remove) {
            reference.delete(String(op.key));
            compact.delete(op.key);
          } else {
            reference.set(String(op.key), Object.fromEntries(FIELDS.map((f, i) => [f, op.fields[i]!])) as Record<F, string[]>);
            compact.set(op.key, op.fields);
          }
        }
        assert.equal(compact.size, reference.size);
        const unique = [...new Set(query)];
        for (const term of unique) {
          assert.equal(compact.df(term), reference.df(term));
          assert.equal(compact.idf(term), reference.idf(term));
        }
        const weights = Object.fromEntries(FIELDS.map((f, i) => [f, WEIGHTS[i]!])) as Record<F, number>;
        const b = Object.fromEntries(FIELDS.map((f, i) => [f, B[i]!])) as Record<F, number>;
        const score = compact.scorer(unique, WEIGHTS, B);
        for (let key = 1; key <= 15; key++) {
          const expected = reference.score(String(key), unique.map((term) => ({ term, weight: 1 })), weights, b);
          assert.ok(Math.abs(score(key) - expected) <= 1e-12 * Math.max(1, expected), `key ${key}: ${score(key)} vs ${expected}`);
        }
      },
    ), { numRuns: 200 });
  });
});
