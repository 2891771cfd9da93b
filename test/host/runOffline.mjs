// @ts-check
// `npm run test:host`: the in-host suite in a real VS Code extension host (code-server, offline),
// then page checks (test/host/ui/*.mjs) against the same live workbench, then shutdown.
//
// How results flow: offlineHost.mjs copies the test-driver extension into the host's extensions
// folder with a run config (results path, suite folder, mocha path) beside its package.json. The
// driver activates on startup, runs mocha over out/host-suite inside the extension host and
// atomically writes results JSON to that path; this process polls for the file.
//
// Then the smoke subset on the oldest host `engines.vscode` allows (hostMatrix.mjs), and one line
// per host version.
//
// Env: TOOLSHED_HOST_TIMEOUT_MS (whole run, default 10 min), TOOLSHED_HOST_TEST_TIMEOUT_MS (per
// test, default 30 s), TOOLSHED_HOST_GREP (mocha grep), TOOLSHED_HOST_VERSIONS (all | newest |
// oldest; default all), TOOLSHED_HOST_CACHE, TOOLSHED_CHROMIUM.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildHostSuite } from './buildSuite.mjs';
import { runDemoPass } from './demo/demoPass.mjs';
import { HostSetupError, REPO_ROOT, runHostSuite } from './offlineHost.mjs';
import {
  HOST_PINS,
  OLDEST_HOST_PINS,
  SMOKE_PAGE_CHECKS,
  SMOKE_TESTS,
  SMOKE_UNTRUSTED_TESTS,
  hostVersionsToRun,
  pickTests,
  printMatrix,
  runOldestSmoke,
} from './hostMatrix.mjs';
import { failedTitles } from '../../scripts/testSummary.mjs';

export const UI_CHECKS_DIR = path.join(REPO_ROOT, 'test', 'host', 'ui');
/** Page checks of the trust-on pass (the example workspace untrusted). */
export const UNTRUSTED_UI_CHECKS_DIR = path.join(UI_CHECKS_DIR, 'untrusted');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');
const PAGE_CHECK_TIMEOUT_MS = 120_000;

/** Runs `node esbuild.mjs` (the extension bundle the host loads). */
/** @param {string[]} [flags] esbuild.mjs's flags (`--production`: the build the VSIX ships) */
export function buildExtension(flags = []) {
  const result = spawnSync(process.execPath, ['esbuild.mjs', ...flags], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`node esbuild.mjs ${flags.join(' ')} failed (exit ${result.status})`);
}

/**
 * @typedef {import('./ui/lib/workbench.mjs').Page} Page
 * @typedef {import('./ui/lib/workbench.mjs').PageCheckContext} PageCheckContext
 * @typedef {import('./offlineHost.mjs').TestResult} TestResult
 * @typedef {{ title: string, fullTitle: string, fn: (context: PageCheckContext) => Promise<void> }} PageCheck
 */

/**
 * Every exported function of every test/host/ui/*.mjs is one page check.
 * @returns {Promise<PageCheck[]>}
 */
export async function loadPageChecks(dir = UI_CHECKS_DIR) {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.mjs'))
    .sort();
  /** @type {PageCheck[]} */
  const checks = [];
  for (const file of files) {
    const module = await import(pathToFileURL(path.join(dir, file)).href);
    for (const [name, fn] of Object.entries(module)) {
      if (typeof fn === 'function') checks.push({ title: name, fullTitle: `${file} › ${name}`, fn });
    }
  }
  return checks;
}

/**
 * Runs page checks one after another on the open workbench; a failing check does not stop the rest.
 * @param {PageCheck[]} checks
 * @param {{ page: Page, workspace: string, screenshotDir?: string }} target
 * @returns {Promise<TestResult[]>}
 */
export async function runPageChecks(checks, { page, workspace, screenshotDir = SCREENSHOT_DIR }) {
  mkdirSync(screenshotDir, { recursive: true });
  /** @type {PageCheckContext} */
  const context = {
    page,
    workspace,
    screenshotDir,
    screenshot: (name) => page.screenshot({ path: path.join(screenshotDir, `${name}.png`) }),
  };
  /** @type {TestResult[]} */
  const results = [];
  for (const check of checks) {
    const started = Date.now();
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    try {
      await Promise.race([
        check.fn(context),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`page check timed out after ${PAGE_CHECK_TIMEOUT_MS} ms`)), PAGE_CHECK_TIMEOUT_MS);
        }),
      ]);
      results.push({ title: check.title, fullTitle: check.fullTitle, state: 'passed', durationMs: Date.now() - started });
    } catch (error) {
      const failure = /** @type {Error} */ (error);
      results.push({
        title: check.title,
        fullTitle: check.fullTitle,
        state: 'failed',
        durationMs: Date.now() - started,
        error: failure.message,
        stack: failure.stack,
      });
      await page.screenshot({ path: path.join(screenshotDir, `failed-${check.title}.png`) }).catch(() => {});
    } finally {
      clearTimeout(timer);
    }
  }
  return results;
}

