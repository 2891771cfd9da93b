// @ts-check
// Synthetic SKILL.md skills for the scale benches (bench/skillScale.bench.mjs, bench/hookLatency.bench.mjs):
// bodies of 2–6 KB (headings, prose, a list, a code block) over a Zipf-like vocabulary of
// pseudo-words, and requests phrased from one skill's purpose. Seeded, so every run writes the same files.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32 } from './seededRandom.mjs';

/** The synthetic skills' words, shared with the TypeScript benches (bench/benchMath.ts). */
const {
  areas: AREAS,
  verbs: VERBS,
  objects: OBJECTS,
} = /** @type {{ areas: string[]; verbs: string[]; objects: string[] }} */ (
  JSON.parse(readFileSync(new URL('./data/synthetic-vocabulary.json', import.meta.url), 'utf8'))
);

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'nu',
  'pe',
  'ra',
  'si',
  'to',
  'vu',
  'ze',
  'bri',
  'cor',
  'dan',
  'fel',
  'gor',
  'hin',
  'jum',
  'kel',
  'lix',
  'mor',
  'nap',
  'pol',
  'quen',
  'rus',
  'sar',
  'tev',
  'ulm',
  'vor',
  'wex',
  'yil',
];

/**
 * A vocabulary of pseudo-words, drawn Zipf-like (a few common, a long tail of rare ones) like real prose.
 * @param {number} size
 * @param {() => number} r
 * @returns {string[]}
 */
function vocabulary(size, r) {
  const words = new Set();
  while (words.size < size) {
    const n = 2 + Math.floor(r() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/**
 * @param {string[]} words
 * @param {() => number} r
 * @returns {() => string}
 */
function zipfPicker(words, r) {
  // P(rank k) ∝ 1/k: inverse CDF over the harmonic sums.
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  for (let k = 0; k < words.length; k++) cumulative[k] = sum += 1 / (k + 1);
  return () => {
    const x = r() * sum;
    let low = 0;
    let high = words.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < x) low = mid + 1;
      else high = mid;
    }
    return words[low];
  };
}

/**
 * Writes `count` SKILL.md folders (bodies of 2–6 KB: headings, prose, a list, a code block) into
 * packs of perPack; returns the pack folders and labelled queries (a request phrased from one
 * skill's purpose).
 * @param {string} root
 * @param {number} count
 * @param {number} seed
 */
export function writeSkills(root, count, seed, { perPack = 10000, queryCount = 100 } = {}) {
  const r = mulberry32(seed);
  /** @type {(xs: string[]) => string} */
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const word = zipfPicker(vocabulary(20000, r), r);
  /** @param {number} n */
  const sentence = (n) => {
    const words = Array.from({ length: n }, () => word());
    return `${words.join(' ')}.`;
  };
  const packs = [];
  const queries = [];
  for (let i = 0; i < count; i++) {
    const pack = path.join(root, `pack${Math.floor(i / perPack)}`);
    if (i % perPack === 0) packs.push(pack);
    const area = pick(AREAS);
    const verb = pick(VERBS);
    const object = pick(OBJECTS);
    const topic = [word(), word()];
    const name = `${area}-${verb}-${object}-${i}`;
    const description = `Use when you need to ${verb} a ${object} in ${area} ${topic.join(' ')}; covers ${word()} and ${word()} cases.`;
    const target = 2000 + Math.floor(r() * 4000);
    const parts = [`# ${verb} ${object} (${area})`, '', sentence(20)];
    while (parts.join('\n').length < target) {
      parts.push('', `## ${word()} ${word()}`, '', sentence(12 + Math.floor(r() * 20)), sentence(10 + Math.floor(r() * 15)));
      if (r() < 0.3) parts.push('', `1. ${sentence(6)}`, `2. ${sentence(6)}`, `3. ${sentence(6)}`);
      if (r() < 0.2) parts.push('', '```sh', `${verb}-${object} --${word()} ${word()} --${area}`, '```');
    }
    const folder = path.join(pack, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n${parts.join('\n')}\n`);
    if (queries.length < queryCount && r() < (queryCount * 1.5) / count) {
      queries.push({ query: `I have to ${verb} the ${object} for our ${area} setup, mostly ${topic.join(' ')} stuff`, gold: [name] });
    }
  }
  const queriesFile = path.join(root, 'queries.jsonl');
  writeFileSync(queriesFile, `${queries.map((q) => JSON.stringify(q)).join('\n')}\n`);
  return { packs, queriesFile };
}
