// Retrofitting word vectors to WordNet: each vector is pulled towards the vectors of its
// synonyms (same synset) and of its hypernyms' words, so words a co-occurrence window rarely
// sees together ("rain", "weather"; "salon", "hairdresser") move closer. Each iteration sets
//   v_i = (alpha · original_i + Σ_j v_j / degree_i) / (alpha + 1)
// over the word's WordNet neighbours j (Faruqui et al., "Retrofitting Word Vectors to Semantic
// Lexicons", 2015). Deterministic: neighbours in file order, fixed iterations.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TextAnalyzer } from '../../src/core/search/textAnalysis';

/** WordNet neighbours (synonyms and hypernym words) of each vocabulary word, by word id. */
export function wordnetNeighbours(dict: string, analyzer: TextAnalyzer, ids: ReadonlyMap<string, number>, relations: ReadonlySet<string>): number[][] {
  // Synset words as vocabulary ids: a lemma counts when it analyses to one known term.
  const synsetWords = new Map<string, number[]>();
  const pointers: Array<[string, string[]]> = [];
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(path.join(dict, `data.${pos}`), 'latin1').split('\n')) {
      if (line.length === 0 || line.startsWith(' ')) continue;
      const bar = line.indexOf(' | ');
      const fields = (bar < 0 ? line : line.slice(0, bar)).split(' ');
      const key = `${fields[0]}${fields[2] === 's' ? 'a' : fields[2]}`;
      const count = parseInt(fields[3], 16);
      const words: number[] = [];
      for (let i = 0; i < count; i++) {
        const terms = analyzer.analyze(fields[4 + 2 * i].replace(/\(.*\)$/, '').replace(/_/g, ' '));
        const id = terms.length === 1 ? ids.get(terms[0]) : undefined;
        if (id !== undefined && !words.includes(id)) words.push(id);
      }
      synsetWords.set(key, words);
      const at = 4 + 2 * count;
      const pointerCount = parseInt(fields[at], 10);
      const targets: string[] = [];
      for (let p = 0; p < pointerCount; p++) {
        const [symbol, offset, targetPos] = fields.slice(at + 1 + 4 * p, at + 5 + 4 * p);
        if (relations.has(symbol)) targets.push(`${offset}${targetPos === 's' ? 'a' : targetPos}`);
      }
      pointers.push([key, targets]);
    }
  }
  const neighbours: Array<Set<number>> = Array.from({ length: ids.size }, () => new Set());
  const link = (a: number, b: number) => {
    if (a === b) return;
    neighbours[a].add(b);
    neighbours[b].add(a);
  };
  for (const [key, targets] of pointers) {
    const words = synsetWords.get(key) ?? [];
    for (const a of words) for (const b of words) link(a, b);
    for (const target of targets) for (const a of words) for (const b of synsetWords.get(target) ?? []) link(a, b);
  }
  return neighbours.map((set) => [...set].sort((a, b) => a - b));
}

/** Retrofitted copies of `vectors` (rows × dims, row-major); words without neighbours keep theirs. */
export function retrofit(vectors: Float64Array, dims: number, neighbours: readonly number[][], iterations: number, alpha: number): Float64Array {
  const rows = neighbours.length;
  const original = Float64Array.from(vectors);
  // Unit rows first, so each neighbour counts the same whatever its frequency.
  for (let r = 0; r < rows; r++) {
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += original[r * dims + d] ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dims; d++) original[r * dims + d] /= norm;
  }
  let current = Float64Array.from(original);
  for (let it = 0; it < iterations; it++) {
    const next = Float64Array.from(original);
    for (let r = 0; r < rows; r++) {
      const list = neighbours[r];
      if (list.length === 0) continue;
      for (let d = 0; d < dims; d++) {
        let sum = 0;
        for (const j of list) sum += current[j * dims + d];
        next[r * dims + d] = (alpha * original[r * dims + d] + sum / list.length) / (alpha + 1);
      }
    }
    current = next;
  }
  return current;
}
