import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { statSync } from 'node:fs';
import { BundledEmbedder, loadBundledEmbedder, locateWordVectors } from '../../../../src/core/search/embedding/bundledEmbedder';
import { cosine } from '../../../../src/core/search/embedding/embedder';
import { VectorTable } from '../../../../src/core/search/embedding/vectorTable';
import { WordVectorsFormatError, decodeWordVectors, encodeWordVectors } from '../../../../src/core/search/embedding/wordVectorsFormat';

describe('bundled word vectors', () => {
  it('round-trips a quantised file: cosines within 0.01 of the float vectors', () => {
    const words = ['currenc', 'exchang', 'weather'];
    const vectors = Float32Array.from([0.9, 0.1, 0.2, 0.85, 0.2, 0.1, -0.1, 0.05, 0.99]);
    const decoded = decodeWordVectors(encodeWordVectors({ dims: 3, words, weights: Float32Array.from([2, 1.5, 1]), vectors }));
    assert.deepEqual(decoded.words, words);
    assert.deepEqual([...decoded.weights], [2, 1.5, 1]);
    const embedder = new BundledEmbedder(decoded);
    const a = embedder.vectorNow('currency')!;
    const b = embedder.vectorNow('exchange')!;
    const floatCos = (0.9 * 0.85 + 0.1 * 0.2 + 0.2 * 0.1) / (Math.hypot(0.9, 0.1, 0.2) * Math.hypot(0.85, 0.2, 0.1));
    assert.ok(Math.abs(cosine(a, b) - floatCos) < 0.01);
    assert.equal(embedder.vectorNow('zzz unknown'), undefined, 'no known word, no vector');
  });

  it('refuses truncated, foreign and inconsistent files with a clear error', () => {
    const good = encodeWordVectors({ dims: 2, words: ['a', 'b'], weights: Float32Array.from([1, 1]), vectors: Float32Array.from([1, 0, 0, 1]) });
    assert.throws(() => decodeWordVectors(good.subarray(0, good.length - 1)), WordVectorsFormatError);
    assert.throws(() => decodeWordVectors(new TextEncoder().encode('PK\u0003\u0004 not vectors at all')), /not a word-vector file/);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          decodeWordVectors(bytes);
        } catch (error) {
          assert.ok(error instanceof WordVectorsFormatError, String(error));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the shipped file loads, within 2 MB, and puts related requests near their tools', () => {
    const file = locateWordVectors();
    assert.ok(file && statSync(file).size <= 2 * 1024 * 1024, `${file}: at most 2 MB`);
    const embedder = loadBundledEmbedder(file);
    assert.ok(embedder, 'word-vectors.bin is in src/core/search/vocabulary');
    const sim = (a: string, b: string) => cosine(embedder.vectorNow(a)!, embedder.vectorNow(b)!);
    assert.ok(
      sim('Euros to Canadian dollars', 'convert an amount between currencies') > sim('Euros to Canadian dollars', 'get the weather forecast for a city'),
    );
    assert.ok(sim('will it rain tomorrow', 'get the weather forecast for a city') > sim('will it rain tomorrow', 'convert an amount between currencies'));
  });

  it('a vector table finds the nearest documents and forgets removed ones', () => {
    const table = new VectorTable(2, 1);
    const unit = (x: number, y: number) => Float32Array.from([x / Math.hypot(x, y), y / Math.hypot(x, y)]);
    table.set('east', unit(1, 0));
    table.set('north', unit(0, 1));
    table.set('north_east', unit(1, 1));
    assert.deepEqual(
      table.nearest(unit(1, 0.2), 2).map((c) => c.name),
      ['east', 'north_east'],
    );
    table.delete('east');
    table.set('west', unit(-1, 0));
    assert.deepEqual(
      table.nearest(unit(1, 0.2), 2).map((c) => c.name),
      ['north_east', 'north'],
    );
    assert.deepEqual(
      table.nearest(unit(1, 0.2), 3, (n) => n !== 'north').map((c) => c.name),
      ['north_east', 'west'],
    );
    assert.equal(table.size, 3);
    assert.throws(() => table.set('bad', Float32Array.from([1, 0, 0])), /3 dimensions/);
  });
});
