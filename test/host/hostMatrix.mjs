// The host-version matrix: the full in-host suite runs on the newest host (runOffline.mjs), and a
// smoke subset also runs on the oldest VS Code `engines.vscode` allows (OLDEST_HOST_PINS), so the
// manifest never claims a version nothing ran on. The subset is named by test titles here; the
// same titles are picked out of the newest host's results, so `npm test` prints both side by side.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HOST_PINS, OLDEST_HOST_PINS, REPO_ROOT, runHostSuite } from './offlineHost.mjs';

/** @typedef {import('./offlineHost.mjs').TestResult} TestResult */
/** @typedef {{ vscodeVersion?: string, codeServer: string, smoke: TestResult[], full?: { passed: number, failed: number } }} MatrixRow */

/** Trust off: activation, @toolshed with a deferred tool, another extension's LM tool, views, a diagnostic, native skills. */
export const SMOKE_TESTS = Object.freeze([
  'smoke: extension in a real host',
  'tool_search finds a deferred tool, it is activated, called, and the answer uses its result',
  'tool_invoke runs a found tool; denied and unknown tools get the same answer',
  'the sidebar opens and the walkthrough can be opened',
  'Skill Directory lists the built-in pack and the workspace skills, with counts',
  'a missing trigger is flagged on the frontmatter, fixed by the quick fix, and the diagnostic goes away',
  'native agent skills side by side',
]);

/** Page checks (test/host/ui) run in the trusted launch: the sidebar really renders. */
export const SMOKE_PAGE_CHECKS = Object.freeze(['sidebarListsSkills']);

/** Trust on, the example workspace untrusted: Restricted Mode. */
export const SMOKE_UNTRUSTED_TESTS = Object.freeze([
  'the workspace really is untrusted and Toolshed still activates',
  'skills from workspace packs are neither returned nor injected; built-in skills are',
  "one rule for running tools: tool_invoke and @toolshed's own loop both refuse, with the same answer, and nothing runs",
]);

/** @param {string} text */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A mocha grep (a regular expression source) matching any of `titles`.
 * @param {readonly string[]} titles
 */
export function titlesGrep(titles) {
  return titles.map(escapeRegExp).join('|');
}

/**
 * The tests whose full title contains one of `titles`.
 * @template {{ fullTitle: string }} T
 * @param {T[]} tests
 * @param {readonly string[]} titles
 * @returns {T[]}
 */
export function pickTests(tests, titles) {
  return tests.filter((test) => titles.some((title) => test.fullTitle.includes(title)));
}

/** The lowest version `engines.vscode` allows (`^1.104.0` → `1.104.0`). */
export function declaredMinimumVSCode(repoRoot = REPO_ROOT) {
  const range = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).engines?.vscode ?? '';
  const match = /^\^?(\d+\.\d+\.\d+)$/.exec(range.trim());
  return match ? match[1] : undefined;
}

/** Which hosts run (TOOLSHED_HOST_VERSIONS: `all`, the default, `newest` or `oldest`). */
export function hostVersionsToRun(env = process.env) {
  const choice = env.TOOLSHED_HOST_VERSIONS || 'all';
  if (!['all', 'newest', 'oldest'].includes(choice)) throw new Error(`TOOLSHED_HOST_VERSIONS must be all, newest or oldest (got ${choice})`);
  return { newest: choice !== 'oldest', oldest: choice !== 'newest' };
}

/**
 * The titles of one pass that a TOOLSHED_HOST_GREP selects ('untrusted workspace': the Restricted Mode pass).
 * @param {{ titles: readonly string[], settings: Record<string, unknown> }} pass
 * @param {string | undefined} grep
 */
function smokeTitlesFor(pass, grep) {
  if (!grep || grep.startsWith('!')) return pass.titles;
  if (grep === 'untrusted workspace') return pass.settings === TRUST_ON ? pass.titles : [];
  const pattern = new RegExp(grep);
  return pass.titles.filter((title) => pattern.test(title));
}

