/**
 * Merge-with-lineage and snapshot benchmarks (bundled and run by bench/lineage.bench.mjs):
 * - merge check of a new skill against 10,000 learned skills: p50/p95 of the index lookup
 *   (prefix-filtered weighted Jaccard) and of the whole check as approval runs it
 *   (LearningService.mergeTarget: read the learned skills, sync the index, look up);
 * - export of 10,000 learned skills (with counters and lineage) and import of that snapshot into
 *   an empty store (parse, plan, one batched write, both stores saved), both on disk in a temp
 *   folder as the extension and `toolshed import` keep them;
 * - one write to the shared (tenant/global) store every window shares, holding 1,000 skills:
 *   lock file + reload + change + atomic save, and the same with a no-op lock (the lock's cost).
 * Prints one JSON line last: {"title", "rows"}.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { learningConfigSchema } from '../src/core/config/settingsSchema';
import { sourceHash } from '../src/core/learning/extraction/learnedCandidate';
import { LearningService } from '../src/core/learning/learningService';
import { LearningStore } from '../src/core/learning/learningStore';
import { mergeRecords, sourcesOf } from '../src/core/learning/merge/lineage';
import { MergeIndex } from '../src/core/learning/merge/mergeIndex';
import { nullEventSink, nullLogger } from '../src/core/platform/basicPorts';
import { NodeByteStore } from '../src/core/platform/nodeByteStore';
import { NodeFileLock } from '../src/core/platform/nodeFileLock';
import type { FileLock } from '../src/core/platform/ports';
import type { SkillRecord } from '../src/core/skills/skillSchema';
import { SHARED_SKILLS_LOCK, SharedSkillStore } from '../src/core/skills/store/learned/sharedSkillStore';
import { skillId } from '../src/core/skills/store/skillRecords';
import { makeScope } from '../src/core/skills/store/skillScope';
import type { SqlEngine } from '../src/core/sql/sqlEngine';
import { AREAS, OBJECTS, VERBS, pct, rng, round } from './benchMath';
import { BENCH_PROJECT, benchEngine, benchLearnedRecord, benchSkillService } from './benchServices';

const PROJECT = BENCH_PROJECT;
const N = 10_000;
const clock = { now: () => 1_700_000_000_000 };

const SINKS = ['slack', 'email', 'notion', 'jira', 'github'];

function skillText(r: () => number, i: number): { trigger: string; steps: string[] } {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const [area, verb, object, sink] = [pick(AREAS), pick(VERBS), pick(OBJECTS), pick(SINKS)];
  return {
    trigger: `${verb} the ${object} in ${area} and post a summary to ${sink} (batch ${i % 211})`,
    steps: [
      `Call \`${area}_find_${object}\` with \`query\`.`,
      `Call \`${area}_${verb}_${object}\` with \`id\`.`,
      `Call \`${sink}_post_message\` with the summary.`,
    ],
  };
}

function learnedRecord(i: number, r: () => number): SkillRecord {
  const { trigger, steps } = skillText(r, i);
  return benchLearnedRecord(i, { trigger, steps, extra: { learned_kind: 'positive', source_hash: sourceHash(trigger, steps, 'api') } }, clock.now());
}

const TEMP = mkdtempSync(path.join(os.tmpdir(), 'toolshed-lineage-bench-'));

async function stores(engine: SqlEngine) {
  const bytes = new NodeByteStore(mkdtempSync(path.join(TEMP, 'workspace-')));
  const skills = await benchSkillService(engine, { store: bytes, clock, autoSaveDelayMs: 0 });
  const store = await LearningStore.open({ engine, store: bytes, logger: nullLogger, clock });
  const learning = new LearningService({
    store,
    skills,
    config: () => learningConfigSchema.parse({ mode: 'propose' }),
    trusted: () => true,
    personal: () => ({ workspaceRoots: [], homeDir: '/home/dev', userName: 'dev' }),
    scope: () => ({ projectId: PROJECT }),
    clock,
    events: nullEventSink,
    logger: nullLogger,
    fileExists: () => true,
    knownTool: () => true,
    frameFacts: () => undefined,
  });
  return { skills, store, learning };
}

async function main(): Promise<void> {
  const engine = await benchEngine();
  const rows: Array<Record<string, unknown>> = [];
  const r = rng(11);
  // Every 20th skill carries a merge (lineage), as a store that has merged for a while would.
  const records = Array.from({ length: N }, (_, i) => {
    const record = learnedRecord(i, r);
    return i % 20 === 0 ? mergeRecords(record, sourcesOf(learnedRecord(N + i, rng(i)), { helpful: 1, harmful: 0, use_count: 2 })) : record;
  });
  const queries = Array.from({ length: 300 }, (_, i) => {
    const text = skillText(rng(5000 + i), i);
    return { ...text, source_hash: sourceHash(text.trigger, text.steps, 'api') };
  });

  // 1. Merge check: index lookup alone, then as approval runs it over a real store.
  const index = new MergeIndex();
  index.sync(records);
  const lookup = (q: (typeof queries)[number]) => index.best(q, 0.9, (rec) => rec.scope_project_id === PROJECT);
  queries.forEach(lookup);
  const times: number[] = [];
  let matches = 0;
  for (let round_ = 0; round_ < 3; round_++) {
    for (const q of queries) {
      const start = performance.now();
      if (lookup(q)) matches++;
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  rows.push({
    case: `merge check vs ${N.toLocaleString('en-US')} learned skills: index lookup (prefix-filtered weighted Jaccard)`,
    p50_ms: round(pct(times, 0.5)),
    p95_ms: round(pct(times, 0.95)),
    target: 'p95 ≤ 10 ms',
    ok: pct(times, 0.95) <= 10,
    matched_share: round(matches / times.length, 2),
  });

  const source = await stores(engine);
  const loadStart = performance.now();
  await source.skills.restoreLearnedSkills(records);
  for (const record of records.slice(0, 2000))
    source.store.addCounters(record.name, { helpful: 3, harmful: 1, use_count: 5, last_used: clock.now(), last_validated: clock.now() });
  const loadMs = performance.now() - loadStart;
  source.learning.mergeTarget(queries[0]!);
  const full: number[] = [];
  for (const q of queries.slice(0, 60)) {
    const start = performance.now();
    source.learning.mergeTarget(q);
    full.push(performance.now() - start);
  }
  full.sort((a, b) => a - b);
  rows.push({
    case: `merge check vs ${N.toLocaleString('en-US')} learned skills, as approval runs it (read the store's learned skills + sync index + lookup)`,
    p50_ms: round(pct(full, 0.5)),
    p95_ms: round(pct(full, 0.95)),
    target: 'p95 ≤ 10 ms',
    ok: pct(full, 0.95) <= 10,
    store_load_ms: round(loadMs, 0),
  });

  // 2. Export and import of 10,000 learned skills.
  const exportStart = performance.now();
  const exported = source.learning.exportSnapshot('bench');
  const exportMs = performance.now() - exportStart;
  rows.push({
    case: `export ${N.toLocaleString('en-US')} learned skills (counters, lineage) to a snapshot`,
    ms: round(exportMs, 0),
    snapshot_mb: round(exported.text.length / 1048576, 2),
    target: '≤ 2000 ms',
    ok: exportMs <= 2000,
  });
  const target = await stores(engine);
  const bytes = new TextEncoder().encode(exported.text);
  const importStart = performance.now();
  const report = await target.learning.importSnapshot(bytes);
  const importMs = performance.now() - importStart;
  rows.push({
    case: `import that snapshot into an empty store (parse, plan with merge checks, batched write, saves)`,
    ms: round(importMs, 0),
    added: report.added.length,
    merged: report.merged.length,
    target: '≤ 2000 ms',
    ok: importMs <= 2000 && report.added.length + report.merged.length === N,
  });

  // 3. One write to the shared store (1,000 global skills), with the lock file and without it.
  const sharedDir = mkdtempSync(path.join(TEMP, 'global-'));
  const noLock: FileLock = { withLock: (fn) => fn() };
  const sharedStore = (lock: FileLock) => new SharedSkillStore({ engine, bytes: new NodeByteStore(sharedDir), lock, logger: nullLogger, clock });
  const globalRecords = records
    .slice(0, 1000)
    .map((record) => ({ ...record, ...makeScope('global'), id: skillId('learned', record.name, makeScope('global')) }));
  await sharedStore(noLock).write({ upsert: globalRecords });
  const writeTimes = async (lock: FileLock) => {
    const shared = sharedStore(lock);
    const out: number[] = [];
    for (let i = 0; i < 40; i++) {
      const start = performance.now();
      await shared.write({
        counters: [{ name: globalRecords[i]!.name, helpful: 1, harmful: 0, use_count: 1, last_used: clock.now(), last_validated: clock.now() }],
      });
      out.push(performance.now() - start);
    }
    return out.sort((a, b) => a - b);
  };
  const unlocked = await writeTimes(noLock);
  const locked = await writeTimes(new NodeFileLock(sharedDir, SHARED_SKILLS_LOCK));
  rows.push({
    case: 'one shared-store write (1,000 global skills): lock file + reload + change + atomic save',
    p50_ms: round(pct(locked, 0.5)),
    p95_ms: round(pct(locked, 0.95)),
    without_lock_p50_ms: round(pct(unlocked, 0.5)),
    lock_overhead_p50_ms: round(pct(locked, 0.5) - pct(unlocked, 0.5)),
  });

  rmSync(TEMP, { recursive: true, force: true });
  console.log(JSON.stringify({ title: 'Merge with lineage and learned-skill snapshots', rows }));
}

void main();
