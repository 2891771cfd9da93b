// @ts-check
// `npm test`: type-check, lint, unit tests (plain Node), the real agent runtimes (runtime clients), then the real-extension-host layer
// (offline code-server + Chromium: in-host suite, page checks, the `npm start` demo), then the
// packaging checks of the VSIX. Ends with the failing tests' names and one line,
// `N passed, M failed — <failing tests>`, summed over all layers; exits non-zero if anything
// failed or a layer ran no tests. TOOLSHED_SKIP_HOST=1 skips the host layer for quick local loops (never in CI).
// The unit, runtime-client and host layers each run in a private temp folder and fail if they
// leave anything there (scripts/privateTemp.mjs, docs/testing.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { leftBehind, withPrivateTemp } from './privateTemp.mjs';
import { summaryLines } from './testSummary.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** @param {string} title */
function step(title) {
  console.log(`\n=== ${title} ===`);
}

// 1. Type-check: fail fast, nothing else is worth running on a broken build. The TypeScript
// sources, then the JavaScript modules (scripts, host runners, benches) through their JSDoc.
step('type-check (tsc --noEmit -p ., tsc -p tsconfig.mjs.json)');
const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
const typeChecked = ['tsconfig.json', 'tsconfig.mjs.json'].every(
  (project) => spawnSync(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: ROOT, stdio: 'inherit' }).status === 0,
);
if (!typeChecked) {
  console.log('type-check failed');
  for (const line of summaryLines([{ layer: 'type-check', passed: 0, failed: 1, failedTitles: ['tsc --noEmit -p . (errors above)'] }])) console.log(line);
  process.exit(1);
}

// 1b. Lint: ESLint with typescript-eslint's type-aware rules, the layer rule and the file-size
// cap, zero warnings; Prettier's check (code files as .prettierrc.json formats them); then knip:
// no export that nothing imports (knip.json).
step('lint (eslint --max-warnings 0, prettier --check, knip)');
const eslint = path.join(path.dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js');
const prettier = path.join(path.dirname(require.resolve('prettier/package.json')), 'bin', 'prettier.cjs');
const knip = path.join(path.dirname(require.resolve('knip')), '..', 'bin', 'knip.js'); // knip exports no package.json
const lint = { passed: 0, failed: 0, failedTitles: /** @type {string[]} */ ([]) };
for (const [name, args] of /** @type {Array<[string, string[]]>} */ ([
  ['eslint', [eslint, '.', '--max-warnings', '0']],
  ['prettier', [prettier, '--check', '--log-level', 'warn', '.']],
  ['knip', [knip]],
])) {
  const clean = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' }).status === 0;
  lint[clean ? 'passed' : 'failed'] += 1;
  if (!clean) lint.failedTitles.push(`${name} (problems above)`);
  console.log(`${name}: ${clean ? 'clean' : 'problems above'}`);
}

// 2. Build first: the host layer loads the bundles, and a unit test compares the generated
// schemas in dist/ with the zod schema (a stale dist from an older build must not fail it).
step('build (npm run build)');
const built = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit' }).status === 0;
if (!built) console.log('build failed');

/**
 * A layer that left something in its private temp folder (scripts/privateTemp.mjs) gets one
 * failure saying what; the unit and runtime layers' own guard (test/tempGuard.ts) has already
 * named the test, so this catches what outlived it (a process that kept writing).
 * @param {string} stage
 * @param {{ failed: number, failedTitles: string[] }} layer
 * @param {string[]} left
 */
function failIfLeft(stage, layer, left) {
  if (left.length === 0) return;
  const line = leftBehind(stage, left);
  console.log(line);
  layer.failed += 1;
  layer.failedTitles.push(line);
}

// 2b. Unit tests: mocha per .mocharc.cjs (every unit test), spec output, counts via a summary reporter.
step('unit tests (mocha)');
const summaryFile = path.join(ROOT, 'test-results', 'unit-summary.json');
mkdirSync(path.dirname(summaryFile), { recursive: true });
rmSync(summaryFile, { force: true });
const mochaBin = path.join(path.dirname(require.resolve('mocha/package.json')), 'bin', 'mocha.js');
const { value: unitRun, left: unitLeft } = await withPrivateTemp(() =>
  spawnSync(process.execPath, [mochaBin, '--reporter', path.join(ROOT, 'scripts', 'mochaSummaryReporter.cjs')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TOOLSHED_MOCHA_SUMMARY: summaryFile },
  }),
);
const unit = { passed: 0, failed: 0, failedTitles: /** @type {string[]} */ ([]) };
if (existsSync(summaryFile)) {
  const stats = JSON.parse(readFileSync(summaryFile, 'utf8'));
  unit.passed = stats.passes;
  unit.failed = stats.failures;
  unit.failedTitles = stats.failedTitles ?? [];
}
if (unitRun.status !== 0 && unit.failed === 0) unit.failed = 1; // mocha crashed before counting
failIfLeft('unit', unit, unitLeft);
if (unit.passed + unit.failed === 0) {
  console.log('unit: no tests ran');
  unit.failed = 1;
}
console.log(`unit: ${unit.passed} passed, ${unit.failed} failed`);