const TRUST_ON = { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never' };

/**
 * The smoke subset on the oldest host: one trusted and one untrusted launch. Returns the tests
 * (a failing launch counts as one failed test) and the VS Code version the host reported.
 * @param {{ suiteDir: string, timeoutMs: number, grep?: string,
 *   pageChecks?: (context: { page: import('./offlineHost.mjs').Page, workspace: string }) => Promise<TestResult[]> }} options
 * @returns {Promise<{ tests: TestResult[], vscodeVersion?: string }>}
 */
export async function runOldestSmoke({ suiteDir, timeoutMs, grep, pageChecks }) {
  const pins = OLDEST_HOST_PINS;
  const passes = [
    { label: 'trusted', titles: SMOKE_TESTS, settings: {}, pageChecks: grep ? undefined : pageChecks },
    { label: 'Restricted Mode', titles: SMOKE_UNTRUSTED_TESTS, settings: TRUST_ON, pageChecks: undefined },
  ];
  /** @type {TestResult[]} */
  const tests = [];
  /** @type {string | undefined} */
  let vscodeVersion;
  for (const pass of passes) {
    const titles = smokeTitlesFor(pass, grep);
    if (titles.length === 0) continue;
    try {
      const { results, pageChecks: pageResults } = await runHostSuite({
        suiteDir,
        timeoutMs,
        grep: titlesGrep(titles),
        settings: pass.settings,
        pins,
        pageChecks: pass.pageChecks,
      });
      vscodeVersion = results.vscodeVersion ?? vscodeVersion;
      tests.push(...results.tests.map((test) => ({ ...test, fullTitle: `[${pass.label}] ${test.fullTitle}` })));
      tests.push(...pageResults.map((check) => ({ ...check, fullTitle: `[${pass.label}, page] ${check.fullTitle}` })));
      if (results.tests.length === 0)
        tests.push({
          title: pass.label,
          fullTitle: `[${pass.label}] no smoke test ran`,
          state: 'failed',
          error: `grep matched nothing: ${titlesGrep(titles)}`,
        });
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      tests.push({
        title: pass.label,
        fullTitle: `[${pass.label}] host run on code-server ${pins.codeServer}`,
        state: 'failed',
        error: failure.message,
        stack: failure.stack,
      });
    }
  }
  const declared = declaredMinimumVSCode();
  if (vscodeVersion !== undefined || tests.length > 0) {
    const same = vscodeVersion === declared;
    tests.push({
      title: 'engines.vscode',
      fullTitle: `engines.vscode's lowest version (${declared ?? 'not an exact ^x.y.z'}) is the version this smoke run used (${vscodeVersion ?? 'none'})`,
      state: same ? 'passed' : 'failed',
      ...(same ? {} : { error: `package.json engines.vscode and OLDEST_HOST_PINS (code-server ${pins.codeServer}) disagree: raise or lower them together` }),
    });
  }
  return { tests, vscodeVersion };
}

/** @param {TestResult[]} tests @param {string} state */
const count = (tests, state) => tests.filter((test) => test.state === state).length;

/**
 * One line per host version: the smoke subset's counts (and the full suite's on the newest).
 * @param {MatrixRow[]} rows
 */
export function printMatrix(rows) {
  console.log(
    "host versions (smoke subset: activation, @toolshed + deferred tool, another extension's LM tool, views, a *.skill.md diagnostic, native skills, Restricted Mode):",
  );
  for (const row of rows) {
    const smoke = `smoke ${count(row.smoke, 'passed')} passed, ${count(row.smoke, 'failed')} failed${count(row.smoke, 'pending') ? `, ${count(row.smoke, 'pending')} skipped` : ''}`;
    const full = row.full ? `; full suite ${row.full.passed} passed, ${row.full.failed} failed` : '';
    console.log(`  VS Code ${row.vscodeVersion ?? '?'} (code-server ${row.codeServer}): ${smoke}${full}`);
  }
}

export { HOST_PINS, OLDEST_HOST_PINS };
