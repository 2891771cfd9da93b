/**
 * Tunes the hook's offer floor (src/core/runtimes/offeredSkills.ts) on the tuning half (odd ids)
 * of the skills-at-scale requests, with the reach bench's library (bench/skillLibrary.ts) in
 * Toolshed's library folder: prints, per request, what pre-flight injected and what it would
 * offer with each offer's relevance, so a floor can be chosen that keeps offers for no-skill
 * requests rare. Run: node --require tsx/cjs bench/tuneOffers.ts [size] [odd|even]
 * (report the even half only with the floor already chosen).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDoorSession } from '../src/core/runtimes/doorSession';
import { library, poolSkills, writeLibrary } from './skillLibrary';
import { DATA_DIR, readPool, readRequests } from './skillsAtScaleData';

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? '10000');
  const half = process.argv[3] === 'even' ? 0 : 1;
  const root = path.resolve(__dirname, '..');
  const loaded = readRequests(path.join(root, DATA_DIR, 'requests.jsonl'));
  if ('skip' in loaded) throw new Error(loaded.skip);
  const { skills, nameOf } = poolSkills(readPool(root));
  const goldOf = (ids: readonly string[]) => ids.flatMap((id) => (nameOf.has(id) ? [nameOf.get(id)!] : []));
  const goldNames = new Set(loaded.requests.flatMap((r) => goldOf(r.gold.flat())));
  const base = mkdtempSync(path.join(os.tmpdir(), 'tune-offers-'));
  try {
    writeLibrary(path.join(base, 'toolshed', 'skills'), library(size, skills, goldNames));
    mkdirSync(path.join(base, 'ws'));
    const door = await openDoorSession({
      runtime: 'claude',
      workspaceFolder: path.join(base, 'ws'),
      home: path.join(base, 'home'),
      env: {},
      toolshedHome: path.join(base, 'toolshed'),
    });
    const out: unknown[] = [];
    for (const r of loaded.requests.filter((x) => x.id % 2 === half && x.kind !== 'multi')) {
      const answer = await door.preflight(r.request);
      const relevance = new Map(answer.explanation.candidates.map((c) => [c.name, c.relevance ?? 0]));
      out.push({
        id: r.id,
        kind: r.kind,
        gold: [...new Set(goldOf(r.gold.flat()))],
        injected: answer.injected.map((i) => i.name),
        offered: answer.offered.map((name) => [name, relevance.get(name) ?? 0]),
      });
    }
    await door.dispose();
    console.log(JSON.stringify(out));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

void main();
