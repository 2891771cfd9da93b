import * as assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { LoadSummary } from '../../../src/core/skills/packs/skillPackLoader';
import type { ToolshedApi } from '../../../src/vscode/extension';
import type { ToolshedServices } from '../../../src/vscode/services';
import { TOOLSHED_ID } from './helpers';

/**
 * The extension-host size row of bench/hostSkillScale.bench.mjs — a bench, not a test: it asserts
 * only that each step answered, and writes its figures as JSON lines to the bench's rows file.
 * The bench opens a workspace holding `toolshed-host-bench.json` (below) and a user setting
 * `toolshed.skills.packs` naming the library folder, so this suite exists only in that run.
 *
 * First host: activates Toolshed (no store yet), times it to the skills searchable, calls
 * `skill_search` as the LM tool for every request, measures this process's memory, then reloads
 * the window, which starts a new extension host. The test driver runs the suite again in the new host, which finds the cold
 * row and measures the warm start from the persisted store the same way.
 */
interface BenchConfig {
  /** The `toolshed.skills.packs` entry's name. */
  pack: string;
  requests: string[];
  /** JSON lines, one per start. */
  rowsFile: string;
  /** Timed rounds of every request, after one warm-up round. */
  rounds: number;
  /** Where to write a CPU profile and an allocation-sampling profile of each start (to the first answer), if anywhere. */
  profileDir?: string;
}

const CONFIG_FILE = 'toolshed-host-bench.json';

function benchConfig(): BenchConfig | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const file = folder && path.join(folder.uri.fsPath, CONFIG_FILE);
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BenchConfig) : undefined;
}

/** The garbage collector, where V8 lets it be exposed at run time (the host is not started with --expose-gc). */
function exposedGc(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
const ms = (value: number) => Math.round(value * 10) / 10;
const pct = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/**
 * The highest resident set seen in each phase of a start (read every 50 ms): where the start's
 * peak (`peak_rss_mb`, the process's own high-water mark) comes from — its way to the first
 * answer, the rest of the load and its save, or the searches after it.
 */
function phasePeaks(): { enter(phase: string): void; stop(): Record<string, number> } {
  const peaks: Record<string, number> = {};
  let phase = 'to_first_answer';
  const read = () => (peaks[phase] = Math.max(peaks[phase] ?? 0, process.memoryUsage.rss()));
  const timer = setInterval(read, 50);
  return {
    enter(next) {
      read();
      phase = next;
    },
    stop() {
      read();
      clearInterval(timer);
      return Object.fromEntries(Object.entries(peaks).map(([name, bytes]) => [`peak_rss_${name}_mb`, mb(bytes)]));
    },
  };
}

function memory(prefix: string): Record<string, number> {
  const used = process.memoryUsage();
  return { [`${prefix}_rss_mb`]: mb(used.rss), [`${prefix}_heap_mb`]: mb(used.heapUsed), [`${prefix}_external_mb`]: mb(used.external) };
}

/**
 * V8's heap by space: the young generation (`new_space`, its two semi-spaces) is sized by how
 * much survived recent scavenges, not by what is live, and a forced GC does not shrink it, so
 * the RSS readings above hold it at whatever size the load grew it to; reported apart.
 */
function heapSpaces(prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const space of v8.getHeapSpaceStatistics()) {
    if (!['new_space', 'old_space', 'code_space', 'large_object_space', 'new_large_object_space'].includes(space.space_name)) continue;
    out[`${prefix}_${space.space_name}_mb`] = mb(space.physical_space_size);
  }
  return out;
}

/** The test driver's tool that answers at once (test/host/driver/testTools.ts): the floor of an LM tool call. */
const FLOOR_TOOL = 'fixture_weather_forecast';

const floorToolListed = () => vscode.lm.tools.some((tool) => tool.name === FLOOR_TOOL);

async function skillSearch(query: string): Promise<string> {
  const result = await vscode.lm.invokeTool('skill_search', { input: { query, limit: 10 }, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** The load summary once the configured pack has loaded (activation starts the load in the background). */
async function packLoaded(services: ToolshedServices, pack: string): Promise<LoadSummary> {
  for (;;) {
    let subscription: vscode.Disposable | undefined;
    const changed = new Promise<void>((resolve) => (subscription = services.skillPacks.onDidChange(() => resolve())));
    const summary = (await services.skillPacks.ready) as LoadSummary | undefined;
    if (summary?.packs.some((p) => p.name === pack)) {
      subscription?.dispose();
      return summary;
    }
    await changed;
    subscription?.dispose();
  }
}

/** Profiles this thread from now until the returned function is called with the start's name. */
function startProfiling(dir: string | undefined): (name: string) => Promise<void> {
  if (!dir) return async () => {};
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<Record<string, unknown>>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as Record<string, unknown>))),
    );
  const started = Promise.all([
    post('Profiler.enable'),
    post('Profiler.start'),
    post('HeapProfiler.enable'),
    post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024 }),
  ]);
  return async (name) => {
    await started;
    const { profile } = await post('Profiler.stop');
    const { profile: heap } = await post('HeapProfiler.stopSampling');
    writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    writeFileSync(path.join(dir, `${name}.heapprofile`), JSON.stringify(heap));
    session.disconnect();
  };
}

