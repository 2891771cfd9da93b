/**
 * Learning benchmarks (bundled and run by bench/learning.bench.mjs):
 * - trace extraction (sanitize + extract) of a 20-call turn: p50/p95;
 * - skill_search p50/p95 with 10,000 approved learned skills (restored through the learned-skill
 *   journal, as after a reload) and learning's score adjuster on, against the same store with it off;
 *   and with 5,000 pending proposals beside them (proposals are not in the search index);
 * - learned-then-paraphrased retrieval: 50 turns → approved skills; 50 paraphrases generated from
 *   the same trajectories; share whose learned skill is in the top 3 of pre-flight retrieval.
 * Prints one JSON line last: {"title", "rows"}.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { learningConfigSchema } from '../src/core/config/settingsSchema';
import type { TaskType } from '../src/core/config/settingsSchema';
import { LearningService } from '../src/core/learning/learningService';
import { LearningStore } from '../src/core/learning/learningStore';
import { extractTraceCandidate } from '../src/core/learning/extraction/traceExtractor';
import { sanitizeTrajectory } from '../src/core/learning/extraction/trajectory';
import type { Trajectory } from '../src/core/learning/extraction/trajectory';
import { depersonalize } from '../src/core/learning/extraction/depersonalize';
import type { LearnedCandidate } from '../src/core/learning/extraction/learnedCandidate';
import { nullEventSink, nullLogger } from '../src/core/platform/basicPorts';
import { MemoryByteStore } from '../src/core/platform/memoryByteStore';
import type { SqlEngine } from '../src/core/sql/sqlEngine';
import { folderPack } from '../src/core/skills/packs/skillPackSources';
import { learnedRecord, skillId } from '../src/core/skills/store/skillRecords';
import { makeScope } from '../src/core/skills/store/skillScope';
import { AREAS, FILLER, OBJECTS as BENCH_OBJECTS, VERBS, pct, rng, round } from './benchMath';
import { BENCH_PROJECT, benchEngine, benchSkillService } from './benchServices';

/** Timed rounds per measurement; p50/p95 are the medians over rounds (robust to a busy machine). */
const ROUNDS = 5;
const PERSONAL = { workspaceRoots: ['/home/dev/work/app'], homeDir: '/home/dev', userName: 'dev' };
const PROJECT = BENCH_PROJECT;
const ctx = { includeWorkspacePacks: true, scope: { projectId: PROJECT } };

const SERVICES = [
  'github',
  'jira',
  'stripe',
  'slack',
  'postgres',
  'sentry',
  'datadog',
  'vercel',
  'notion',
  'linear',
  'gitlab',
  'pagerduty',
  'shopify',
  'hubspot',
  'zendesk',
  'figma',
  'airtable',
  'twilio',
  'salesforce',
  'kubernetes',
];
const ACTIONS: Array<[string, string[]]> = [
  ['list', ['show', 'get']],
  ['create', ['open', 'make']],
  ['update', ['change', 'edit']],
  ['close', ['resolve', 'finish']],
  ['export', ['download', 'dump']],
  ['summarize', ['summarise', 'recap']],
  ['archive', ['store away', 'file away']],
  ['sync', ['synchronise', 'mirror']],
  ['assign', ['hand over', 'give']],
  ['tag', ['label', 'mark']],
];
const OBJECTS = [
  'invoices',
  'incidents',
  'tickets',
  'deployments',
  'customers',
  'alerts',
  'orders',
  'pages',
  'records',
  'releases',
  'contacts',
  'messages',
  'dashboards',
  'pods',
  'designs',
];
const SINKS = ['slack', 'email', 'notion', 'jira', 'github'];
interface Task {
  service: string;
  action: [string, string[]];
  object: string;
  sink: string;
  qualifier: string;
}

function taskOf(r: () => number, i: number): Task {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  return {
    service: SERVICES[i % SERVICES.length]!,
    action: ACTIONS[Math.floor(i / SERVICES.length) % ACTIONS.length]!,
    object: pick(OBJECTS),
    sink: pick(SINKS),
    qualifier: pick(['from last week', 'that are still open', 'for the EU team', 'older than 30 days', 'tagged urgent']),
  };
}

function trajectoryOf(task: Task, i: number, calls = 3): Trajectory {
  const [action] = task.action;
  const request = `${action[0]!.toUpperCase()}${action.slice(1)} the ${task.service} ${task.object} ${task.qualifier} and post a summary to ${task.sink}`;
  const steps = [
    { tool: `${task.service}_${action}_${task.object}`, input: { filter: `id-${i}`, since: '2026-01-01' }, ok: true },
    { tool: `${task.service}_get_${task.object.replace(/s$/, '')}`, input: { id: `${i}` }, ok: true },
    { tool: `${task.sink}_post_message`, input: { channel: '#ops', text: 'secret ghp_4fK9xQ2mZ7pL1sV8bN3cR6tY0wE5uI2oA9dH' }, ok: true },
  ];
  return { sessionId: `bench-${i}`, request, calls: steps.slice(0, calls), stoppedBecause: 'done', skillsUsed: [], at: 1_800_000_000_000 + i };
}