/**
 * @param {string} heading
 * @param {TestResult[]} tests
 */
function printTests(heading, tests) {
  console.log(heading);
  for (const test of tests) {
    const duration = test.durationMs === undefined ? '' : ` (${test.durationMs} ms)`;
    if (test.state === 'passed') console.log(`  ✓ ${test.fullTitle}${duration}`);
    else if (test.state === 'pending') console.log(`  - ${test.fullTitle} (pending)`);
    else {
      console.log(`  ✗ ${test.fullTitle}${duration}`);
      const detail = test.stack && test.stack.includes(test.error ?? '') ? test.stack : `${test.error}\n${test.stack ?? ''}`;
      console.log(
        detail
          .trim()
          .split('\n')
          .slice(0, 14)
          .map((line) => `      ${line}`)
          .join('\n'),
      );
    }
  }
}

/** Suites whose title contains this run only in the trust-on pass. */
const UNTRUSTED_GREP = 'untrusted workspace';
/** Suites whose title contains this run only in the trust-on pass over the team workspace (run with the untrusted pass). */
const UNTRUSTED_TEAM_GREP = 'untrusted team workspace';
/** A workspace like a user's: two skills in .github/skills, two in a team pack its settings configure. */
const TEAM_WORKSPACE = path.join(REPO_ROOT, 'test', 'fixtures', 'team-workspace');
/** Workspace trust on, without the prompt or banner: the workspace opens in Restricted Mode. */
const UNTRUSTED_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
};

/** @type {(tests: TestResult[], state: string) => number} */
const count = (tests, state) => tests.filter((test) => test.state === state).length;

/**
 * The host layer: (build), bundle suite + driver, run in-host suite, run page checks, print.
 * Never throws: a setup error or timeout counts as one failure. Returns { passed, failed,
 * failedTitles } (each failing test named with its pass: in-host, page checks, untrusted, demo).
 */