/**
 * With TOOLSHED_START_TRACE set: the marks the extension left on the path of the first answer
 * (core/platform/startTrace.ts) and the event loop's gaps (a 1 ms timer's late turns, ≥ 8 ms: the
 * stretches the host's thread was held), both in ms from `origin`.
 */
function startTrace(origin: number): (() => Record<string, unknown>) & { untilLoadEnd?: () => Record<string, unknown> } {
  if (!process.env.TOOLSHED_START_TRACE) return () => ({});
  const gaps: Array<[number, number]> = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last >= 8) gaps.push([ms(last - origin), ms(now - origin)]);
    last = now;
  }, 1);
  const marks = () => ((globalThis as Record<symbol, unknown>)[Symbol.for('toolshed.startTrace')] as Array<[string, number]> | undefined) ?? [];
  const atFirstAnswer = () => {
    const trace = marks()
      .splice(0)
      .map(([name, at]) => [name, ms(at - origin)]);
    return { trace, loop_gaps: [...gaps] };
  };
  // The gaps and marks from the first answer until the load's end (the load's check may run past the first answer).
  atFirstAnswer.untilLoadEnd = () => {
    clearInterval(timer);
    const trace = marks()
      .splice(0)
      .map(([name, at]) => [name, ms(at - origin)]);
    return { load_trace: trace, load_loop_gaps: gaps };
  };
  return atFirstAnswer;
}

