// @ts-check
// Skill store at scale: 1,000 and 10,000 synthetic SKILL.md skills (50,000 with
// TOOLSHED_BENCH_SKILLS_50K=1), loaded through the built CLI (`dist/cli.js bench skills`, the
// pack loader and store the extension runs) in a child process per row, so memory is that
// process's own. Per size: a cold load into an empty storage folder, then a warm start from what
// that load persisted (same files, nothing changed), lexical and with the bundled word vectors.
// Prints one JSON line last: {"title", "rows"}.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliJson } from './cliRuns.mjs';
import { mulberry32 } from './seededRandom.mjs';

/** The synthetic skills' words, shared with the TypeScript benches (bench/benchMath.ts). */
const {
  areas: AREAS,
  verbs: VERBS,
  objects: OBJECTS,
} = /** @type {{ areas: string[]; verbs: string[]; objects: string[] }} */ (
  JSON.parse(readFileSync(new URL('./data/synthetic-vocabulary.json', import.meta.url), 'utf8'))
);

// TOOLSHED_BENCH_SKILLS_SIZES=10000 (a comma list) runs only those sizes.
const SIZES = process.env.TOOLSHED_BENCH_SKILLS_SIZES
  ? process.env.TOOLSHED_BENCH_SKILLS_SIZES.split(',').map(Number)
  : process.env.TOOLSHED_BENCH_SKILLS_50K === '1'
    ? [1000, 10000, 50000]
    : [1000, 10000];
/** A pack folder holds at most 20,000 skill files (the scanner's cap): larger sets span packs. */
const PER_PACK = 10000;
const QUERIES = 100;

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
 * packs of PER_PACK; returns the pack folders and labelled queries (a request phrased from one
 * skill's purpose).
 * @param {string} root
 * @param {number} count
 * @param {number} seed
 */
function writeSkills(root, count, seed) {
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
    const pack = path.join(root, `pack${Math.floor(i / PER_PACK)}`);
    if (i % PER_PACK === 0) packs.push(pack);
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
    if (queries.length < QUERIES && r() < (QUERIES * 1.5) / count) {
      queries.push({ query: `I have to ${verb} the ${object} for our ${area} setup, mostly ${topic.join(' ')} stuff`, gold: [name] });
    }
  }
  const queriesFile = path.join(root, 'queries.jsonl');
  writeFileSync(queriesFile, `${queries.map((q) => JSON.stringify(q)).join('\n')}\n`);
  return { packs, queriesFile };
}

const rows = [];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-skill-scale-'));
try {
  for (const size of SIZES) {
    const data = path.join(tmp, `skills-${size}`);
    const { packs, queriesFile } = writeSkills(data, size, 32);
    for (const embedder of ['none', 'bundled']) {
      const storeDir = path.join(tmp, `store-${size}-${embedder}`);
      for (const start of ['cold', 'warm']) {
        // One round of the 100 queries after one warm-up round: at 50,000 skills a round of many
        // more would take minutes on a small machine.
        const out = runCliJson(
          ['bench', 'skills', '--packs', ...packs, '--queries', queriesFile, '--store', storeDir, '--embedder', embedder, '--rounds', '1'],
          ['--expose-gc'],
        );
        rows.push({
          case: `${size} skills, ${start} start, ${embedder === 'none' ? 'lexical' : 'bundled vectors'}`,
          skills: out.skills,
          start,
          embedder,
          startup_ms: Math.round(out.open_ms + out.load_ms),
          open_ms: out.open_ms,
          load_ms: out.load_ms,
          startup_cpu_ms: Math.round(out.open_cpu_ms + out.load_cpu_ms),
          p50_ms: out.p50_ms,
          p95_ms: out.p95_ms,
          recall_at_1: out.recall_at_1,
          request_text: out.request_text,
          peak_rss_mb: out.peak_rss_mb,
          heap_mb: out.heap_mb,
          external_mb: out.external_mb,
        });
        process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
      }
    }
    rmSync(data, { recursive: true, force: true });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(JSON.stringify({ title: 'Skill store at scale (SKILL.md packs through dist/cli.js bench skills; cold load, warm start, search, memory)', rows }));
