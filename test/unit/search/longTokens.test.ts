import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MAX_COMPOUND_CHARS, expandQuery, splitCompound } from '../../../src/core/search/queryExpansion';
import { splitIdentifier } from '../../../src/core/search/textAnalysis';
import { RANKER_DEFAULTS } from '../../../src/core/tools/index/toolRanker';

/**
 * A request may hold one enormous token: a pasted base64 blob, a minified line, a hash run
 * together. Its analysis must cost about its length. De-compounding tried every split point of a
 * word (two analyses and two look-ups each), and splitting identifiers backtracked over a run of
 * capitals: both grew with the square of the token's length (100,000 letters: seconds in tool
 * pre-activation). The tests count the work, not the time.
 */

/** A vocabulary that counts its look-ups; every short stem is "in the catalog", so every split point is worth trying. */
function countingVocabulary() {
  const counter = { lookups: 0 };
  return {
    counter,
    vocabulary: {
      df: (term: string) => {
        counter.lookups++;
        return term.length <= 12 ? 1 : 0;
      },
      idf: () => 1,
    },
  };
}

function letters(n: number, seed = 7): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz';
  let x = seed;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += alphabet[x % 26];
  }
  return out;
}

/** The regular expressions splitIdentifier used to be: the reference for its boundaries. */
function referenceSplit(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([a-zA-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0);
}

describe('one enormous token in a request', () => {
  it('a word of 100,000 letters is not de-compounded: no split point is tried', () => {
    const { counter, vocabulary } = countingVocabulary();
    assert.equal(splitCompound(letters(100_000), vocabulary), undefined);
    assert.equal(counter.lookups, 0, 'look-ups made for an over-long word');
    // A real compound is still split.
    assert.deepEqual(splitCompound('copyediting', { df: (t) => (t === 'copi' || t === 'edit' ? 1 : 0) }), ['copi', 'edit']);
  });

  it('expanding a request that holds one costs a few look-ups, not one per letter', () => {
    const { counter, vocabulary } = countingVocabulary();
    const expanded = expandQuery(`decode this blob ${letters(100_000)} please`, vocabulary, undefined, RANKER_DEFAULTS.expansion);
    assert.ok(counter.lookups <= 20, `${counter.lookups} vocabulary look-ups`);
    assert.ok(expanded.terms.some((t) => t.term === 'decod'));
  });

  it('a word at the bound is still de-compounded when it is a compound; one letter over it is not', () => {
    const left = 'a'.repeat(MAX_COMPOUND_CHARS / 2);
    const right = 'b'.repeat(MAX_COMPOUND_CHARS / 2);
    const vocabulary = { df: (t: string) => (t === left || t === right ? 1 : 0) };
    assert.deepEqual(splitCompound(left + right, vocabulary), [left, right]);
    assert.equal(splitCompound(`${left}${right}b`, vocabulary), undefined);
  });

  it('splitIdentifier keeps its boundaries for any text (fast-check), in one pass over a run of 100,000 capitals', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: fc.constantFrom(...'aAbBzZHTPS09 _-.é/'.split('')), maxLength: 40 }), fc.string({ maxLength: 40 })), (text) => {
        assert.deepEqual(splitIdentifier(text), referenceSplit(text));
      }),
      { numRuns: 1000 },
    );
    const capitals = letters(100_000).toUpperCase();
    assert.deepEqual(splitIdentifier(`${capitals}Server`), [capitals, 'Server']);
  });
});
