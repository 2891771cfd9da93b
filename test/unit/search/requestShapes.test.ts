import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { requestShapes } from '../../../src/core/search/requestShapes';

describe('request shapes: which general-purpose tool a request asks for, whatever its words', () => {
  it('a quantity or an aggregate over records asks for a SQL query', () => {
    for (const request of ['how many accounts were opened in March', 'top 5 products by revenue last quarter', 'average order value per month'])
      assert.ok(requestShapes(request).includes('sql'), request);
  });

  it('a local port, a home path or a command-line program asks for a shell', () => {
    for (const request of [
      'what is listening on port 8080',
      'free up space under ~/Downloads',
      'npm install fails with EACCES',
      'is the dev server up locally',
    ])
      assert.ok(requestShapes(request).includes('shell'), request);
  });

  it('a question with nobody’s things in it asks for a web search; one about mine or a workspace value does not', () => {
    assert.ok(requestShapes('what is the tallest building in Europe?').includes('webSearch'));
    assert.ok(requestShapes('which laptops have the longest battery life').includes('webSearch'));
    for (const request of ['what is on my calendar tomorrow?', 'which of our repos use lodash?', 'what does src/index.ts export?', 'who posted in #deploys?'])
      assert.ok(!requestShapes(request).includes('webSearch'), request);
  });

  it('a page’s address asks for a fetch (and is no question about the world)', () => {
    assert.deepEqual(requestShapes('what does https://example.com/changelog say about v2?'), ['fetch']);
    assert.deepEqual(requestShapes('summarise acme.io/pricing'), ['fetch']);
  });

  it('an ask that names its action has no shape', () => {
    for (const request of ['create an issue titled login fails', 'send a message to Ana', 'delete the staging branch'])
      assert.deepEqual(requestShapes(request), [], request);
  });

  it('property: any text gets at most one of each kind, in a fixed order', () => {
    const order = ['sql', 'shell', 'webSearch', 'fetch'];
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const kinds = requestShapes(text);
        assert.deepEqual(
          kinds,
          [...new Set(kinds)].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('reads a 100,000-character token of any shape (every pattern starts only where a word can)', () => {
    const n = 100_000;
    for (const text of [
      'a-'.repeat(n / 2),
      'a'.repeat(n),
      'a.'.repeat(n / 2),
      'x/'.repeat(n / 2),
      '~/'.repeat(n / 2),
      '#a '.repeat(n / 3),
      'how many '.repeat(n / 9),
    ])
      assert.ok(Array.isArray(requestShapes(text)));
  });
});
