/**
 * The skills-at-scale dev set (bench/data/skills-at-scale, README.md there): the pool of public
 * SKILL.md files, the requests, and the pool written out as skill packs the way a user keeps
 * them — one pack folder per source repository, `<pack>/<skill name>/SKILL.md` — so the bench
 * loads it through the same pack loading the extension and the CLI use.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'yaml';
import { folderPack } from '../src/core/skills/packs/skillPackSources';
import type { ResolvedSkillPack } from '../src/core/skills/packs/skillPackSources';

export interface PoolEntry {
  /** `owner/repo/path/to/SKILL.md`. */
  id: string;
  repo: string;
  commit: string;
  path: string;
  license: string;
  text: string;
}

export interface ScaleRequest {
  id: number;
  request: string;
  /** Needed skills, each a list of acceptable pool ids (any copy counts); empty for `none`. */
  gold: string[][];
  kind: 'one' | 'multi' | 'none';
  length: 'long' | 'short';
}

export const DATA_DIR = path.join('bench', 'data', 'skills-at-scale');

export function readPool(root: string): PoolEntry[] {
  return gunzipSync(readFileSync(path.join(root, DATA_DIR, 'pool.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as PoolEntry);
}

/** The requests, or why there are none to run (absent, empty, or a line that is not one). */
export function readRequests(file: string): { requests: ScaleRequest[] } | { skip: string } {
  if (!existsSync(file)) return { skip: `${file} does not exist yet` };
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim());
  if (lines.length === 0) return { skip: `${file} is empty` };
  const requests: ScaleRequest[] = [];
  for (const [i, line] of lines.entries()) {
    const r = JSON.parse(line) as ScaleRequest;
    const ok =
      Number.isInteger(r.id) &&
      typeof r.request === 'string' &&
      Array.isArray(r.gold) &&
      r.gold.every((group) => Array.isArray(group) && group.length > 0 && group.every((id) => typeof id === 'string')) &&
      ['one', 'multi', 'none'].includes(r.kind) &&
      ['long', 'short'].includes(r.length);
    if (!ok) throw new Error(`${file}:${i + 1}: not a request of the format in ${DATA_DIR}/README.md`);
    requests.push(r);
  }
  return { requests };
}

/** Name, description and body of a SKILL.md (empty strings where the front matter does not parse). */
export function skillFields(text: string): { name: string; description: string; body: string } {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!fm) return { name: '', description: '', body: text };
  const body = text.slice(fm[0].length);
  try {
    const data = parse(fm[1] ?? '', { logLevel: 'error' }) as unknown;
    if (!data || typeof data !== 'object') return { name: '', description: '', body };
    const { name, description } = data as { name?: unknown; description?: unknown };
    return { name: typeof name === 'string' ? name : '', description: typeof description === 'string' ? description : '', body };
  } catch {
    return { name: '', description: '', body };
  }
}

const SAFE_FOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface Materialised {
  packs: ResolvedSkillPack[];
  /** Absolute SKILL.md path → pool id. */
  idByFile: Map<string, string>;
  /** Entries written under a folder other than their original parent folder (named after the skill). */
  renamedFolders: number;
}

/**
 * Writes `entries` under `dir`: one pack per repository (in pool order, which lists the original
 * authors before the collections that copy them), each skill in a folder named after its
 * declared name when that is a plain folder name (the agentskills.io rule), else after its
 * original folder. A second skill of the same folder name in one repository goes one level down
 * (`_copy2/<name>/SKILL.md`), so Toolshed's own duplicate-name rule decides which one loads.
 */
export function materialisePool(entries: readonly PoolEntry[], dir: string): Materialised {
  const packs: ResolvedSkillPack[] = [];
  const idByFile = new Map<string, string>();
  const usedFolders = new Map<string, Set<string>>();
  let renamedFolders = 0;
  for (const entry of entries) {
    const packName = entry.repo.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
    const packRoot = path.join(dir, packName);
    let used = usedFolders.get(packName);
    if (!used) {
      usedFolders.set(packName, (used = new Set()));
      packs.push(folderPack(packName, packRoot));
    }
    const original = path.posix.basename(path.posix.dirname(entry.path));
    const declared = skillFields(entry.text).name.trim();
    const folder = SAFE_FOLDER.test(declared) ? declared : SAFE_FOLDER.test(original) ? original : 'skill';
    if (folder !== original) renamedFolders++;
    let rel = folder;
    for (let copy = 2; used.has(rel); copy++) rel = path.join(`_copy${copy}`, folder);
    used.add(rel);
    const file = path.join(packRoot, rel, 'SKILL.md');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, entry.text);
    idByFile.set(file, entry.id);
  }
  return { packs, idByFile, renamedFolders };
}
