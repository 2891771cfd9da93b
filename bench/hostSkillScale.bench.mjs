// @ts-check
// Skill store at scale in the extension host: the real-pool library (bench/hostSkillScaleBench.ts
// writes it) named by a `toolshed.skills.packs` user setting, loaded by the real extension in a
// real extension host (code-server, offline: test/host/offlineHost.mjs, the host tests' starter),
// where the in-host suite test/host/suite/hostSkillScale.test.ts measures a cold start, then a warm
// start in a new extension host after a window reload, `skill_search` through vscode.lm.invokeTool (and
// beside each call the test driver's echo tool: the workbench's own round trip for an LM tool; the
// echo tool is also asked beside the first call of each start), and the host process's memory. Prints one JSON line last: {"title", "rows"}.
//
// About a minute here (part of `npm run bench`; skipped where the host is not installed).
// Env: TOOLSHED_BENCH_HOST=0 skips it, TOOLSHED_HOST_SCALE_SIZE (default 10000; "pool" = the whole pool),
// TOOLSHED_HOST_SCALE_ROUNDS (timed rounds of the requests, default 1), TOOLSHED_HOST_SCALE_BUILD
// ("development": the build with source maps the host tests run; default the production build the VSIX ships), TOOLSHED_HOST_TIMEOUT_MS
// (the whole host run, default 30 min), TOOLSHED_HOST_SCALE_PROFILE (a folder: a CPU profile and
// an allocation-sampling profile of each start, up to its first answer, are written there, and a
// heap snapshot of the host once the warm start has settled), TOOLSHED_START_TRACE=1 (each row also holds `trace`: the marks the
// extension leaves on the path of the first answer, core/platform/startTrace.ts, and `loop_gaps`: the host's event loop held ≥ 8 ms, both in ms;
// `load_trace` and `load_loop_gaps`: the marks after the first answer, and the gaps, until the load's end),
// TOOLSHED_HOST_SCALE_BASELINE=0 (no one-skill library run, whose readings give the skills' own share: `skills_*_mb`).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildHostSuite } from '../test/host/buildSuite.mjs';
import { hostInstalled, REPO_ROOT, runHostSuite } from '../test/host/offlineHost.mjs';
import { buildExtension } from '../test/host/runOffline.mjs';
import { runTsBench } from './runTsBench.mjs';

const title =
  'Skill store at scale in the extension host (real public-skill pool, code-server: cold, warm in a new extension host after a window reload, skill_search as the LM tool, memory)';
/** The suite's title (mocha grep) and the pack entry's name; the config file the suite looks for. */
const SUITE = 'skill store at scale in the extension host (bench)';
const PACK = 'public-skills';
const CONFIG_FILE = 'toolshed-host-bench.json';

/** @param {string} skipped */
function skip(skipped) {
  console.log(JSON.stringify({ title, rows: [], skipped }));
}

function profileDir() {
  const dir = process.env.TOOLSHED_HOST_SCALE_PROFILE;
  if (!dir) return undefined;
  mkdirSync(path.resolve(dir), { recursive: true });
  return path.resolve(dir);
}

/**
 * One library of `size` files measured in the host: its cold and warm rows (with Toolshed's share
 * of the host's memory over the host before activation), or the reason it was skipped.
 * @param {string} size
 * @param {{ build: string, suiteDir: string }} built
 * @returns {Promise<{ rows: Array<Record<string, unknown>>, failed: boolean } | { skip: string }>}
 */