const config = benchConfig();
if (config) {
  suite('skill store at scale in the extension host (bench)', () => {
    test('the public-skill library: start, skill_search, memory', async function () {
      this.timeout(30 * 60_000); // the bench's host timeout is the guard
      const rowsFile = config.rowsFile;
      const start = existsSync(rowsFile) && readFileSync(rowsFile, 'utf8').includes('"start":"cold"') ? 'warm' : 'cold';
      const gc = exposedGc();
      const extension = vscode.extensions.getExtension<ToolshedApi>(TOOLSHED_ID);
      assert.ok(extension, `${TOOLSHED_ID} is not installed`);
      const activeBefore = extension.isActive;
      gc?.();
      const before = { ...memory('before'), ...heapSpaces('before') };

      const stopProfiling = startProfiling(config.profileDir);
      const wallStart = performance.now();
      const cpuStart = process.cpuUsage();
      const stopTrace = startTrace(wallStart);
      const peaks = phasePeaks();
      const api = await extension.activate();
      const activatedMs = performance.now() - wallStart;
      // activate() returns before the stores are open: when they were (`api.ready`), and when the
      // load started then ended (its change event), to tell an answer given before either.
      let readyMs: number | undefined;
      let loadEndedMs: number | undefined;
      let loadEnded: vscode.Disposable | undefined;
      const ready = api.ready.then((services) => {
        readyMs = performance.now() - wallStart;
        loadEnded = services.skillPacks.onDidChange(() => (loadEndedMs ??= performance.now() - wallStart));
        return services;
      });
      // The first search is asked at once, as an agent may: a warm start answers it from the saved
      // index while the load still checks the library; a cold one waits for the load.
      // Beside it, the test driver's echo tool, asked at the same moment: what the workbench's first
      // round trip costs any extension's tool at this point of the start (the control for the row above).
      let echoFirstMs: number | undefined;
      const echoFirst = floorToolListed()
        ? vscode.lm.invokeTool(FLOOR_TOOL, { input: { city: 'first' }, toolInvocationToken: undefined }).then(() => {
            echoFirstMs = performance.now() - wallStart;
          })
        : Promise.resolve();
      const firstAskedBeforeReady = readyMs === undefined;
      const first = await skillSearch(config.requests[0]!);
      const firstMs = performance.now() - wallStart;
      peaks.enter('rest_of_load');
      const traced = stopTrace();
      const cpu = process.cpuUsage(cpuStart);
      await echoFirst;
      const services = await ready;
      const summary = await packLoaded(services, config.pack);
      const tracedLoad = stopTrace.untilLoadEnd?.() ?? {};
      loadEnded?.dispose();
      const loadedMs = performance.now() - wallStart;
      await stopProfiling(start);
      const firstSkills = (JSON.parse(first) as { skills?: unknown[] }).skills?.length ?? 0;
      assert.ok(firstSkills > 0, `the first skill_search answered with skills: ${first.slice(0, 300)}`);
      const loaded = { ...memory('loaded'), ...heapSpaces('loaded') };
      peaks.enter('searches');

      // Every request through the LM tool (one warm-up round), then the same engine call directly.
      // Beside each call, the same request through the test driver's fixture tool, which only
      // echoes it: the workbench's own round trip for an LM tool, under the same conditions.
      const times: number[] = [];
      const floor: number[] = [];
      const floorTool = floorToolListed();
      for (let round = 0; round <= config.rounds; round++)
        for (const query of config.requests) {
          const t = performance.now();
          await skillSearch(query);
          if (round > 0) times.push(performance.now() - t);
          if (!floorTool) continue;
          const f = performance.now();
          await vscode.lm.invokeTool(FLOOR_TOOL, { input: { city: query }, toolInvocationToken: undefined });
          if (round > 0) floor.push(performance.now() - f);
        }
      const direct: number[] = [];
      const ctx = services.skillContext();
      for (const query of config.requests) {
        const t = performance.now();
        await services.skills.search({ query, limit: 10 }, ctx);
        direct.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      floor.sort((a, b) => a - b);
      direct.sort((a, b) => a - b);
      const afterSearches = memory('after_searches');
      const peaksByPhase = peaks.stop();
      gc?.();
      const afterGc = gc ? memory('after_gc') : {};
      // V8 frees array buffers on a background thread after a collection, so a reading right after
      // one may still hold memory already freed: a second collection half a second later shows what
      // stays resident (a bench's reading, not a test's wait).
      let settled = {};
      if (gc) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        gc();
        settled = { ...memory('settled'), ...heapSpaces('settled') };
      }
      // What the user's editor keeps once the host is idle: V8 shrinks the young generation the load
      // grew (above) only when allocation has stopped for a while, on its own timer. The host is
      // left alone, looked at once a second, until its young generation is back to its size before
      // activation (at most 40 s), then collected and read (a bench's reading, not a test's wait).
      let idle = {};
      if (gc) {
        const youngBefore = (before as Record<string, number>).before_new_space_mb ?? 0;
        const young = () => mb(v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.physical_space_size ?? 0);
        const idleStart = performance.now();
        while (young() > youngBefore && performance.now() - idleStart < 40_000) await new Promise((resolve) => setTimeout(resolve, 1000));
        const waited = performance.now() - idleStart;
        gc();
        await new Promise((resolve) => setTimeout(resolve, 500));
        gc();
        idle = { ...memory('idle'), ...heapSpaces('idle'), idle_wait_ms: Math.round(waited) };
      }
      // With profiles asked for, a heap snapshot too: what the host holds once the warm start has
      // settled (the last thing the run does; a cold one's would hold the host up before the reload).
      if (config.profileDir && start === 'warm') v8.writeHeapSnapshot(path.join(config.profileDir, 'host-warm.heapsnapshot'));
      const pack = summary.packs.find((p) => p.name === config.pack)!;
      const row = {
        start,
        host_pid: process.pid,
        toolshed_active_before: activeBefore,
        files: summary.files,
        files_read: summary.files - summary.unchangedFiles,
        skills_searchable: pack.skillCount,
        duplicate_names: summary.problems.filter((p) => p.code === 'duplicate-name').length,
        activate_ms: Math.round(activatedMs),
        // The stores open and every surface wired (before this, activate() waited for it).
        store_ready_ms: readyMs === undefined ? null : Math.round(readyMs),
        first_asked_before_ready: firstAskedBeforeReady,
        searchable_ms: Math.round(loadedMs),
        load_ended_ms: loadEndedMs === undefined ? undefined : Math.round(loadEndedMs),
        first_answer_ms: Math.round(firstMs),
        // Answered from the saved index while the load still checked the library (a warm start's rule).
        first_answer_before_load_end: loadEndedMs !== undefined && firstMs < loadEndedMs,
        echo_first_answer_ms: echoFirstMs === undefined ? null : Math.round(echoFirstMs),
        first_answer_cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
        first_answer_skills: firstSkills,
        load_reported_ms: Math.round(summary.durationMs),
        lm_tool_p50_ms: ms(pct(times, 0.5)),
        lm_tool_p95_ms: ms(pct(times, 0.95)),
        lm_tool_floor_p50_ms: floorTool ? ms(pct(floor, 0.5)) : null,
        lm_tool_floor_p95_ms: floorTool ? ms(pct(floor, 0.95)) : null,
        direct_search_p50_ms: ms(pct(direct, 0.5)),
        direct_search_p95_ms: ms(pct(direct, 0.95)),
        requests: config.requests.length,
        rounds: config.rounds,
        ...before,
        ...loaded,
        ...afterSearches,
        ...afterGc,
        ...settled,
        ...idle,
        peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
        ...peaksByPhase,
        gc_exposed: gc !== undefined,
        load_avg_1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
        ...traced,
        ...tracedLoad,
      };
      appendFileSync(rowsFile, `${JSON.stringify(row)}\n`);
      if (start === 'warm') return;

      // What deactivation would save anyway, saved now, so the restart cannot race it.
      await services.flush();
      // code-server's web workbench has no "Restart Extension Host"; reloading the window starts a
      // new extension host. This one ends here; the driver runs the suite again in the next one.
      await vscode.commands.executeCommand('workbench.action.reloadWindow');
      await new Promise<never>(() => {});
    });
  });
}
