// `npm test`: type-check, unit tests (plain Node), then the real-extension-host layer
// (offline code-server + Chromium: in-host suite and page checks). Ends with one line,
// `N passed, M failed`, summed over all layers; exits non-zero if anything failed or a layer ran
// no tests. TOOLSHED_SKIP_HOST=1 skips the host layer for quick local loops (never in CI).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function step(title) {
  console.log(`\n=== ${title} ===`);
}

// 1. Type-check: fail fast, nothing else is worth running on a broken build.
step('type-check (tsc --noEmit -p .)');
const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
if (spawnSync(process.execPath, [tsc, '--noEmit', '-p', '.'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) {
  console.log('type-check failed');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// 2. Unit tests: mocha per .mocharc.json, spec output, counts via a summary reporter.
step('unit tests (mocha)');
const summaryFile = path.join(ROOT, 'test-results', 'unit-summary.json');
mkdirSync(path.dirname(summaryFile), { recursive: true });
rmSync(summaryFile, { force: true });
const mochaBin = path.join(path.dirname(require.resolve('mocha/package.json')), 'bin', 'mocha.js');
const unitRun = spawnSync(process.execPath, [mochaBin, '--reporter', path.join(ROOT, 'scripts', 'mochaSummaryReporter.cjs')], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, TOOLSHED_MOCHA_SUMMARY: summaryFile },
});
const unit = { passed: 0, failed: 0 };
if (existsSync(summaryFile)) {
  const stats = JSON.parse(readFileSync(summaryFile, 'utf8'));
  unit.passed = stats.passes;
  unit.failed = stats.failures;
}
if (unitRun.status !== 0 && unit.failed === 0) unit.failed = 1; // mocha crashed before counting
if (unit.passed + unit.failed === 0) {
  console.log('unit: no tests ran');
  unit.failed = 1;
}
console.log(`unit: ${unit.passed} passed, ${unit.failed} failed`);

// 3. Host layer: build, then the offline extension host (reuses runOffline's functions).
const host = { passed: 0, failed: 0 };
if (process.env.TOOLSHED_SKIP_HOST === '1') {
  step('host tests SKIPPED (TOOLSHED_SKIP_HOST=1)');
} else {
  step('build (npm run build)');
  if (spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) {
    host.failed = 1;
    console.log('build failed');
  } else {
    step('host tests (offline VS Code host)');
    const { runHostLayer } = await import('../test/host/runOffline.mjs');
    Object.assign(host, await runHostLayer({ build: false }));
    if (host.passed + host.failed === 0) host.failed = 1;
  }
}

const passed = unit.passed + host.passed;
const failed = unit.failed + host.failed;
console.log('');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