export async function runHostLayer({ build = true } = {}) {
  try {
    if (build) buildExtension();
    const { suiteDir } = await buildHostSuite();
    const grep = process.env.TOOLSHED_HOST_GREP;
    // TOOLSHED_HOST_GREP='untrusted workspace' (or 'untrusted team workspace') runs only the trust-on passes.
    const untrustedOnly = grep === UNTRUSTED_GREP || grep === UNTRUSTED_TEAM_GREP;
    const versions = hostVersionsToRun();
    const timeoutMs = Number(process.env.TOOLSHED_HOST_TIMEOUT_MS || 10 * 60_000);
    /** @type {import('./hostMatrix.mjs').MatrixRow} */
    const newest = { vscodeVersion: undefined, codeServer: HOST_PINS.codeServer, smoke: [], full: { passed: 0, failed: 0 } };
    let passed = 0;
    let failed = 0;
    const failedNames = [];
    if (versions.newest && !untrustedOnly) {
      const checks = await loadPageChecks();
      const { results, pageChecks } = await runHostSuite({
        suiteDir,
        timeoutMs,
        grep: grep ?? `!${UNTRUSTED_GREP}|${UNTRUSTED_TEAM_GREP}`,
        pageChecks: ({ page, workspace }) => runPageChecks(checks, { page, workspace }),
      });
      newest.vscodeVersion = results.vscodeVersion;
      newest.smoke.push(...pickTests(results.tests, SMOKE_TESTS));
      printTests(`in-host suite (VS Code ${results.vscodeVersion ?? '?'}):`, results.tests);
      console.log(`  in-host: ${results.passed} passed, ${results.failed} failed${results.pending ? `, ${results.pending} pending` : ''}`);
      printTests('page checks (Playwright):', pageChecks);
      console.log(`  page checks: ${count(pageChecks, 'passed')} passed, ${count(pageChecks, 'failed')} failed`);
      passed += results.passed + count(pageChecks, 'passed');
      failed += results.failed + count(pageChecks, 'failed');
      failedNames.push(...failedTitles(results.tests, 'in-host'), ...failedTitles(pageChecks, 'page check'));
    }

    // Second pass with workspace trust ON and the example workspace untrusted: only the suites
    // named "untrusted workspace" run there (trust cannot be toggled inside a running host).
    if (versions.newest && (!grep || untrustedOnly)) {
      const untrustedChecks = await loadPageChecks(UNTRUSTED_UI_CHECKS_DIR);
      const untrusted = await runHostSuite({
        suiteDir,
        timeoutMs,
        grep: UNTRUSTED_GREP,
        settings: UNTRUSTED_SETTINGS,
        pageChecks: ({ page, workspace }) => runPageChecks(untrustedChecks, { page, workspace }),
      });
      newest.vscodeVersion ??= untrusted.results.vscodeVersion;
      newest.smoke.push(...pickTests(untrusted.results.tests, SMOKE_UNTRUSTED_TESTS));
      printTests('in-host suite, untrusted workspace (trust on):', untrusted.results.tests);
      console.log(`  untrusted: ${untrusted.results.passed} passed, ${untrusted.results.failed} failed`);
      printTests('page checks, untrusted workspace (Playwright):', untrusted.pageChecks);
      passed += untrusted.results.passed + count(untrusted.pageChecks, 'passed');
      failed += untrusted.results.failed + count(untrusted.pageChecks, 'failed') + (untrusted.results.passed === 0 ? 1 : 0);
      failedNames.push(...failedTitles(untrusted.results.tests, 'untrusted in-host'), ...failedTitles(untrusted.pageChecks, 'untrusted page check'));
      if (untrusted.results.passed === 0) failedNames.push('untrusted pass: no test passed');

      // The same trust rule on a workspace shaped like a user's (two skills in .github/skills, two in
      // a team pack its settings configure), where the example workspace's shape could hide a gap.
      const teamChecks = await loadPageChecks(path.join(UI_CHECKS_DIR, 'untrustedTeam'));
      const team = await runHostSuite({
        suiteDir,
        timeoutMs,
        grep: UNTRUSTED_TEAM_GREP,
        settings: UNTRUSTED_SETTINGS,
        workspaceSource: TEAM_WORKSPACE,
        pageChecks: ({ page, workspace }) => runPageChecks(teamChecks, { page, workspace }),
      });
      printTests('in-host suite, untrusted team workspace (trust on):', team.results.tests);
      console.log(`  untrusted team workspace: ${team.results.passed} passed, ${team.results.failed} failed`);
      printTests('page checks, untrusted team workspace (Playwright):', team.pageChecks);
      passed += team.results.passed + count(team.pageChecks, 'passed');
      failed += team.results.failed + count(team.pageChecks, 'failed') + (team.results.passed === 0 ? 1 : 0);
      failedNames.push(...failedTitles(team.results.tests, 'untrusted team workspace'), ...failedTitles(team.pageChecks, 'untrusted team page check'));
      if (team.results.passed === 0) failedNames.push('untrusted team workspace pass: no test passed');

      // Third pass: what `npm start` shows a newcomer (demo model, example tools, no test driver).
      const demo = await runDemoPass();
      printTests('npm start demo (offline demo model, Playwright):', demo.tests);
      passed += count(demo.tests, 'passed');
      failed += count(demo.tests, 'failed');
      failedNames.push(...failedTitles(demo.tests, 'npm start demo'));
    }
    /** @type {import('./hostMatrix.mjs').MatrixRow[]} */
    const rows = [];
    if (versions.newest) {
      newest.full = { passed, failed };
      rows.push(newest);
    }
    if (versions.oldest) {
      // Page checks there: the sidebar renders on the page (screenshots kept apart from the README's).
      const sidebarChecks = (await loadPageChecks()).filter((check) => SMOKE_PAGE_CHECKS.includes(check.title));
      const oldScreenshots = path.join(SCREENSHOT_DIR, `code-server-${OLDEST_HOST_PINS.codeServer}`);
      const oldest = await runOldestSmoke({
        suiteDir,
        timeoutMs,
        grep: untrustedOnly ? UNTRUSTED_GREP : grep,
        pageChecks: ({ page, workspace }) => runPageChecks(sidebarChecks, { page, workspace, screenshotDir: oldScreenshots }),
      });
      printTests(
        `smoke subset on the oldest supported host (VS Code ${oldest.vscodeVersion ?? '?'}, code-server ${OLDEST_HOST_PINS.codeServer}):`,
        oldest.tests,
      );
      passed += count(oldest.tests, 'passed');
      failed += count(oldest.tests, 'failed');
      failedNames.push(...failedTitles(oldest.tests, `smoke on VS Code ${oldest.vscodeVersion ?? OLDEST_HOST_PINS.codeServer}`));
      rows.push({ vscodeVersion: oldest.vscodeVersion, codeServer: OLDEST_HOST_PINS.codeServer, smoke: oldest.tests });
    }
    printMatrix(rows);
    console.log(`host: ${passed} passed, ${failed} failed`);
    return { passed, failed, failedTitles: failedNames };
  } catch (error) {
    console.error(error instanceof HostSetupError ? `host setup: ${error.message}` : `host run failed: ${/** @type {Error} */ (error).stack || error}`);
    console.log('host: 0 passed, 1 failed');
    const what =
      error instanceof HostSetupError ? `host setup: ${error.message}` : `host run failed: ${error instanceof Error ? error.message : String(error)}`;
    return { passed: 0, failed: 1, failedTitles: [what.split('\n')[0]], setupError: error instanceof HostSetupError };
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { passed, failed, setupError } = await runHostLayer();
  process.exit(setupError ? 2 : failed > 0 || passed === 0 ? 1 : 0);
}