// 2c. Runtime clients: the real agent runtimes (Copilot CLI, Claude Code, Codex from their npm
// packages) run offline against a scripted model on 127.0.0.1 (test/runtimes/), with Toolshed's
// hook and MCP server from the build above. A runtime whose package has no build for this
// platform is skipped with a message saying so.
step('runtime clients (mocha test/runtimes)');
const runtimeSummaryFile = path.join(ROOT, 'test-results', 'runtime-summary.json');
rmSync(runtimeSummaryFile, { force: true });
const runtimeSpecs = readdirSync(path.join(ROOT, 'test', 'runtimes'))
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => path.join('test', 'runtimes', name));
const { value: runtimeRun, left: runtimeLeft } = await withPrivateTemp(() =>
  spawnSync(process.execPath, [mochaBin, '--reporter', path.join(ROOT, 'scripts', 'mochaSummaryReporter.cjs'), ...runtimeSpecs], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TOOLSHED_MOCHA_SUMMARY: runtimeSummaryFile },
  }),
);
const runtimes = { passed: 0, failed: 0, failedTitles: /** @type {string[]} */ ([]) };
if (existsSync(runtimeSummaryFile)) {
  const stats = JSON.parse(readFileSync(runtimeSummaryFile, 'utf8'));
  runtimes.passed = stats.passes;
  runtimes.failed = stats.failures;
  runtimes.failedTitles = stats.failedTitles ?? [];
}
if (runtimeRun.status !== 0 && runtimes.failed === 0) runtimes.failed = 1; // mocha crashed before counting
failIfLeft('runtime clients', runtimes, runtimeLeft);
if (!built) {
  runtimes.failed += 1;
  runtimes.failedTitles.push('the build failed: the runtime tests ran an old dist/cli.js or none');
}
if (runtimes.passed + runtimes.failed === 0) {
  console.log('runtime clients: no tests ran');
  runtimes.failed = 1;
}
console.log(`runtime clients: ${runtimes.passed} passed, ${runtimes.failed} failed`);

// 3. Host layer: the offline extension host over the build above (reuses runOffline's functions).
// .ci/run sets TOOLSHED_EXPECT_COLD_HOST=1 with an empty TOOLSHED_HOST_CACHE, so every CI run
// installs the host the way a newcomer's first `npm test` does; that install is one check.
const host = { passed: 0, failed: 0, failedTitles: /** @type {string[]} */ ([]) };
const expectColdHost = process.env.TOOLSHED_EXPECT_COLD_HOST === '1' && process.env.TOOLSHED_SKIP_HOST !== '1';
const { hostCacheRoot, hostInstalled, HOST_PINS, OLDEST_HOST_PINS } = await import('../test/host/offlineHost.mjs');
const { hostVersionsToRun } = await import('../test/host/hostMatrix.mjs');
const cacheWasEmpty = !existsSync(hostCacheRoot()) || readdirSync(hostCacheRoot()).length === 0;
if (process.env.TOOLSHED_SKIP_HOST === '1') {
  step('host tests SKIPPED (TOOLSHED_SKIP_HOST=1)');
} else {
  if (!built) {
    host.failed = 1;
    host.failedTitles.push('not run: the build failed');
    console.log('host tests not run: the build failed');
  } else {
    step('host tests (offline VS Code host)');
    const { runHostLayer } = await import('../test/host/runOffline.mjs');
    const { value: hostResult, left: hostLeft } = await withPrivateTemp(() => runHostLayer({ build: false }));
    Object.assign(host, hostResult);
    failIfLeft('host', host, hostLeft);
    if (host.passed + host.failed === 0) {
      host.failed = 1;
      host.failedTitles.push('no host test ran');
    }
  }
  if (expectColdHost) {
    const versions = hostVersionsToRun();
    const ok = cacheWasEmpty && (!versions.newest || hostInstalled(HOST_PINS)) && (!versions.oldest || hostInstalled(OLDEST_HOST_PINS));
    console.log(
      `  ${ok ? '✓' : '✗'} the hosts were installed from an empty cache folder (${hostCacheRoot()})` +
        (ok ? '' : cacheWasEmpty ? ': the install did not complete' : ': the cache folder was not empty, so the cold path was not exercised'),
    );
    host[ok ? 'passed' : 'failed'] += 1;
    if (!ok) host.failedTitles.push('the host was installed from an empty cache folder');
  }
}

// 4. Packaging: the production VSIX a user installs, and what is (not) inside it.
step('package (npm run package)');
const pack = { passed: 0, failed: 0, failedTitles: /** @type {string[]} */ ([]) };
try {
  const { buildVsix, checkVsix } = await import('./package.mjs');
  buildVsix();
  for (const check of checkVsix()) {
    console.log(`  ${check.ok ? '✓' : '✗'} ${check.title}${check.ok || !check.detail ? '' : `: ${check.detail}`}`);
    pack[check.ok ? 'passed' : 'failed'] += 1;
    if (!check.ok) pack.failedTitles.push(check.title);
  }
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.log(`  ✗ packaging failed: ${message}`);
  pack.failed += 1;
  pack.failedTitles.push(`packaging failed: ${message}`);
}
console.log(`package: ${pack.passed} passed, ${pack.failed} failed`);

const layers = [
  { layer: 'lint', ...lint },
  { layer: 'unit', ...unit },
  { layer: 'runtime clients', ...runtimes },
  { layer: 'host', ...host },
  { layer: 'package', ...pack },
];
console.log('');
for (const line of summaryLines(layers)) console.log(line);
process.exit(layers.some((layer) => layer.failed > 0) ? 1 : 0);
