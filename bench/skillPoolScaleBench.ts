/**
 * Skill store at scale over the real public-skill pool (bench/data/skills-at-scale): cold load,
 * warm start, search latency over the whole requests, and memory, on the path the hook and the
 * MCP server run — `openDoorSession` (the skill store, `SkillService`, the door's persisted store)
 * with the library in Toolshed's own skill folder (`~/.toolshed/skills`), one sub-folder per
 * source repository as a user who cloned those repositories would keep them.
 *
 * Libraries (poolLibrary.ts): 1,000 pool files, the whole pool, and 10,000 files (the pool plus
 * renamed copies of some of its files, since the pool has fewer).
 *
 * Every measurement runs in a fresh child process (this bundle, run again with `child` and a JSON
 * job), so its memory is that process's own: a cold load (no store yet: parse + index + persist),
 * then a warm start from what it persisted (to the first search answered), each followed by the
 * searches. A run with an empty library gives the fixed cost (sql.js, the code) that the memory
 * for skills is measured above. TOOLSHED_POOL_SCALE_FOREIGN=1 adds, after the warm start, one
 * over the same store without its digest (`<file>.checked`: bytes the store did not write last,
 * which it checks whole and reads every skill file again for) and another warm start after it.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { skillRequestText } from '../src/cli/commands/requestText';
import { openDoorSession } from '../src/core/runtimes/doorSession';
import type { DoorSession } from '../src/core/runtimes/doorSession';
import { doorFolderFor } from '../src/core/runtimes/doors/doorFolder';
import { loadSqlEngine } from '../src/core/sql/sqlEngine';
import { pctOf, round } from './benchMath';
import { librarySample, libraryLabel } from './poolLibrary';
import { DATA_DIR, materialisePool, readPool, readRequests } from './skillsAtScaleData';
import { startTrace } from './skillPoolScaleTrace';

interface Job {
  label: string;
  root: string;
  /** `foreign`: a warm start whose store bytes lack their digest (damaged, an older build's, a write cut short). */
  start: 'cold' | 'warm' | 'foreign';
  home: string;
  workspace: string;
  requestsFile: string;
  /** Rounds of every request through `skill_search` after one warm-up round. */
  rounds: number;
  /** TOOLSHED_POOL_SCALE_TRACE: where this start's memory timeline is written (skillPoolScaleTrace.ts). */
  trace?: string;
  /** At the library's last start, one of its SKILL.md files: the start edits it and measures the whole save that follows (`editAndSave`). */
  editAndSave?: string;
}

