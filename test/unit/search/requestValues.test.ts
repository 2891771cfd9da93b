import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { valueOnlyTerms } from '../../../src/core/search/requestValues';
import { analyze } from '../../../src/core/search/textAnalysis';

const sorted = (terms: Set<string>) => [...terms].sort();

describe('request values: what the user has, not what they ask for', () => {
  it('the words of an address, a path, a file name and a quote are values; the words around them are not', () => {
    assert.deepEqual(sorted(valueOnlyTerms('pull the pricing tiers from notion.so/pricing and coda.io/pricing')), ['coda', 'io', 'notion']);
    assert.deepEqual(sorted(valueOnlyTerms('read https://example.com/docs/setup please')), sorted(new Set(analyze('https://example.com/docs/setup'))));
    assert.deepEqual(sorted(valueOnlyTerms('make a folder clients/halverson-2024')), sorted(new Set(analyze('clients/halverson-2024'))));
    assert.deepEqual(sorted(valueOnlyTerms('what does CartSummary.tsx:42 do')), sorted(new Set(analyze('CartSummary.tsx:42'))));
    assert.deepEqual(sorted(valueOnlyTerms("move Priyanka to 'Offer sent'")), ['offer', 'sent']);
  });

  it('an apostrophe inside a word is no quote', () => {
    assert.deepEqual(sorted(valueOnlyTerms("what's in the doc? they're taking up gigs")), []);
  });

  it('a pasted error up to its dash, and a SQL statement, are values; the question after them is not', () => {
    const error = valueOnlyTerms("TypeError: Cannot read properties of undefined (reading 'id') -- how many users are hitting this?");
    assert.ok(error.has('undefin') && error.has('properti'), JSON.stringify([...error]));
    assert.ok(!error.has('user') && !error.has('hit'), JSON.stringify([...error]));
    const sql = valueOnlyTerms("SELECT * FROM invoices WHERE status='pending';\nwhy is this slow");
    assert.ok(sql.has('invoic') && sql.has('pend'), JSON.stringify([...sql]));
    assert.ok(!sql.has('slow'));
  });

  it('numbers and ids of digits are values, digits inside a word are not', () => {
    assert.deepEqual(sorted(valueOnlyTerms('close issue #77, it was PR 1193, ip 203.0.113.7')), ['0', '113', '1193', '203', '7', '77']);
    assert.deepEqual(sorted(valueOnlyTerms('upgrade to tanstack query v5')), []);
  });

  it('a word also written outside the value counts as the user’s', () => {
    assert.deepEqual(sorted(valueOnlyTerms('notion pages: what does notion.so/pricing say')), ['price']);
  });

  it('property: values are terms of the request; any text is read', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const all = new Set(analyze(text));
        for (const term of valueOnlyTerms(text)) assert.ok(all.has(term), term);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a 100,000-character token of any shape (every pattern starts only where a value can)', () => {
    const n = 100_000;
    for (const text of [
      'a-'.repeat(n / 2),
      'a.'.repeat(n / 2),
      'x/'.repeat(n / 2),
      'TypeError: ' + ' '.repeat(n),
      '"'.repeat(n),
      'select '.repeat(n / 7),
      '1.'.repeat(n / 2),
    ]) {
      assert.ok(valueOnlyTerms(text) instanceof Set);
    }
  });
});
