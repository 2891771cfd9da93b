// @ts-check
// Checks the skills-at-scale request set, bench/data/skills-at-scale/requests.jsonl, against the
// pool's catalog: every line parses, ids are unique, kind/length/gold agree, every gold id is a
// pool skill, and the counts and lengths meet the set's targets (long requests around a median of
// 1,200–1,600 characters, 500–4,000). Prints counts by kind, length and half (odd ids tune, even
// ids are held out), length statistics and the repositories the gold skills come from.
// Exits 1 on any problem.
//
//   node scripts/check-skills-requests.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dataDir = path.join(root, 'bench', 'data', 'skills-at-scale');

/** Minimum counts per kind/length (the dev set's brief). */
const TARGETS = { 'one/long': 55, 'multi/long': 15, 'none/long': 35, 'none/short': 25, 'one/short': 15 };
const LONG_MIN = 500;
const LONG_MAX = 4000;
const SHORT_MAX = 200;

/** @type {string[]} */
const problems = [];

const catalogIds = new Set(
  readFileSync(path.join(dataDir, 'catalog.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => line.split('\t')[0]),
);

/** @typedef {{ id: number, request: string, gold: string[][], kind: string, length: string }} Request */
/** @type {Request[]} */
const requests = [];
const lines = readFileSync(path.join(dataDir, 'requests.jsonl'), 'utf8').split('\n');
lines.forEach((line, index) => {
  if (!line.trim()) return;
  try {
    requests.push(JSON.parse(line));
  } catch (error) {
    problems.push(`line ${index + 1}: not JSON (${error instanceof Error ? error.message : error})`);
  }
});

const seen = new Set();
for (const r of requests) {
  const where = `id ${r.id}`;
  if (!Number.isInteger(r.id) || r.id < 1) problems.push(`${where}: id must be a positive integer`);
  if (seen.has(r.id)) problems.push(`${where}: duplicate id`);
  seen.add(r.id);
  if (typeof r.request !== 'string' || !r.request.trim()) problems.push(`${where}: empty request`);
  if (!['one', 'multi', 'none'].includes(r.kind)) problems.push(`${where}: kind ${r.kind}`);
  if (!['long', 'short'].includes(r.length)) problems.push(`${where}: length ${r.length}`);
  if (!Array.isArray(r.gold) || !r.gold.every((g) => Array.isArray(g) && g.length > 0)) {
    problems.push(`${where}: gold must be a list of non-empty groups`);
    continue;
  }
  const groups = r.gold.length;
  if (r.kind === 'none' && groups !== 0) problems.push(`${where}: a none request has gold`);
  if (r.kind === 'one' && groups !== 1) problems.push(`${where}: a one request needs exactly 1 group`);
  if (r.kind === 'multi' && (groups < 2 || groups > 3)) problems.push(`${where}: a multi request needs 2–3 groups`);
  const all = r.gold.flat();
  for (const id of all) if (!catalogIds.has(id)) problems.push(`${where}: gold ${id} is not in catalog.tsv`);
  if (new Set(all).size !== all.length) problems.push(`${where}: a pool id appears twice in gold`);
  const chars = r.request.length;
  if (r.length === 'long' && (chars < LONG_MIN || chars > LONG_MAX)) problems.push(`${where}: long request of ${chars} chars`);
  if (r.length === 'short' && chars > SHORT_MAX) problems.push(`${where}: short request of ${chars} chars`);
}

/** @type {Record<string, [number, number]>} */
const counts = {};
for (const r of requests) (counts[`${r.kind}/${r.length}`] ??= [0, 0])[r.id % 2 === 1 ? 0 : 1]++;
console.log('kind/length   tune(odd)  held-out(even)  total');
for (const [key, [odd, even]] of Object.entries(counts).sort()) {
  console.log(`${key.padEnd(13)} ${String(odd).padStart(9)}  ${String(even).padStart(14)}  ${String(odd + even).padStart(5)}`);
  const target = TARGETS[/** @type {keyof typeof TARGETS} */ (key)];
  if (target && odd + even < target) problems.push(`${key}: ${odd + even} requests, target ${target}`);
}

/** @param {number[]} values */
function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
  return `n=${sorted.length} median=${median} min=${sorted[0]} max=${sorted[sorted.length - 1]}`;
}
const longLengths = requests.filter((r) => r.length === 'long').map((r) => r.request.length);
console.log(`long requests (chars): ${stats(longLengths)}`);
for (const kind of ['one', 'multi', 'none']) {
  const values = requests.filter((r) => r.length === 'long' && r.kind === kind).map((r) => r.request.length);
  if (values.length) console.log(`  ${kind}: ${stats(values)}`);
}
const shortLengths = requests.filter((r) => r.length === 'short').map((r) => r.request.length);
if (shortLengths.length) console.log(`short requests (chars): ${stats(shortLengths)}`);

/** @type {Map<string, number>} */
const repos = new Map();
for (const r of requests) {
  const inRequest = new Set(r.gold.flat().map((id) => id.split('/').slice(0, 2).join('/')));
  for (const repo of inRequest) repos.set(repo, (repos.get(repo) ?? 0) + 1);
}
console.log(`gold repositories (requests citing each): ${repos.size}`);
for (const [repo, n] of [...repos].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(3)}  ${repo}`);

if (problems.length) {
  for (const p of problems) console.error(`problem: ${p}`);
  process.exit(1);
}
console.log(`ok: ${requests.length} requests`);
