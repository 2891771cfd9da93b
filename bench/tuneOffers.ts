/**
 * Tunes the hook's offer rule (src/core/runtimes/offeredSkills.ts) on the tuning half (odd ids)
 * of the skills-at-scale requests, in process, with the reach bench's library
 * (bench/skillLibrary.ts) in Toolshed's library folder and the door session the hook runs on.
 *
 *   node --require tsx/cjs bench/tuneOffers.ts [size] [odd|even] [--requests] [--bundled]
 *
 * prints one JSON object: the half's reach as the hook decides it (one-skill tasks whose right
 * skill is injected or offered; no-skill requests that get an injection, an offer, either), the
 * same at other offer floors (`curve`: the same pre-flight result, `offeredSkills` with that
 * floor on the request's best candidate; the rule's own, 0.28, is among them), the requests written
 * first and those written blind apart (`written_first`, `written_blind`), and where each one-skill miss was lost — the right skill not among the 30 candidates
 * the gate looked at, ranked 3rd–30th, or ranked 1st/2nd but held back (its gate verdict or the
 * offer rule). `--requests` adds each request's decision and candidates (odd half only: the
 * held-out half's requests are never read to tune; report it only with the rule already chosen).
 * `--bundled` ranks with the bundled word vectors (`toolshed.embeddings.embedder: bundled`).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lengthTokenCounter } from '../src/core/platform/basicPorts';
import { skillPreflight } from '../src/core/planner/turn/skillPreflight';
import { explainSkills } from '../src/core/planner/turn/turnExplanation';
import { openDoorSession } from '../src/core/runtimes/doorSession';
import { offeredSkills } from '../src/core/runtimes/offeredSkills';
import { loadBundledEmbedder } from '../src/core/search/embedding/bundledEmbedder';
import { library, poolSkills, writeLibrary } from './skillLibrary';
import { DATA_DIR, readPool, readRequests } from './skillsAtScaleData';

/** The first id of the requests written blind (bench/data/skills-at-scale/README.md). */
const BLIND_FROM = 235;

/** Offer floors the curve reports (the rule's own is among them). */
const FLOORS = [0.25, 0.28, 0.3, 0.32, 0.34, 0.36, 0.38, 0.4, 0.42, 0.45];

interface Outcome {
  id: number;
  kind: string;
  gold: string[];
  injected: string[];
  offered: string[];
  /** What would be offered at each of FLOORS. */
  offeredAt: string[][];
  /** 1-based rank of the best-ranked right skill among the gate's candidates (0: not among them). */
  goldRank: number;
  goldDecision: string;
  candidates: Array<[string, number, string]>;
}

const share = (n: number, of: number) => Math.round((1000 * n) / Math.max(1, of)) / 1000;

function reach(outcomes: readonly Outcome[], offered: (o: Outcome) => readonly string[]) {
  const one = outcomes.filter((o) => o.kind === 'one');
  const none = outcomes.filter((o) => o.kind === 'none');
  const reached = one.filter((o) => o.gold.some((g) => o.injected.includes(g) || offered(o).includes(g))).length;
  return {
    reached: share(reached, one.length),
    reached_count: reached,
    no_skill_injected: share(none.filter((o) => o.injected.length > 0).length, none.length),
    no_skill_offered: share(none.filter((o) => offered(o).length > 0).length, none.length),
    no_skill_any: share(none.filter((o) => o.injected.length > 0 || offered(o).length > 0).length, none.length),
    no_skill_any_count: none.filter((o) => o.injected.length > 0 || offered(o).length > 0).length,
  };
}

function summary(outcomes: readonly Outcome[]) {
  const one = outcomes.filter((o) => o.kind === 'one');
  const lost: Record<string, number> = {};
  for (const o of one) {
    if (o.gold.some((g) => o.injected.includes(g) || o.offered.includes(g))) continue;
    const verdict = o.goldDecision
      .replace(/ \(.*$/, '')
      .replace(/[\d.]+$/, '')
      .trim();
    const where =
      o.goldRank === 0 ? 'not in the 30 candidates' : o.goldRank <= 2 ? `ranked ${o.goldRank}: ${verdict}` : o.goldRank <= 10 ? 'ranked 3-10' : 'ranked 11-30';
    lost[where] = (lost[where] ?? 0) + 1;
  }
  const ranked = (max: number) => share(one.filter((o) => o.goldRank >= 1 && o.goldRank <= max).length, one.length);
  return {
    one_skill: one.length,
    no_skill: outcomes.length - one.length,
    ...reach(outcomes, (o) => o.offered),
    right_injected: share(one.filter((o) => o.gold.some((g) => o.injected.includes(g))).length, one.length),
    right_first: ranked(1),
    right_top2: ranked(2),
    right_top10: ranked(10),
    misses_lost: lost,
    // Ids from BLIND_FROM on were written blind (a helper that never saw the pool, labelled after).
    written_first: reach(
      outcomes.filter((o) => o.id < BLIND_FROM),
      (o) => o.offered,
    ),
    written_blind: reach(
      outcomes.filter((o) => o.id >= BLIND_FROM),
      (o) => o.offered,
    ),
    curve: FLOORS.map((floor, i) => ({ floor, ...reach(outcomes, (o) => o.offeredAt[i] ?? []) })),
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const size = Number(args[0] ?? '10000');
  const half = args[1] === 'even' ? 0 : 1;
  const withRequests = process.argv.includes('--requests') && half === 1;
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
    if (process.argv.includes('--bundled')) door.skills.useEmbedder(loadBundledEmbedder(path.join(root, 'dist', 'word-vectors.bin')));
    const outcomes: Outcome[] = [];
    const started = Date.now();
    for (const r of loaded.requests.filter((x) => x.id % 2 === half && x.kind !== 'multi')) {
      const answer = await door.preflight(r.request);
      // The same pre-flight again, for the offers at the curve's other floors.
      const port = skillPreflight(door.skills, door.requestContext(), door.config, {
        pinnedNames: [],
        countTokens: async (text) => lengthTokenCounter.count(text),
        signal: { isCancelled: false },
      });
      const result = await port.preflight(r.request);
      const gold = [...new Set(goldOf(r.gold.flat()))];
      const candidates = explainSkills(door.config, result, { pinnedNames: [], workspaceSkills: false }).candidates;
      const goldAt = candidates.findIndex((c) => gold.includes(c.name));
      outcomes.push({
        id: r.id,
        kind: r.kind,
        gold,
        injected: answer.injected.map((i) => i.name),
        offered: [...answer.offered],
        offeredAt: FLOORS.map((floor) => offeredSkills(result, floor)),
        goldRank: goldAt + 1,
        goldDecision: candidates[goldAt]?.decision ?? '',
        candidates: candidates.map((c) => [c.name, Math.round((c.relevance ?? 0) * 1000) / 1000, c.decision]),
      });
    }
    const msPerRequest = Math.round((Date.now() - started) / Math.max(1, outcomes.length) / 2);
    await door.dispose();
    const requests = withRequests ? { requests: outcomes.map(({ offeredAt: _o, ...o }) => o) } : {};
    console.log(JSON.stringify({ size, half: half === 1 ? 'odd (tuning)' : 'even (held out)', msPerRequest, ...summary(outcomes), ...requests }));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

void main();