async function measureLibrary(size, built) {
  const rounds = Number(process.env.TOOLSHED_HOST_SCALE_ROUNDS ?? 1);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-host-scale-'));
  try {
    await runTsBench('hostSkillScaleBench.ts', [], [tmp, size, path.join(REPO_ROOT, 'bench', 'data', 'skills-at-scale', 'requests.jsonl')]);
    if (process.exitCode) throw new Error('writing the library failed');
    const written = JSON.parse(readFileSync(path.join(tmp, 'requests.json'), 'utf8'));
    if (written.skip) return { skip: written.skip };

    const workspace = path.join(tmp, 'workspace');
    mkdirSync(workspace, { recursive: true });
    const rowsFile = path.join(tmp, 'rows.jsonl');
    writeFileSync(path.join(workspace, CONFIG_FILE), JSON.stringify({ pack: PACK, requests: written.requests, rowsFile, rounds, profileDir: profileDir() }));
    writeFileSync(path.join(workspace, 'README.md'), 'The extension-host size bench (bench/hostSkillScale.bench.mjs).\n');

    const { results } = await runHostSuite({
      suiteDir: built.suiteDir,
      grep: SUITE,
      workspaceSource: workspace,
      timeoutMs: Number(process.env.TOOLSHED_HOST_TIMEOUT_MS || 30 * 60_000),
      // As a user adds a folder of skills: one pack entry in the user settings.
      settings: { 'toolshed.skills.packs': [{ name: PACK, path: path.join(tmp, 'library'), format: 'skill-md' }] },
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const failed = results.tests.filter((test) => test.state === 'failed');
    for (const test of failed) process.stderr.write(`${test.fullTitle}: ${test.error}\n${test.stack ?? ''}\n`);
    /** @type {Array<Record<string, unknown>>} */
    const rows = existsSync(rowsFile)
      ? readFileSync(rowsFile, 'utf8')
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line))
      : [];
    for (const row of rows) {
      const before = Number(row.before_rss_mb);
      Object.assign(row, {
        library: written.library,
        build: built.build,
        request_text: written.request_text,
        // Over the host before Toolshed activated (so Toolshed's own code and sql.js count too).
        toolshed_rss_after_searches_mb: mb(Number(row.after_searches_rss_mb) - before),
        toolshed_peak_rss_mb: mb(Number(row.peak_rss_mb) - before),
        ...(row.after_gc_rss_mb === undefined ? {} : { toolshed_rss_after_gc_mb: mb(Number(row.after_gc_rss_mb) - before) }),
        ...(row.settled_rss_mb === undefined ? {} : { toolshed_rss_settled_mb: mb(Number(row.settled_rss_mb) - before) }),
        ...(row.idle_rss_mb === undefined ? {} : { toolshed_rss_idle_mb: mb(Number(row.idle_rss_mb) - before) }),
        // Toolshed's share of its first answer: how much later than the echo tool asked at the same moment (the workbench's own round trip then).
        ...(typeof row.echo_first_answer_ms === 'number' ? { first_answer_over_echo_ms: Number(row.first_answer_ms) - row.echo_first_answer_ms } : {}),
      });
    }
    if (failed.length > 0 || rows.length < 2)
      process.stderr.write(`host run (${size}): ${results.passed} passed, ${failed.length} failed, ${rows.length} of 2 rows\n`);
    return { rows, failed: failed.length > 0 || rows.length < 2 };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** @param {number} value */
const mb = (value) => Math.round(value * 10) / 10;

/**
 * Toolshed's memory readings of a row that have a twin in the one-skill library's row of the same
 * start. Not the idle reading: whether V8 has given its young generation back by then differs from
 * run to run (±130 MB), so a difference of two idle readings says nothing about the skills.
 */
const SKILLS_SHARE = /** @type {const} */ ([
  ['toolshed_peak_rss_mb', 'skills_peak_rss_mb'],
  ['toolshed_rss_settled_mb', 'skills_rss_settled_mb'],
]);

async function main() {
  if (process.env.TOOLSHED_BENCH_HOST === '0') return skip('TOOLSHED_BENCH_HOST=0');
  if (!hostInstalled()) return skip('the offline VS Code host is not installed (node test/host/runOffline.mjs installs it)');
  const size = process.env.TOOLSHED_HOST_SCALE_SIZE ?? '10000';
  // What the VSIX ships (minified, no source map: Node holds a loaded source map in memory), unless asked otherwise.
  const build = process.env.TOOLSHED_HOST_SCALE_BUILD === 'development' ? 'development' : 'production';
  buildExtension(build === 'production' ? ['--production'] : []);
  const { suiteDir } = await buildHostSuite();
  const wallStart = Date.now();
  const measured = await measureLibrary(size, { build, suiteDir });
  if ('skip' in measured) return skip(measured.skip);
  // The same starts over a library of one skill (Toolshed's code, sql.js, its other stores, and
  // V8's young generation grown to its size in every start): the skills' own share is the
  // difference, as the door rows subtract an empty library's run. TOOLSHED_HOST_SCALE_BASELINE=0 skips it.
  const baseline = process.env.TOOLSHED_HOST_SCALE_BASELINE === '0' || size === '1' ? undefined : await measureLibrary('1', { build, suiteDir });
  const rows = measured.rows;
  if (baseline && !('skip' in baseline)) {
    for (const row of rows) {
      const twin = baseline.rows.find((other) => other.start === row.start);
      if (!twin) continue;
      for (const [reading, share] of SKILLS_SHARE) {
        if (typeof row[reading] === 'number' && typeof twin[reading] === 'number') row[share] = mb(Number(row[reading]) - Number(twin[reading]));
      }
    }
    rows.push(...baseline.rows.map((row) => ({ ...row, start: `${row.start} (one-skill library: the fixed cost)` })));
  }
  if (measured.failed || (baseline && 'failed' in baseline && baseline.failed)) process.exitCode = 1;
  console.log(JSON.stringify({ title, wall_s: Math.round((Date.now() - wallStart) / 1000), rows }));
}

await main();
