/**
 * Tunes the hook's offer floor on the tuning half (odd ids) of the skills-at-scale requests,
 * with 10,000 skills in Toolshed's library folder: for each request, what pre-flight injected and
 * what it would offer (with relevance), so a floor can be chosen that keeps offers for no-skill
 * requests rare. Run: node --require tsx/cjs bench/tuneOffers.ts [size] [odd|even]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDoorSession } from '../src/core/runtimes/doorSession';
import { DATA_DIR, readPool, readRequests, skillFields } from './skillsAtScaleData';
import { rng } from './benchMath';

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? '10000');
  const half = process.argv[3] === 'even' ? 0 : 1;
  const root = path.resolve(__dirname, '..');
  const loaded = readRequests(path.join(root, DATA_DIR, 'requests.jsonl'));
  if ('skip' in loaded) throw new Error(loaded.skip);
  const pool = readPool(root);
  const nameOf = new Map<string, string>();
  const skills: Array<{ name: string; text: string }> = [];
  const seen = new Set<string>();
  for (const e of pool) {
    const { name, description } = skillFields(e.text);
    const n = name.trim();
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(n) || !description.trim()) continue;
    nameOf.set(e.id, n);
    if (seen.has(n)) continue;
    seen.add(n);
    skills.push({ name: n, text: e.text });
  }
  const goldNames = new Set(loaded.requests.flatMap((r) => r.gold.flat().flatMap((id) => (nameOf.has(id) ? [nameOf.get(id)!] : []))));
  const gold = skills.filter((s) => goldNames.has(s.name));
  const rest = skills.filter((s) => !goldNames.has(s.name));
  const random = rng(2026);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  const chosen = [...gold, ...rest].slice(0, size);
  for (let i = 0; chosen.length < size; i++)
    chosen.push({ name: `zz-pad-${i}`, text: `---\nname: zz-pad-${i}\ndescription: Catalogue archive ${i}\n---\nx\n` });
  const base = mkdtempSync(path.join(os.tmpdir(), 'tune-offers-'));
  const lib = path.join(base, 'th', 'skills');
  for (const s of chosen) {
    mkdirSync(path.join(lib, s.name), { recursive: true });
    writeFileSync(path.join(lib, s.name, 'SKILL.md'), s.text);
  }
  mkdirSync(path.join(base, 'ws'));
  const door = await openDoorSession({
    runtime: 'claude',
    workspaceFolder: path.join(base, 'ws'),
    home: path.join(base, 'home'),
    env: {},
    toolshedHome: path.join(base, 'th'),
  });
  const out: unknown[] = [];
  for (const r of loaded.requests.filter((x) => x.id % 2 === half && x.kind !== 'multi')) {
    const g = new Set(r.gold.flat().flatMap((id) => (nameOf.has(id) ? [nameOf.get(id)!] : [])));
    const p = await door.preflight(r.request);
    const rel = new Map(p.explanation.candidates.map((c) => [c.name, c.relevance ?? 0]));
    out.push({ id: r.id, kind: r.kind, gold: [...g], injected: p.injected.map((i) => i.name), offered: p.offered.map((n) => [n, rel.get(n) ?? 0]) });
  }
  await door.dispose();
  rmSync(base, { recursive: true, force: true });
  console.log(JSON.stringify(out));
}
void main();