const mb = (bytes: number) => round(bytes / 1048576, 1);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** One measurement in this (fresh) process; prints its JSON row on the last line. */
async function child(job: Job): Promise<void> {
  const rssBefore = process.memoryUsage().rss;
  const found = readRequests(job.requestsFile);
  if ('skip' in found) throw new Error(found.skip);
  const requests = found.requests.map((r) => skillRequestText.text(r.request));
  const toolshedHome = path.join(job.home, '.toolshed');
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  // The engine as the door loads it (the bundle lies outside dist/, so the WebAssembly file is named).
  const engine = await loadSqlEngine({ wasmPath: path.join(job.root, 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm') });
  const trace = job.trace ? startTrace(job.trace, `${job.label.replace(/\W+/g, '-')}-${job.start}-${process.pid}`, engine) : undefined;
  // The parser thread the CLI's door runs (dist/parseWorker.js, built by `node esbuild.mjs`), named for the same reason.
  const parserScript = path.join(job.root, 'dist', 'parseWorker.js');
  const door = await openDoorSession({ runtime: 'claude', workspaceFolder: job.workspace, home: job.home, env: {}, toolshedHome, engine, parserScript });
  const openMs = performance.now() - wallStart;
  trace?.mark('open');
  const openCpu = cpuMs(cpuStart);
  const ctx = door.requestContext();
  await door.skills.search({ query: requests[0], limit: 10 }, ctx);
  const firstMs = performance.now() - wallStart;
  trace?.mark('first answer');
  const firstCpu = cpuMs(cpuStart);
  // The door answers while its load still checks the library (a warm start): the searches below run after it, as before.
  await door.loaded;
  const loadedMs = performance.now() - wallStart;
  trace?.mark('loaded and saved');
  const loadedCpu = cpuMs(cpuStart);
  const rssLoaded = process.memoryUsage().rss;

  // Per request, wall time and this process's CPU time (which a busy machine does not inflate).
  const times: number[] = [];
  const cpuTimes: number[] = [];
  const searchCpu = process.cpuUsage();
  for (let round = 0; round <= job.rounds; round++)
    for (const query of requests) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      await door.skills.search({ query, limit: 10 }, ctx);
      trace?.sample();
      if (round === 0) continue;
      times.push(performance.now() - start);
      cpuTimes.push(cpuMs(cpu));
    }
  const searchCpuPer = cpuMs(searchCpu) / ((job.rounds + 1) * requests.length);
  trace?.mark('searches done');
  const preflightTimes: number[] = [];
  for (const query of requests) {
    const start = performance.now();
    await door.preflight(query);
    trace?.sample();
    preflightTimes.push(performance.now() - start);
  }
  trace?.mark('preflights done');
  times.sort((a, b) => a - b);
  preflightTimes.sort((a, b) => a - b);
  const rssAfter = process.memoryUsage().rss;
  (globalThis as { gc?: () => void }).gc?.();
  const afterGc = process.memoryUsage();
  // V8 frees array buffers on a background thread after a collection: a second reading half a
  // second and a collection later shows what stays resident.
  await new Promise((resolve) => setTimeout(resolve, 500));
  (globalThis as { gc?: () => void }).gc?.();
  const settled = process.memoryUsage();
  trace?.stop();
  const wholeSave = job.editAndSave ? await editAndSave(door, job.editAndSave) : {};
  const load = await door.loaded;
  const skills = load.packs.reduce((n, p) => n + p.skillCount, 0);
  const duplicates = load.problems.filter((p) => p.code === 'duplicate-name').length;
  const storeFile = path.join(doorFolderFor(job.workspace, toolshedHome), 'skills.claude.db');
  let storeMb = 0;
  try {
    storeMb = mb(statSync(storeFile).size);
  } catch {
    // no store file: nothing was persisted (an empty library)
  }
  await door.dispose();
  const row = {
    case: `${job.label}, ${job.start}`,
    files: load.files,
    files_read: load.files - load.unchangedFiles,
    problems_by_code: problemCounts(load.problems),
    skills_searchable: skills,
    duplicate_names: duplicates,
    other_problems: load.problems.length - duplicates,
    start: job.start,
    open_ms: round(openMs, 0),
    open_cpu_ms: round(openCpu, 0),
    first_answer_ms: round(firstMs, 0),
    first_answer_cpu_ms: round(firstCpu, 0),
    load_done_ms: round(loadedMs, 0),
    load_done_cpu_ms: round(loadedCpu, 0),
    search_p50_ms: round(pctOf(times, 0.5), 1),
    search_p95_ms: round(pctOf(times, 0.95), 1),
    search_cpu_p50_ms: round(pctOf(cpuTimes, 0.5), 1),
    search_cpu_p95_ms: round(pctOf(cpuTimes, 0.95), 1),
    search_cpu_ms_per_request: round(searchCpuPer, 1),
    preflight_p50_ms: round(pctOf(preflightTimes, 0.5), 1),
    preflight_p95_ms: round(pctOf(preflightTimes, 0.95), 1),
    requests: requests.length,
    request_text: skillRequestText.describe(found.requests.map((r) => r.request)).request_text,
    rss_before_mb: mb(rssBefore),
    rss_loaded_mb: mb(rssLoaded),
    rss_after_searches_mb: mb(rssAfter),
    peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
    heap_after_gc_mb: mb(afterGc.heapUsed),
    external_after_gc_mb: mb(afterGc.external),
    rss_after_gc_mb: mb(afterGc.rss),
    rss_settled_mb: mb(settled.rss),
    heap_settled_mb: mb(settled.heapUsed),
    external_settled_mb: mb(settled.external),
    store_mb: storeMb,
    ...wholeSave,
    load_avg_1m: round(os.loadavg()[0] ?? 0, 2),
  };
  console.log(JSON.stringify(row));
}

/**
 * The save after a user edits one skill (the store is written whole, then its search mirror's
 * snapshot): its wall time, and the most array-buffer memory it held at once over what the store
 * held before (read every millisecond while it ran: the database's exported copy, the snapshot).
 */
async function editAndSave(door: DoorSession, file: string): Promise<Record<string, number>> {
  appendFileSync(file, '\nEdited for the bench.\n');
  await door.skills.reloadFile(file);
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().arrayBuffers;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 1);
  const started = performance.now();
  await door.skills.save();
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  return { whole_save_ms: round(ms, 0), whole_save_array_buffers_mb: mb(peak - base) };
}

/** How many problems of each severity and code the load reported (`warning:unquoted-colon`: 12, …), most first. */
function problemCounts(problems: ReadonlyArray<{ severity: string; code: string }>): string {
  const counts = new Map<string, number>();
  for (const p of problems) counts.set(`${p.severity}:${p.code}`, (counts.get(`${p.severity}:${p.code}`) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
}

function runChild(job: Job): Record<string, unknown> {
  // TOOLSHED_POOL_SCALE_PROFILE=DIR: a CPU profile of each measured start, for `node --cpu-prof`'s viewers.
  const profile = process.env.TOOLSHED_POOL_SCALE_PROFILE;
  // TOOLSHED_POOL_SCALE_NODE_ARGS: more flags for each child (space-separated), e.g. V8's GC settings while tracing.
  const extra = (process.env.TOOLSHED_POOL_SCALE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const nodeArgs = ['--expose-gc', ...extra, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])];
  const run = spawnSync(process.execPath, [...nodeArgs, process.argv[1]!, 'child', JSON.stringify(job)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`child ${job.label} ${job.start} failed (exit ${run.status}):\n${run.stderr}`);
  const row = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as Record<string, unknown>;
  process.stderr.write(`${JSON.stringify(row)}\n`);
  return row;
}

async function main(): Promise<void> {
  const root = process.cwd();
  const requestsFile = process.env.TOOLSHED_POOL_SCALE_REQUESTS ?? path.join(root, DATA_DIR, 'requests.jsonl');
  const found = readRequests(requestsFile);
  const title = 'Skill store at scale, real public-skill pool (door session: cold load, warm start, search over whole requests, memory)';
  if ('skip' in found) {
    console.log(JSON.stringify({ title, rows: [], skipped: found.skip }));
    return;
  }
  const pool = readPool(root);
  // TOOLSHED_POOL_SCALE_SIZES=1000,10000 (a comma list; "pool" is the whole pool) picks the sizes.
  const sizes = (process.env.TOOLSHED_POOL_SCALE_SIZES ?? '1000,pool,10000').split(',').map((s) => (s.trim() === 'pool' ? pool.length : Number(s)));
  const rounds = Number(process.env.TOOLSHED_POOL_SCALE_ROUNDS ?? 1);
  // TOOLSHED_POOL_SCALE_COLD_RUNS=N: N cold loads of each library (its store removed before each), then the warm start.
  const coldRuns = Math.max(1, Number(process.env.TOOLSHED_POOL_SCALE_COLD_RUNS ?? 1));
  const trace = process.env.TOOLSHED_POOL_SCALE_TRACE;
  if (trace) mkdirSync(trace, { recursive: true });
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-pool-scale-'));
  const rows: Array<Record<string, unknown>> = [];
  try {
    const workspace = path.join(tmp, 'workspace');
    mkdirSync(workspace, { recursive: true });
    const empty = path.join(tmp, 'home-empty');
    mkdirSync(path.join(empty, '.toolshed', 'skills'), { recursive: true });
    rows.push(runChild({ root, label: 'no skills (fixed cost)', start: 'cold', home: empty, workspace, requestsFile, rounds, ...(trace ? { trace } : {}) }));
    const fixedPeak = Number(rows[0]!.peak_rss_mb);
    for (const size of sizes) {
      const home = path.join(tmp, `home-${size}`);
      const library = path.join(home, '.toolshed', 'skills');
      const entries = librarySample(pool, size);
      const { idByFile } = materialisePool(entries, library);
      // A folder changed within 2 s of being listed is listed again at the next start (its time
      // could hide a change: skillPackScanner's listFolder), and a library a user already has was
      // written before that: the cold load starts once 2 s have passed since the library was written.
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const label = libraryLabel(size, pool.length);
      const colds = Array.from({ length: coldRuns }, () => 'cold' as const);
      const starts = process.env.TOOLSHED_POOL_SCALE_FOREIGN ? ([...colds, 'warm', 'foreign', 'warm'] as const) : ([...colds, 'warm'] as const);
      const doorFolder = doorFolderFor(workspace, path.join(home, '.toolshed'));
      for (const [i, start] of starts.entries()) {
        if (start === 'foreign') rmSync(`${path.join(doorFolder, 'skills.claude.db')}.checked`);
        if (start === 'cold') rmSync(doorFolder, { recursive: true, force: true });
        const editAndSave = i === starts.length - 1 ? idByFile.keys().next().value : undefined;
        const row = runChild({ root, label, start, home, workspace, requestsFile, rounds, editAndSave, ...(trace ? { trace } : {}) });
        row.skills_peak_rss_mb = round(Number(row.peak_rss_mb) - fixedPeak, 1);
        rows.push(row);
      }
      rmSync(home, { recursive: true, force: true });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ title, rows }));
}

if (process.argv[2] === 'child')
  void child(JSON.parse(process.argv[3] ?? '{}') as Job).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
else
  void main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
