import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FieldStats } from '../../../src/core/search/bm25f';
import { bm25Idf } from '../../../src/core/search/scoring';
import type { WeightedTerm } from '../../../src/core/search/bm25f';

/**
 * The compact BM25F statistics (every document in one shared array) are pinned, bit for bit, to a
 * plain reference that keeps every document's term lists: `score`/`scorer` (the skill index)
 * to the textbook arrangement, `scorePool` (the tool ranker) to the same with each term's
 * saturated weight rounded to 32 bits, as impact postings store it.
 */

const FIELDS = ['a', 'b', 'c', 'd', 'e', 'f'] as const;
type F = (typeof FIELDS)[number];
type Doc = Record<F, readonly string[]>;
const WEIGHTS: Record<F, number> = { a: 4, b: 3, c: 2.5, d: 1.5, e: 2, f: 0.5 };
const DESCRIBING: Record<F, number> = { a: 1, b: 1, c: 0, d: 1, e: 1, f: 0 };
const B: Record<F, number> = { a: 0.75, b: 0.3, c: 0.75, d: 0.5, e: 0.75, f: 1 };

/** The former map-based implementation, reduced to its arithmetic. */
class Reference {
  readonly docs = new Map<string | number, Doc>();
  df(term: string): number {
    let n = 0;
    for (const doc of this.docs.values()) if (FIELDS.some((f) => doc[f].includes(term))) n++;
    return n;
  }
  idf(term: string): number {
    return bm25Idf(Math.max(this.docs.size, 1), this.df(term));
  }
  avg(f: F): number {
    let total = 0;
    for (const doc of this.docs.values()) total += doc[f].length;
    return this.docs.size === 0 ? 0 : total / this.docs.size;
  }
  private tf(doc: Doc, term: string): number[] {
    return FIELDS.map((f) => doc[f].filter((t) => t === term).length);
  }
  /** FieldStats.score (and the skills' scorer): scale = w / (1 − b + b·len / avg). */
  score(key: string | number, query: readonly WeightedTerm[], k1: number, idf?: ReadonlyMap<string, number>): number {
    const doc = this.docs.get(key);
    if (!doc) return 0;
    const scale = FIELDS.map((f) => WEIGHTS[f] / (1 - B[f] + (B[f] * doc[f].length) / (this.avg(f) || 1)));
    let score = 0;
    for (const { term, weight } of query) {
      const counts = this.tf(doc, term);
      let pseudo = 0;
      for (let f = 0; f < FIELDS.length; f++) if (counts[f]) pseudo += scale[f] * counts[f];
      if (pseudo === 0) continue;
      score += weight * (idf?.get(term) ?? this.idf(term)) * (pseudo / (k1 + pseudo));
    }
    return score;
  }
  /**
   * FieldStats.scorePool (the tool ranker) and impact postings: the textbook arrangement, each
   * term's saturated weight rounded to 32 bits as the postings store it.
   */
  pool(key: string | number, query: readonly WeightedTerm[], k1: number, idf?: ReadonlyMap<string, number>): number {
    const doc = this.docs.get(key);
    if (!doc) return 0;
    const scale = FIELDS.map((f) => WEIGHTS[f] / (1 - B[f] + (B[f] * doc[f].length) / (this.avg(f) || 1)));
    let score = 0;
    for (const { term, weight } of query) {
      if (this.df(term) === 0) continue;
      const counts = this.tf(doc, term);
      let pseudo = 0;
      for (let f = 0; f < FIELDS.length; f++) if (counts[f]) pseudo += scale[f] * counts[f];
      if (pseudo !== 0) score += weight * (idf?.get(term) ?? this.idf(term)) * Math.fround(pseudo / (k1 + pseudo));
    }
    return score;
  }
}

function coverage(terms: readonly string[], query: ReadonlySet<string>): number {
  const unique = new Set(terms);
  if (unique.size === 0) return 0;
  return [...unique].filter((t) => query.has(t)).length / unique.size;
}

