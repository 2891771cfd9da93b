// @ts-check
// The prompt-submit hook's latency as a runtime sees it: `node dist/cli.js hook claude` spawned
// with the event JSON on stdin, timed from spawn to exit, with 1,000 and 10,000 synthetic SKILL.md
// skills in the runtime's own user folder (`~/.claude/skills` of a temporary HOME). One cold run
// (empty door folder: everything indexed and saved, no time budget), then warm runs (the
// persisted store present, nothing changed), half with a request phrased from one skill, half
// with one no skill is about: answered by the resident hook; as a session's first prompt (no
// resident hook yet: answered in-process, which starts one); and with the resident hook turned
// off. Prints one JSON line last: {"title", "rows"}.
// TOOLSHED_BENCH_HOOK_SIZES=1000 (a comma list) runs only those sizes; TOOLSHED_BENCH_HOOK_RUNS the warm runs per size.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSkills } from './syntheticSkills.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cli = path.join(root, 'dist', 'cli.js');
const SIZES = (process.env.TOOLSHED_BENCH_HOOK_SIZES ?? '1000,10000').split(',').map(Number);
const RUNS = Number(process.env.TOOLSHED_BENCH_HOOK_RUNS ?? 20);
const UNRELATED = ['what is the capital of France', 'tell me a joke about cats', 'thanks, that is all for today', 'summarise our conversation so far'];

/** @param {readonly number[]} sorted @param {number} p */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/**
 * One hook run: wall ms from spawn to exit, and what it printed.
 * @param {string} home @param {string} workspace @param {string} prompt @param {string[]} extra
 */
function hookRun(home, workspace, prompt, extra = [], env = {}) {
  const event = JSON.stringify({ session_id: 'bench', hook_event_name: 'UserPromptSubmit', cwd: workspace, prompt });
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [cli, 'hook', 'claude', ...extra], {
    cwd: workspace,
    input: event,
    encoding: 'utf8',
    // XDG_RUNTIME_DIR in the bench's folder: where the resident hook's socket goes when the door folder's path is too long for one.
    env: { ...process.env, HOME: home, TOOLSHED_HOME: path.join(home, '.toolshed'), XDG_RUNTIME_DIR: tmp, ...env },
    maxBuffer: 16 << 20,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`hook exited with ${run.status}: ${run.stderr}`);
  return { ms, stdout: run.stdout, stderr: run.stderr };
}