/** A paraphrase from the same trajectory: synonyms for the verb, clauses reordered, qualifier dropped or moved. */
function paraphraseOf(task: Task, r: () => number): string {
  const [, synonyms] = task.action;
  const verb = synonyms[Math.floor(r() * synonyms.length)]!;
  const forms = [
    `Could you ${verb} the ${task.object} in ${task.service} and send ${task.sink} a short recap`,
    `Send a recap to ${task.sink} after you ${verb} our ${task.service} ${task.object}`,
    `I need the ${task.service} ${task.object} ${task.qualifier}: ${verb} them, then summarise in ${task.sink}`,
    `${verb} ${task.object} on ${task.service}, summary goes to ${task.sink}`,
  ];
  return forms[Math.floor(r() * forms.length)]!;
}

const skillService = (engine: SqlEngine, store: MemoryByteStore) => benchSkillService(engine, { store, clock: { now: () => 1_800_000_000_000 } });

function timeAll(queries: string[], run: (q: string) => Promise<unknown> | unknown, rounds = ROUNDS): Promise<{ p50: number; p95: number }> {
  return (async () => {
    const p50s: number[] = [];
    const p95s: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const times: number[] = [];
      for (const q of queries) {
        const t = performance.now();
        await run(q);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      p50s.push(pct(times, 0.5));
      p95s.push(pct(times, 0.95));
    }
    p50s.sort((a, b) => a - b);
    p95s.sort((a, b) => a - b);
    return { p50: pct(p50s, 0.5), p95: pct(p95s, 0.5) };
  })();
}