const word = fc.constantFrom('git', 'commit', 'issue', 'review', 'test', 'api', 'deploy', 'token', 'user', 'find');
const fields = fc.array(fc.array(word, { maxLength: 12 }), { minLength: 6, maxLength: 6 });
/** Fields that are now and then one long run of two words: counts over 63, which the compact form keeps in two words instead of one. */
const fieldsWithRuns = fc.array(
  fc.oneof(
    { arbitrary: fc.array(word, { maxLength: 12 }), weight: 4 },
    { arbitrary: fc.array(fc.constantFrom('git', 'api'), { minLength: 60, maxLength: 150 }), weight: 1 },
  ),
  { minLength: 6, maxLength: 6 },
);
const toDoc = ([a = [], b = [], c = [], d = [], e = [], f = []]: string[][]): Doc => ({ a, b, c, d, e, f });

describe('search: BM25F term statistics (compact)', () => {
  it('df, idf, score, scorer, scorePool and field coverage equal the reference bit for bit, through adds, replacements and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: fc.integer({ min: 1, max: 15 }), fields: fieldsWithRuns, remove: fc.boolean() }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.record({ term: word, weight: fc.constantFrom(1, 0.5, 1.25) }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(1.2, 0.6),
        fc.boolean(),
        fc.boolean(),
        (ops, rawQuery, k1, stringKeys, withIdfMap) => {
          const query = [...new Map(rawQuery.map((q) => [q.term, q])).values()];
          const keyOf = (n: number): string | number => (stringKeys ? `tool${n}` : n);
          const reference = new Reference();
          const stats = new FieldStats<F, string | number>(FIELDS, k1);
          for (const op of ops) {
            const key = keyOf(op.key);
            if (op.remove) {
              reference.docs.delete(key);
              stats.delete(key);
            } else {
              reference.docs.set(key, toDoc(op.fields));
              stats.set(key, toDoc(op.fields));
            }
          }
          assert.equal(stats.size, reference.docs.size);
          for (const f of FIELDS) assert.equal(stats.averageLength(f), reference.avg(f));
          for (const { term } of query) {
            assert.equal(stats.df(term), reference.df(term));
            assert.equal(stats.idf(term), reference.idf(term));
          }
          const idf = withIdfMap ? new Map(query.map((q) => [q.term, stats.idf(q.term) * 1.5])) : undefined;
          const keys = Array.from({ length: 16 }, (_, i) => keyOf(i));
          const score = stats.scorer(query, WEIGHTS, B, idf);
          const pooled = stats.scorePool(keys, query, WEIGHTS, B, idf);
          const querySet = new Set(query.map((q) => q.term));
          keys.forEach((key, i) => {
            const expected = reference.score(key, query, k1, idf);
            assert.equal(score(key), expected, `scorer ${key}`);
            assert.equal(stats.score(key, query, WEIGHTS, B, idf), expected, `score ${key}`);
            assert.equal(pooled[i], reference.pool(key, query, k1, idf), `scorePool ${key}`);
            assert.ok(Math.abs(pooled[i]! - expected) <= 1e-6 * Math.max(1, expected), `scorePool ≈ score ${key}`);
            const doc = reference.docs.get(key);
            for (const f of ['a', 'd'] as const) assert.equal(stats.fieldCoverage(key, f, querySet), doc ? coverage(doc[f], querySet) : 0);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a collection replaced and deleted in many steps (its shared array grown and compacted) answers as one built from its last documents', () => {
    const longFields = fc.array(fc.array(word, { maxLength: 40 }), { minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: fc.integer({ min: 1, max: 4 }), fields: longFields, remove: fc.boolean() }), { minLength: 20, maxLength: 200 }),
        fc.array(fc.record({ term: word, weight: fc.constantFrom(1, 0.5) }), { minLength: 1, maxLength: 5 }),
        (ops, rawQuery) => {
          const query = [...new Map(rawQuery.map((q) => [q.term, q])).values()];
          const churned = new FieldStats<F, number>(FIELDS);
          const last = new Map<number, Doc>();
          for (const op of ops) {
            if (op.remove) {
              churned.delete(op.key);
              last.delete(op.key);
            } else {
              churned.set(op.key, toDoc(op.fields));
              last.set(op.key, toDoc(op.fields));
            }
          }
          const fresh = new FieldStats<F, number>(FIELDS);
          // The same term ids in both (interned in the churned one's order), so counted forms compare.
          for (let id = 0; id < churned.termCount; id++)
            fresh.internTerm(['git', 'commit', 'issue', 'review', 'test', 'api', 'deploy', 'token', 'user', 'find'].find((t) => churned.termId(t) === id)!);
          for (const [key, doc] of last) fresh.set(key, doc);
          assert.equal(churned.size, fresh.size);
          const keys = [0, 1, 2, 3, 4];
          assert.deepEqual(churned.scorePool(keys, query, WEIGHTS, B), fresh.scorePool(keys, query, WEIGHTS, B));
          const ids = (term: string) => churned.termId(term) ?? -1;
          for (const key of keys) {
            assert.equal(churned.score(key, query, WEIGHTS, B), fresh.score(key, query, WEIGHTS, B));
            assert.deepEqual(churned.documentTerms(key, WEIGHTS), fresh.documentTerms(key, WEIGHTS));
            assert.deepEqual(churned.countedIn(key, ids), fresh.countedIn(key, ids));
            assert.equal(churned.distinctTerms(key, DESCRIBING), fresh.distinctTerms(key, DESCRIBING));
            const inQuery = (id: number) => query.some((q) => churned.termId(q.term) === id);
            assert.deepEqual(churned.fieldIdfMass(key, DESCRIBING, 60, inQuery), fresh.fieldIdfMass(key, DESCRIBING, 60, inQuery));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a document given counted (setCounted: runs in any order, an id repeated) is the document set makes of its term lists', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: fc.integer({ min: 1, max: 8 }), fields, remove: fc.boolean(), shuffle: fc.boolean() }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.record({ term: word, weight: fc.constantFrom(1, 0.5) }), { minLength: 1, maxLength: 4 }),
        (ops, rawQuery) => {
          const query = [...new Map(rawQuery.map((q) => [q.term, q])).values()];
          const listed = new FieldStats<F, number>(FIELDS);
          const counted = new FieldStats<F, number>(FIELDS);
          for (const op of ops) {
            if (op.remove) {
              listed.delete(op.key);
              counted.delete(op.key);
              continue;
            }
            const doc = toDoc(op.fields);
            listed.set(op.key, doc);
            // Counted per field: one (id, count) per occurrence when shuffled (out of order, repeated), else per distinct term in id order.
            const ids: number[] = [];
            const counts: number[] = [];
            const fieldEnds = FIELDS.map((f) => {
              const terms = doc[f].map((t) => counted.internTerm(t));
              if (op.shuffle) {
                for (const id of terms.reverse()) {
                  ids.push(id);
                  counts.push(1);
                }
              } else {
                const tally = new Map<number, number>();
                for (const id of terms) tally.set(id, (tally.get(id) ?? 0) + 1);
                for (const id of [...tally.keys()].sort((a, b) => a - b)) {
                  ids.push(id);
                  counts.push(tally.get(id)!);
                }
              }
              return ids.length;
            });
            counted.setCounted(op.key, { ids: Uint32Array.from(ids), counts: Uint32Array.from(counts), fieldEnds: Uint32Array.from(fieldEnds) });
          }
          assert.equal(counted.size, listed.size);
          for (const f of FIELDS) assert.equal(counted.averageLength(f), listed.averageLength(f));
          for (const t of ['git', 'commit', 'issue', 'review', 'test', 'api', 'deploy', 'token', 'user', 'find']) assert.equal(counted.df(t), listed.df(t));
          const expected = listed.scorer(query, WEIGHTS, B);
          const actual = counted.scorer(query, WEIGHTS, B);
          for (let key = 0; key <= 8; key++) {
            assert.equal(actual(key), expected(key), `score ${key}`);
            const sorted = (s: FieldStats<F, number>) => s.documentTerms(key, WEIGHTS).sort((a, b) => (a.term < b.term ? -1 : 1));
            assert.deepEqual(sorted(counted), sorted(listed));
            // How many terms it has in some fields (the relevance measures' describing fields: weights 0 or 1) is how many it lists.
            for (const weights of [WEIGHTS, DESCRIBING, { ...DESCRIBING, b: -1 }])
              assert.equal(counted.distinctTerms(key, weights), counted.documentTerms(key, weights, true).length, `distinct terms of ${key}`);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses counted terms with a term id it never gave out, and keeps the document it had', () => {
    const stats = new FieldStats(['name', 'body'] as const);
    stats.set('a', { name: ['issue'], body: [] });
    assert.throws(() => stats.setCounted('a', { ids: Uint32Array.of(7), counts: Uint32Array.of(1), fieldEnds: Uint32Array.of(1, 1) }), /never interned/);
    assert.throws(() => stats.setCounted('a', { ids: Uint32Array.of(0), counts: Uint32Array.of(1), fieldEnds: Uint32Array.of(1) }), /fields/);
    assert.equal(stats.df('issue'), 1);
  });

  it('BM25F prefers the name field and handles deletes and clear', () => {
    const stats = new FieldStats(['name', 'body'] as const);
    stats.set('a', { name: ['issue'], body: ['other'] });
    stats.set('b', { name: ['other'], body: ['issue'] });
    const q = [{ term: 'issue', weight: 1 }];
    const w = { name: 3, body: 1 };
    const bn = { name: 0.5, body: 0.75 };
    assert.ok(stats.score('a', q, w, bn) > stats.score('b', q, w, bn));
    stats.delete('a');
    assert.equal(stats.df('issue'), 1);
    assert.equal(stats.score('a', q, w, bn), 0);
    stats.clear();
    assert.equal(stats.size, 0);
    assert.equal(stats.df('issue'), 0);
    assert.equal(stats.averageLength('name'), 0);
  });

  it('BM25F pool scoring equals per-document scoring, through updates and deletes', () => {
    const stats = new FieldStats(['name', 'body'] as const);
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const vocab = ['issue', 'create', 'file', 'read', 'write', 'user', 'list', 'get', 'delete', 'repo'];
    const words = (n: number) => Array.from({ length: n }, () => vocab[Math.floor(rand() * vocab.length)]);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 40; i++) stats.set(`d${i}`, { name: words(1 + Math.floor(rand() * 3)), body: words(Math.floor(rand() * 12)) });
      for (let i = 0; i < 40; i += 3 + round) stats.delete(`d${i}`);
      const q = ['issue', 'get', 'missing', 'repo'].map((term, i) => ({ term, weight: 1 + i / 4 }));
      const w = { name: 3, body: 1 };
      const bn = { name: 0.5, body: 0.75 };
      const keys = Array.from({ length: 45 }, (_, i) => `d${i}`);
      const pooled = stats.scorePool(keys, q, w, bn, undefined, 0.9);
      const small = stats.scorePool(keys.slice(0, 3), q, w, bn, undefined, 0.9);
      keys.forEach((key, i) => assert.ok(Math.abs(pooled[i] - stats.score(key, q, w, bn, undefined, 0.9)) < 1e-6, key));
      small.forEach((value, i) => assert.ok(Math.abs(value - pooled[i]) < 1e-9));
    }
  });
});

describe('search: terms sharing a prefix (stem-variant candidates)', () => {
  it('finds terms added after the first lookup, and never one no document holds any more', () => {
    const stats = new FieldStats<'body'>(['body']);
    stats.set('a', { body: ['discov', 'neutron'] });
    assert.deepEqual(stats.termsSharingPrefix('discoveri'), ['discov']);
    stats.set('b', { body: ['discover', 'discount'] });
    assert.deepEqual(
      stats.termsSharingPrefix('discoveri').sort(),
      ['discount', 'discov', 'discover'],
      'same first five letters (stemVariants then keeps real variants)',
    );
    stats.delete('a');
    assert.deepEqual(stats.termsSharingPrefix('discoveri').sort(), ['discount', 'discover']);
    assert.deepEqual(stats.termsSharingPrefix('disc'), [], 'shorter than the shared prefix');
  });
});