/** @type {Array<Record<string, unknown>>} */
const rows = [];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-hook-latency-'));
try {
  for (const size of SIZES) {
    const home = path.join(tmp, `home-${size}`);
    const workspace = path.join(tmp, `ws-${size}`);
    mkdirSync(path.join(home, '.claude'), { recursive: true });
    mkdirSync(workspace, { recursive: true });
    const generated = writeSkills(path.join(tmp, `gen-${size}`), size, 32, { perPack: size, queryCount: RUNS });
    renameSync(generated.packs[0] ?? '', path.join(home, '.claude', 'skills'));
    const queries = readFileSync(generated.queriesFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => /** @type {{ query: string; gold: string[] }} */ (JSON.parse(line)));
    // Cold: nothing indexed yet, no budget; it saves the store and starts the resident hook.
    const cold = hookRun(home, workspace, queries[0]?.query ?? 'warm up', ['--budget-ms', '600000']);
    const pidFile = path.join(doorFolder(home, workspace), 'hook.claude.pid');
    await until(() => existsSync(pidFile));
    for (const mode of ['resident', 'first of a session', 'in-process']) {
      const env = mode === 'in-process' ? { TOOLSHED_HOOK_RESIDENT: '0' } : {};
      const runs = mode === 'resident' ? RUNS : Math.max(2, Math.round(RUNS / 4));
      const warm = [];
      /** Node's own start (`node -e 0`) interleaved with the hook runs: the floor under the same load. */
      const floor = [];
      let goldInjected = 0;
      let unrelatedInjected = 0;
      const load = os.loadavg()[0];
      for (let i = 0; i < runs; i++) {
        // A session's first prompt finds no resident hook (it stopped after 30 idle minutes): the
        // previous one is stopped, and the one this prompt starts listens before the next.
        if (mode === 'first of a session') stopResident(pidFile);
        const matching = i % 2 === 0;
        const query = queries[Math.floor(i / 2) % queries.length];
        const run = hookRun(
          home,
          workspace,
          matching ? (query?.query ?? '') : (UNRELATED[Math.floor(i / 2) % UNRELATED.length] ?? ''),
          ['--budget-ms', '60000'],
          env,
        );
        if (run.stderr) throw new Error(`warm hook run reported: ${run.stderr}`);
        warm.push(run.ms);
        floor.push(nodeStart());
        if (matching && query?.gold.some((name) => run.stdout.includes(`### ${name}`))) goldInjected++;
        if (!matching && run.stdout) unrelatedInjected++;
        if (mode === 'first of a session') await until(() => existsSync(pidFile));
      }
      rowFor(size, mode, cold.ms, warm, floor, runs, goldInjected, unrelatedInjected, load);
    }
    stopResident(pidFile);
    rmSync(home, { recursive: true, force: true });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(JSON.stringify({ title: 'Prompt-submit hook latency (node dist/cli.js hook claude spawned per prompt, warm door store)', rows }));

/**
 * @param {number} size @param {string} mode @param {number} coldMs @param {number[]} warm @param {number[]} floor @param {number} runs
 * @param {number} goldInjected @param {number} unrelatedInjected @param {number} load
 */
function rowFor(size, mode, coldMs, warm, floor, runs, goldInjected, unrelatedInjected, load) {
  const floorSorted = [...floor].sort((a, b) => a - b);
  const sorted = [...warm].sort((a, b) => a - b);
  rows.push({
    case: `${size} skills in ~/.claude/skills, hook claude, ${mode}`,
    mode,
    skills: size,
    cold_ms: Math.round(coldMs),
    warm_runs: runs,
    p50_ms: Math.round(percentile(sorted, 0.5)),
    p95_ms: Math.round(percentile(sorted, 0.95)),
    max_ms: Math.round(sorted[sorted.length - 1] ?? 0),
    target_p95_ms: size <= 1000 ? 250 : 1000,
    node_start_p50_ms: Math.round(percentile(floorSorted, 0.5)),
    node_start_p95_ms: Math.round(percentile(floorSorted, 0.95)),
    right_skill_injected: `${goldInjected}/${Math.ceil(runs / 2)}`,
    unrelated_with_context: `${unrelatedInjected}/${Math.floor(runs / 2)}`,
    load_avg_1m: Number(load.toFixed(1)),
    cpus: os.cpus().length,
  });
  process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
}

/** Stops the resident hook whose pid the file holds, and removes the file (the next one writes its own). @param {string} pidFile */
function stopResident(pidFile) {
  if (!existsSync(pidFile)) return;
  // Never 0 (a file read while a build that writes it in place was writing it): kill(0) signals this process's group.
  const pid = Number(readFileSync(pidFile, 'utf8'));
  try {
    if (pid > 0) process.kill(pid);
  } catch {
    // Gone already.
  }
  rmSync(pidFile, { force: true });
}

/** Wall ms of `node -e 0` spawned the same way: what any hook costs before its first line runs. */
function nodeStart() {
  const started = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The workspace's door folder, from the CLI itself (`toolshed why --door-folder`): one home for its name. @param {string} home @param {string} workspace */
function doorFolder(home, workspace) {
  const run = spawnSync(process.execPath, [cli, 'why', '--workspace', workspace, '--door-folder'], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, TOOLSHED_HOME: path.join(home, '.toolshed') },
  });
  if (run.status !== 0) throw new Error(`toolshed why --door-folder exited with ${run.status}: ${run.stderr}`);
  return run.stdout.trim();
}

/** Resolves once `ready()` holds (checked every 100 ms; the resident hook opens its door after the cold run). @param {() => boolean} ready */
async function until(ready) {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 100));
}
