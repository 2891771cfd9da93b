// @ts-check
// Rebuilds bench/data/skills-at-scale/catalog.tsv from pool.jsonl.gz, so the two never drift:
// one line per pool entry, `id<TAB>name<TAB>description` (the first 200 characters, whitespace
// flattened), sorted by id. Used to pick gold skills for requests.jsonl.
//
//   node scripts/build-skills-catalog.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dataDir = path.join(root, 'bench', 'data', 'skills-at-scale');

/** @param {unknown} value */
function flat(value) {
  return (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value)).replace(/\s+/g, ' ').trim();
}

/**
 * The front matter's name and description; empty strings when it does not parse.
 * @param {string} text
 */
function nameAndDescription(text) {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!fm) return { name: '', description: '' };
  try {
    const data = parse(fm[1], { logLevel: 'error' });
    if (data === null || typeof data !== 'object') return { name: '', description: '' };
    return { name: flat(data.name), description: flat(data.description) };
  } catch {
    return { name: '', description: '' };
  }
}

export function writeSkillsCatalog() {
  const lines = gunzipSync(readFileSync(path.join(dataDir, 'pool.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      /** @type {{ id: string, text: string }} */
      const entry = JSON.parse(l);
      const { name, description } = nameAndDescription(entry.text);
      return `${entry.id}\t${name}\t${[...description].slice(0, 200).join('')}`;
    })
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  writeFileSync(path.join(dataDir, 'catalog.tsv'), `id\tname\tdescription\n${lines.join('\n')}\n`);
  return lines.length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  console.log(`catalog.tsv: ${writeSkillsCatalog()} skills`);
}