async function main(): Promise<void> {
  const engine = await benchEngine();
  const rows: Array<Record<string, unknown>> = [];
  const config = learningConfigSchema.parse({ mode: 'propose' });

  // 1. Trace extraction of a 20-call turn (sanitize + extract), secrets and failures included.
  const r = rng(5);
  const twenty: Trajectory = {
    ...trajectoryOf(taskOf(r, 1), 1),
    request:
      'Release v2.3: run the tests in /home/dev/work/app, tag the build, notify alice@example.com with token sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f',
    calls: Array.from({ length: 20 }, (_, i) => ({
      tool: `tool_${i % 7}_step`,
      input: { path: `/home/dev/work/app/src/f${i}.ts`, n: i, flag: true },
      ok: i % 6 !== 5,
      ...(i % 6 === 5 ? { error: `ENOENT: no such file /home/dev/work/app/src/f${i}.ts (request 8f3a9c2e11${i})` } : {}),
    })),
  };
  const clean = (text: string) => depersonalize(text, PERSONAL);
  for (let i = 0; i < 300; i++) extractTraceCandidate(sanitizeTrajectory(twenty, clean), PERSONAL);
  const extraction = await timeAll(
    Array.from({ length: 1000 }, () => ''),
    () => extractTraceCandidate(sanitizeTrajectory(twenty, clean), PERSONAL),
    3,
  );
  rows.push({
    case: 'trace extraction, 20-call turn (sanitize + extract)',
    p50_ms: round(extraction.p50),
    p95_ms: round(extraction.p95),
    target: 'p95 ≤ 5 ms',
    ok: extraction.p95 <= 5,
  });

  // 2. skill_search with 10,000 approved learned skills, restored through the journal (as after a
  // reload), then learning's adjuster on; then 5,000 pending proposals beside them. Two corpora:
  // "varied" (the skills bench's vocabulary, turned into trajectories and extracted) and
  // "repetitive" (every skill ends with "post a summary to <sink>": the store's hardest case).
  const corpora: Array<{ label: string; trajectory: (i: number, r: () => number) => Trajectory; query: (i: number, r: () => number) => string }> = [
    {
      label: 'varied',
      trajectory: (i, r) => {
        const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
        const [area, verb, object] = [pick(AREAS), pick(VERBS), pick(BENCH_OBJECTS)];
        return {
          sessionId: `v${i}`,
          request: `${verb} a ${object} in ${area} ${pick(FILLER)} ${pick(FILLER)}`,
          stoppedBecause: 'done',
          skillsUsed: [],
          at: i,
          calls: [
            { tool: `${area}_find_${object}`, input: { query: 'x' }, ok: true },
            { tool: `${area}_${verb}_${object}`, input: { id: 'y', dry_run: false }, ok: true },
          ],
        };
      },
      query: (_i, r) => {
        const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
        return `how do I ${pick(VERBS)} the ${pick(BENCH_OBJECTS)} in ${pick(AREAS)}`;
      },
    },
    {
      label: 'repetitive',
      trajectory: (i, r) =>
        trajectoryOf({ ...taskOf(r, i), object: `${OBJECTS[i % OBJECTS.length]}`, qualifier: `${VERBS[i % VERBS.length]} batch ${i % 97}` }, i),
      query: (i) => paraphraseOf(taskOf(rng(900 + i), i * 7), rng(i)),
    },
  ];
  const learnedCount = 10_000;
  for (const corpus of corpora) {
    const bytes = new MemoryByteStore();
    const journal: string[] = [];
    const candidates: LearnedCandidate[] = [];
    const rs = rng(42);
    for (let i = 0; i < learnedCount; i++) {
      const candidate = extractTraceCandidate(sanitizeTrajectory(corpus.trajectory(i, rs), clean), PERSONAL)!;
      const name = `${candidate.name}-${i}`;
      candidates.push({ ...candidate, name });
      const record = learnedRecord(
        {
          name,
          title: candidate.title,
          trigger: candidate.trigger,
          task_type: candidate.task_type as TaskType,
          tags: candidate.tags,
          steps: candidate.steps,
          failure_modes: candidate.failure_modes,
          origin_ref: 'bench',
        },
        makeScope('project', undefined, PROJECT),
        1_800_000_000_000,
      );
      journal.push(JSON.stringify({ ...record, id: skillId('learned', name) }));
    }
    await bytes.write('skills.db.learned.jsonl', new TextEncoder().encode(`${journal.join('\n')}\n`));
    const loadStart = performance.now();
    const service = await skillService(engine, bytes);
    const loadMs = performance.now() - loadStart;
    const learningStore = await LearningStore.open({ engine, store: bytes, logger: nullLogger, clock: { now: () => 1_800_000_000_000 } });
    learningStore.transaction(() =>
      candidates.forEach((c, i) => {
        learningStore.propose(`pr_${i}`, { ...c, source_hash: `${c.source_hash}${i}` }, 'trace');
        learningStore.setStatus(`pr_${i}`, 'approved', c.name);
      }),
    );
    const learning = new LearningService({
      store: learningStore,
      skills: service,
      config: () => config,
      trusted: () => true,
      personal: () => PERSONAL,
      scope: () => ({ projectId: PROJECT }),
      clock: { now: () => 1_800_000_000_000 + 20 * 86_400_000 },
      events: nullEventSink,
      logger: nullLogger,
      fileExists: () => true,
      knownTool: () => true,
      frameFacts: (name) => service.inspect(name),
    });
    const rq = rng(7);
    const queries = Array.from({ length: 300 }, (_, i) => corpus.query(i, rq));
    if (corpus.label === 'varied') {
      // Reference in the same run: 10,000 *pack* skills of the skills bench's shape, same queries.
      const dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-learning-bench-'));
      const rp = rng(42);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rp() * xs.length)] as T;
      const lines = Array.from({ length: learnedCount }, (_, i) => {
        const [area, verb, object] = [pick(AREAS), pick(VERBS), pick(BENCH_OBJECTS)];
        return JSON.stringify({
          name: `pack.synth.${area}.${verb}_${object}_${i}`,
          title: `${verb} ${object}`,
          trigger: `${verb} a ${object} in ${area} ${pick(FILLER)} ${pick(FILLER)}`,
          task_type: 'code',
          tags: [area, object],
          steps: [`Find the ${object}.`, `${verb} it.`, 'Verify the result.'],
        });
      });
      // Files of 3,000 skills, as the skills bench writes them (one file stays under the 1 MiB limit).
      for (let f = 0; f * 3000 < lines.length; f++)
        writeFileSync(path.join(dir, `part${f}.skill.jsonl`), `${lines.slice(f * 3000, (f + 1) * 3000).join('\n')}\n`);
      const packs = await skillService(engine, new MemoryByteStore());
      const loaded = await packs.loadPacks([folderPack('synth', dir)]);
      const count = loaded.packs[0]?.skillCount ?? 0;
      if (count !== learnedCount) throw new Error(`reference pack loaded ${count} skills, expected ${learnedCount}`);
      const rw2 = rng(11);
      for (let i = 0; i < 500; i++) await packs.search({ query: corpus.query(i, rw2) }, ctx);
      const reference = await timeAll(queries, (q) => packs.search({ query: q }, ctx));
      rows.push({
        case: 'reference: skill_search @ 10,000 pack skills (skills bench corpus), same queries',
        p50_ms: round(reference.p50),
        p95_ms: round(reference.p95),
        target: 'p95 ≤ 5 ms',
        ok: reference.p95 <= 5,
      });
      await packs.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
    const rw = rng(11);
    for (let i = 0; i < 500; i++) await service.search({ query: corpus.query(i, rw) }, ctx);
    service.setScoreAdjuster(undefined);
    const off = await timeAll(queries, (q) => service.search({ query: q }, ctx));
    service.setScoreAdjuster(learning.adjuster);
    const on = await timeAll(queries, (q) => service.search({ query: q }, ctx));
    learningStore.transaction(() => {
      for (let i = 0; i < 5000; i++)
        learningStore.propose(`pp_${i}`, { ...candidates[i]!, name: `${candidates[i]!.name}-p`, source_hash: `pending-${i}` }, 'trace');
    });
    const pending = await timeAll(queries, (q) => service.search({ query: q }, ctx));
    const label = `skill_search @ 10,000 approved learned skills (${corpus.label})`;
    const pendingNow = learningStore.proposals('proposed').length;
    rows.push({
      case: `${label}, learning off`,
      p50_ms: round(off.p50),
      p95_ms: round(off.p95),
      target: 'p95 ≤ 5 ms',
      ok: off.p95 <= 5,
      load_ms: round(loadMs, 0),
    });
    rows.push({
      case: `${label}, learning on (decay, effectiveness, citations)`,
      p50_ms: round(on.p50),
      p95_ms: round(on.p95),
      target: 'p95 ≤ 5 ms',
      ok: on.p95 <= 5,
      p95_ratio_to_off: round(on.p95 / Math.max(off.p95, 1e-6), 2),
    });
    rows.push({
      case: `${label}, learning on, after 5,000 more proposals (${pendingNow} kept pending: MAX_PENDING_PROPOSALS)`,
      p50_ms: round(pending.p50),
      p95_ms: round(pending.p95),
      target: 'p95 ≤ 5 ms',
      ok: pending.p95 <= 5,
      p95_ratio_to_on: round(pending.p95 / Math.max(on.p95, 1e-6), 2),
    });
    await service.dispose();
  }

  // 3. Learned, then paraphrased: 50 turns → approved skills; 50 paraphrases from the same trajectories.
  const fresh = new MemoryByteStore();
  const retrieval = await skillService(engine, fresh);
  await retrieval.loadPacks([folderPack('core', path.join(process.cwd(), 'skill-packs', 'core'), { source: 'builtin' })]);
  const store3 = await LearningStore.open({ engine, store: fresh, logger: nullLogger, clock: { now: () => 1_800_000_000_000 } });
  const learning3 = new LearningService({
    store: store3,
    skills: retrieval,
    config: () => config,
    trusted: () => true,
    personal: () => PERSONAL,
    scope: () => ({ projectId: PROJECT }),
    clock: { now: () => 1_800_000_000_000 },
    events: nullEventSink,
    logger: nullLogger,
    fileExists: () => true,
    knownTool: () => true,
    frameFacts: (name) => retrieval.inspect(name),
  });
  retrieval.setScoreAdjuster(learning3.adjuster);
  const rt = rng(77);
  const tasks = Array.from({ length: 50 }, (_, i) => taskOf(rt, i * 3 + 1));
  const learnedNames: string[] = [];
  for (const [i, task] of tasks.entries()) {
    const { proposal } = await learning3.ingest(trajectoryOf(task, i));
    const approved = proposal ? await learning3.approve(proposal.id, { name: `${proposal.candidate.name}-${i}` }) : undefined;
    learnedNames.push(approved?.status === 'approved' ? approved.name : '');
  }
  let top3 = 0;
  let top1 = 0;
  const rp = rng(4242);
  for (const [i, task] of tasks.entries()) {
    const result = await retrieval.getRelevant({ task: paraphraseOf(task, rp), top_k: 3, max_tokens: 20_000 }, ctx);
    const rank = result.skills.indexOf(learnedNames[i]!);
    if (rank >= 0) top3++;
    if (rank === 0) top1++;
  }
  rows.push({
    case: 'learned-then-paraphrased retrieval (50 turns, 50 paraphrases, pre-flight top 3)',
    recall_at_1: round(top1 / 50),
    recall_at_3: round(top3 / 50),
    target: 'recall@3 ≥ 0.9',
    ok: top3 / 50 >= 0.9,
  });
  await retrieval.dispose();

  console.log(JSON.stringify({ title: 'Learning: trace extraction, skill_search with learned skills, learned-then-paraphrased retrieval', rows }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
