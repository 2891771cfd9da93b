import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { fuseCandidates } from '../../../../src/core/search/embedding/fusion';
import { exactNameMatcher, fusedScores, hybridRank } from '../../../../src/core/search/embedding/semanticStage';
import { VectorTable } from '../../../../src/core/search/embedding/vectorTable';
import { normalize } from '../../../../src/core/search/embedding/embedder';

const unit = (...xs: number[]) => normalize(Float32Array.from(xs));

describe('hybrid fusion', () => {
  it('a candidate close in meaning overtakes a weak lexical one, not a strong one', () => {
    const lexical = [
      { name: 'strong_words', relevance: 9 },
      { name: 'weak_words', relevance: 1.2 },
      { name: 'meaning_match', relevance: 1 },
    ];
    const similarity: Record<string, number> = { strong_words: 0.1, weak_words: 0.1, meaning_match: 0.9 };
    const fused = fuseCandidates(lexical, [], (n) => similarity[n], { semanticWeight: 1 });
    assert.deepEqual(
      fused.map((c) => c.name),
      ['strong_words', 'meaning_match', 'weak_words'],
    );
    assert.equal(fused[1].lexical, 0, 'the last lexical candidate has the lowest lexical evidence');
    assert.equal(fused[1].similarity, 0.9);
  });

  it('weight 0 keeps the lexical order, and a neighbour the lexical stage missed comes after it', () => {
    const fused = fuseCandidates(
      [
        { name: 'b', relevance: 3 },
        { name: 'a', relevance: 2 },
      ],
      [{ name: 'c', similarity: 0.99 }],
      () => 0.1,
      { semanticWeight: 0 },
    );
    assert.deepEqual(
      fused.map((c) => c.name),
      ['b', 'a', 'c'],
    );
  });

  it('a neighbour with no lexical match enters the ranking when the lexical stage is short', () => {
    const table = new VectorTable(2);
    table.set('convert_currency', unit(1, 0));
    table.set('get_weather', unit(0, 1));
    const stage = { table, weight: 1.5, neighbours: 1, queryVector: () => unit(1, 0.1) };
    const ranked = hybridRank([], 'Euros to Canadian dollars', stage, () => true, exactNameMatcher('Euros to Canadian dollars'));
    assert.deepEqual(
      ranked.map((c) => c.name),
      ['convert_currency'],
    );
  });

  it('without a query vector the ranking is the lexical one', () => {
    const table = new VectorTable(2);
    table.set('x', unit(1, 0));
    const ranked = hybridRank(
      [
        { name: 'y', relevance: 2 },
        { name: 'x', relevance: 1 },
      ],
      'q',
      { table, weight: 9, neighbours: 5, queryVector: () => undefined },
      () => true,
      () => false,
    );
    assert.deepEqual(
      ranked.map((c) => c.name),
      ['y', 'x'],
    );
  });

  it('contract scores lie in [0, 1] and never rise down the list', () => {
    const fused = fuseCandidates(
      [
        { name: 'a', relevance: 1 },
        { name: 'b', relevance: 5 },
      ],
      [],
      () => 0,
      { semanticWeight: 1, isExactName: (n) => n === 'a' },
    );
    const scores = fusedScores(fused);
    assert.ok(scores.every((s, i) => s >= 0 && s <= 1 && (i === 0 || s <= scores[i - 1])));
  });

  it('property: an exact name match is never placed below its lexical place', () => {
    const names = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 15 });
    fc.assert(
      fc.property(
        names,
        fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 15, maxLength: 15 }),
        fc.array(fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constant(Number.NaN)), { minLength: 30, maxLength: 30 }),
        fc.nat(),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.boolean(),
        (pool, relevances, sims, pick, weight, caseVariant) => {
          const lexical = pool
            .slice(0, Math.max(1, pool.length - 3))
            .map((name, i) => ({ name, relevance: relevances[i] }))
            .sort((a, b) => b.relevance - a.relevance);
          const neighbours = pool.slice(Math.max(1, pool.length - 3)).map((name, i) => ({ name, similarity: sims[i] }));
          const query = lexical[pick % lexical.length].name;
          const similarity = (name: string) => (Number.isNaN(sims[pool.indexOf(name) + 15]) ? undefined : sims[pool.indexOf(name) + 15]);
          const fused = fuseCandidates(lexical, neighbours, similarity, {
            semanticWeight: weight,
            isExactName: exactNameMatcher(caseVariant ? ` ${query.toUpperCase()} ` : query),
          });
          const before = lexical.findIndex((c) => c.name === query);
          const after = fused.findIndex((c) => c.name === query);
          assert.ok(after <= before, `${query}: lexical place ${before}, fused place ${after}`);
          assert.equal(new Set(fused.map((c) => c.name)).size, fused.length, 'no candidate twice');
          assert.equal(fused.length, new Set([...lexical, ...neighbours].map((c) => c.name)).size, 'every candidate kept');
        },
      ),
      { numRuns: 2000 },
    );
  });
});
