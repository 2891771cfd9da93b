/**
 * Skills at scale (bundled and run by bench/skillsAtScale.bench.mjs): thousands of public SKILL.md
 * files (bench/data/skills-at-scale) loaded as skill packs through the same pack loading the
 * extension and CLI use, and long, task-style requests with the skills that serve them.
 *
 * Rows, per half (odd ids tune, even ids held out) and for all:
 * - `skill_search` (SkillService.search, what the LM tool calls; the query cut to the tool's
 *   input limit as a model would have to) beside a plain Okapi BM25 over every pool file
 *   (plainBm25.ts), same run: Hit@1 and Recall@10 (share of needed skills with a copy in the
 *   top 10);
 * - @toolshed pre-flight in `hybrid` mode with an oracle selection model: long one-skill requests
 *   whose right skill is injected or offered, no-skill requests (short, long) that inject
 *   anything, selection requests per turn;
 * - latency (p50/p95 per request) of both, and the pool: how many entries load and why the rest
 *   do not (invalid, or a name another pack claimed first).
 *
 * Options (environment): TOOLSHED_SKILLS_AT_SCALE_REQUESTS (default requests.jsonl there; the bench
 * skips, saying why, when it is absent or empty), TOOLSHED_SKILLS_AT_SCALE_LIMIT=N (a deterministic
 * sample of N pool entries plus every gold one, for a quicker run), TOOLSHED_SKILLS_AT_SCALE_DEBUG=1
 * (on stderr: each request's top 3 of both, gold marked `*`, and needed skills no copy of which loads).
 * Prints one JSON line last: {"title", "rows"}.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { skillRequestText } from '../src/cli/commands/requestText';
import type { SkillService } from '../src/core/skills/skillService';
import { pctOf, round } from './benchMath';
import { benchEngine, benchSkillService } from './benchServices';
import { PlainBm25 } from './plainBm25';
import { DATA_DIR, materialisePool, readPool, readRequests, skillFields } from './skillsAtScaleData';
import type { PoolEntry, ScaleRequest } from './skillsAtScaleData';
import { hybridPreflight } from './skillsAtScalePreflight';

const TITLE = 'Skills at scale — skill_search and pre-flight over thousands of public skills, beside a plain BM25';
const root = process.cwd();
const TOP = 10;

interface Outcome {
  r: ScaleRequest;
  toolshed: Array<string | undefined>;
  bm25: string[];
  toolshedMs: number;
  bm25Ms: number;
  injected: string[];
  offered: string[];
  selectionRequests: number;
  /** Gold pool ids (all groups) for this request. */
  goldIds: Set<string>;
}

function sample(pool: readonly PoolEntry[], requests: readonly ScaleRequest[], limit: number): PoolEntry[] {
  const gold = new Set(requests.flatMap((r) => r.gold.flat()));
  const key = (id: string) => createHash('sha1').update(id).digest('hex');
  const keep = new Set(
    pool
      .map((e) => e.id)
      .sort((a, b) => (key(a) < key(b) ? -1 : 1))
      .slice(0, limit),
  );
  return pool.filter((e) => keep.has(e.id) || gold.has(e.id));
}

/** Which pool ids Toolshed can return (by loaded name), and why the others cannot be. */
function searchableIds(service: SkillService, idByFile: ReadonlyMap<string, string>) {
  const idByName = new Map<string, string>();
  const reasons = new Map<string, string>();
  for (const pack of service.listPacks()) {
    for (const item of pack.skills) {
      const id = idByFile.get(item.file);
      if (id === undefined) continue;
      if (item.status === 'active') idByName.set(item.name, id);
      else if (!reasons.has(id)) reasons.set(id, item.status === 'inactive' ? 'inactive' : reasonOf(item.problems));
    }
  }
  const loaded = new Set(idByName.values());
  for (const id of idByFile.values()) if (!loaded.has(id) && !reasons.has(id)) reasons.set(id, 'not loaded');
  return { idByName, reasons };
}

/** The first error's code, with the field it is about (`wrong-type: metadata`) where it names one. */
function reasonOf(problems: ReadonlyArray<{ severity: string; code: string; message: string }>): string {
  const error = problems.find((p) => p.severity === 'error');
  if (!error) return 'invalid';
  const field = /^`([^`.]+)/.exec(error.message)?.[1];
  return field && ['wrong-type', 'invalid-value', 'too-long'].includes(error.code) ? `${error.code}: ${field}` : error.code;
}

const share = (a: number, b: number) => (b ? round(a / b) : null);

function qualityRow(label: string, outcomes: readonly Outcome[]): Record<string, unknown> {
  const served = outcomes.filter((o) => o.r.gold.length > 0);
  const groups = served.reduce((n, o) => n + o.r.gold.length, 0);
  const hit1 = (ids: ReadonlyArray<string | undefined>, o: Outcome) => (ids[0] !== undefined && o.goldIds.has(ids[0]) ? 1 : 0);
  const found = (ids: ReadonlyArray<string | undefined>, o: Outcome) => o.r.gold.filter((g) => g.some((id) => ids.slice(0, TOP).includes(id))).length;
  const sum = (f: (o: Outcome) => number) => served.reduce((n, o) => n + f(o), 0);
  return {
    case: `skill_search vs plain BM25: ${label}`,
    requests: served.length,
    ...skillRequestText.describe(served.map((o) => o.r.request)),
    needed_skills: groups,
    toolshed_hit_at_1: share(
      sum((o) => hit1(o.toolshed, o)),
      served.length,
    ),
    bm25_hit_at_1: share(
      sum((o) => hit1(o.bm25, o)),
      served.length,
    ),
    toolshed_recall_at_10: share(
      sum((o) => found(o.toolshed, o)),
      groups,
    ),
    bm25_recall_at_10: share(
      sum((o) => found(o.bm25, o)),
      groups,
    ),
    toolshed_fewer_than_10_results: served.filter((o) => o.toolshed.length < TOP).length,
    // A hit that maps to no pool entry would be a bench bug (names map through the loaded files).
    toolshed_unmapped_hits: outcomes.reduce((n, o) => n + o.toolshed.filter((id) => id === undefined).length, 0),
  };
}

function preflightRow(label: string, outcomes: readonly Outcome[], nameOf: (id: string) => string | undefined): Record<string, unknown> {
  const right = (o: Outcome, names: readonly string[]) => names.some((n) => [...o.goldIds].some((id) => nameOf(id) === n));
  const longOne = outcomes.filter((o) => o.r.kind === 'one' && o.r.length === 'long');
  const shortOne = outcomes.filter((o) => o.r.kind === 'one' && o.r.length === 'short');
  const noneShort = outcomes.filter((o) => o.r.kind === 'none' && o.r.length === 'short');
  const noneLong = outcomes.filter((o) => o.r.kind === 'none' && o.r.length === 'long');
  return {
    case: `pre-flight, hybrid (oracle model): ${label}`,
    long_one_skill: longOne.length,
    long_one_skill_right_injected_or_offered: share(longOne.filter((o) => right(o, o.injected) || right(o, o.offered)).length, longOne.length),
    long_one_skill_right_injected: share(longOne.filter((o) => right(o, o.injected)).length, longOne.length),
    short_one_skill: shortOne.length,
    short_one_skill_right_injected_or_offered: share(shortOne.filter((o) => right(o, o.injected) || right(o, o.offered)).length, shortOne.length),
    no_skill_short: noneShort.length,
    no_skill_short_injected_any: share(noneShort.filter((o) => o.injected.length > 0).length, noneShort.length),
    no_skill_long: noneLong.length,
    no_skill_long_injected_any: share(noneLong.filter((o) => o.injected.length > 0).length, noneLong.length),
    selection_requests_per_turn: share(
      outcomes.reduce((n, o) => n + o.selectionRequests, 0),
      outcomes.length,
    ),
    injected_skills_per_turn: share(
      outcomes.reduce((n, o) => n + o.injected.length, 0),
      outcomes.length,
    ),
    target: 'held-out: right injected or offered ≥ 0.60 of long one-skill; ≤ 0.10 of no-skill (short and long) inject anything',
  };
}

async function main(): Promise<void> {
  const requestsFile = process.env.TOOLSHED_SKILLS_AT_SCALE_REQUESTS ?? path.join(root, DATA_DIR, 'requests.jsonl');
  const read = readRequests(requestsFile);
  if ('skip' in read) {
    console.error(`skills at scale: skipped: ${read.skip}`);
    console.log(JSON.stringify({ title: TITLE, rows: [{ case: 'skipped', reason: read.skip }] }));
    return;
  }
  const { requests } = read;
  const limit = Number(process.env.TOOLSHED_SKILLS_AT_SCALE_LIMIT ?? '');
  const fullPool = readPool(root);
  const pool = limit > 0 ? sample(fullPool, requests, limit) : fullPool;
  const poolIds = new Set(pool.map((e) => e.id));
  const unknownGold = [...new Set(requests.flatMap((r) => r.gold.flat()).filter((id) => !poolIds.has(id)))];
  if (unknownGold.length) console.error(`skills at scale: ${unknownGold.length} gold id(s) are not in the pool, e.g. ${unknownGold.slice(0, 3).join(', ')}`);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-skills-at-scale-'));
  const rows: Array<Record<string, unknown>> = [];
  try {
    const materialised = materialisePool(pool, dir);
    const service = await benchSkillService(await benchEngine());
    const loadStart = performance.now();
    await service.loadPacks(materialised.packs);
    const loadMs = performance.now() - loadStart;
    const { idByName, reasons } = searchableIds(service, materialised.idByFile);
    const nameById = new Map([...idByName].map(([name, id]) => [id, name]));

    const bm25Start = performance.now();
    const bm25 = new PlainBm25(
      pool.map((e) => {
        const f = skillFields(e.text);
        return `${f.name}\n${f.description}\n${f.body}`;
      }),
    );
    const bm25IndexMs = performance.now() - bm25Start;

    const ctx = { includeWorkspacePacks: true };
    // One warm-up search (JIT, statement cache) so the first request does not time compilation.
    await service.search({ query: skillRequestText.text(requests[0]?.request ?? 'warm up'), limit: TOP }, ctx);
    const outcomes: Outcome[] = [];
    for (const r of requests) {
      const goldIds = new Set(r.gold.flat());
      let start = performance.now();
      const found = await service.search({ query: skillRequestText.text(r.request), limit: TOP }, ctx);
      const toolshedMs = performance.now() - start;
      start = performance.now();
      const best = bm25.top(r.request, TOP).map((i) => pool[i]?.id as string);
      const bm25Ms = performance.now() - start;
      const rightNames = new Set([...goldIds].map((id) => nameById.get(id)).filter((n): n is string => n !== undefined));
      const turn = await hybridPreflight(service, r.request, rightNames);
      if (process.env.TOOLSHED_SKILLS_AT_SCALE_DEBUG) {
        const show = (ids: ReadonlyArray<string | undefined>) => ids.slice(0, 3).map((id) => (id && goldIds.has(id) ? `*${id}` : id));
        console.error(
          `#${r.id} skill_search ${JSON.stringify(show(found.skills.map((s) => idByName.get(s.name))))} bm25 ${JSON.stringify(show(best))} injected ${JSON.stringify(turn.injected)} offered ${turn.offered.length}`,
        );
      }
      outcomes.push({ r, goldIds, toolshed: found.skills.map((s) => idByName.get(s.name)), bm25: best, toolshedMs, bm25Ms, ...turn });
    }
    await service.dispose();

    const halves: Array<[string, Outcome[]]> = [
      ['held-out half (even ids)', outcomes.filter((o) => o.r.id % 2 === 0)],
      ['tuning half (odd ids)', outcomes.filter((o) => o.r.id % 2 !== 0)],
      ['all', outcomes],
    ];
    for (const [label, subset] of halves) rows.push(qualityRow(label, subset));
    for (const [label, subset] of halves) rows.push(preflightRow(label, subset, (id) => nameById.get(id)));

    const byReason: Record<string, number> = {};
    for (const reason of reasons.values()) byReason[reason] = (byReason[reason] ?? 0) + 1;
    const goldGroups = requests.flatMap((r) => r.gold);
    if (process.env.TOOLSHED_SKILLS_AT_SCALE_DEBUG)
      for (const g of goldGroups.filter((group) => !group.some((id) => nameById.has(id))))
        console.error(`needed skill with no searchable copy: ${g.map((id) => `${id} (${reasons.get(id) ?? 'not in pool'})`).join(', ')}`);
    rows.push({
      case: 'pool: what loads',
      pool_entries: pool.length,
      packs: materialised.packs.length,
      searchable: idByName.size,
      not_searchable: reasons.size,
      not_searchable_by_reason: byReason,
      folder_renamed_to_skill_name: materialised.renamedFolders,
      needed_skills_with_no_searchable_copy: goldGroups.filter((g) => !g.some((id) => nameById.has(id))).length,
      gold_ids_not_in_pool: unknownGold.length,
      load_ms: round(loadMs, 0),
      bm25_index_ms: round(bm25IndexMs, 0),
    });
    const times = (f: (o: Outcome) => number) => outcomes.map(f);
    rows.push({
      case: 'latency per request',
      requests: outcomes.length,
      pool_entries: pool.length,
      skill_search_p50_ms: round(
        pctOf(
          times((o) => o.toolshedMs),
          0.5,
        ),
        2,
      ),
      skill_search_p95_ms: round(
        pctOf(
          times((o) => o.toolshedMs),
          0.95,
        ),
        2,
      ),
      bm25_p50_ms: round(
        pctOf(
          times((o) => o.bm25Ms),
          0.5,
        ),
        2,
      ),
      bm25_p95_ms: round(
        pctOf(
          times((o) => o.bm25Ms),
          0.95,
        ),
        2,
      ),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ title: TITLE, rows }));
}

void main();
