// @ts-check
// `npm run test:electron`: the same in-host suite under @vscode/test-electron (desktop VS Code).
// One suite, two launchers: the offline runner (runOffline.mjs) is what CI uses here; this one is
// for developer machines WITH internet, because runTests() downloads VS Code
// (update.code.visualstudio.com), which these machines cannot reach. Not runnable on this machine;
// on Linux without a display run it under xvfb-run.
//
// The driver extension (test/host/driver) is loaded as a second development extension so the
// scripted language model is registered; it finds no run config there, so it does not run the
// suite itself: --extensionTestsPath (driver/dist/electronTestsIndex.js) does.
// Env: TOOLSHED_VSCODE_VERSION (default 'stable'), TOOLSHED_HOST_GREP, TOOLSHED_HOST_TEST_TIMEOUT_MS.
import { runTests } from '@vscode/test-electron';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { buildHostSuite } from './buildSuite.mjs';
import { DRIVER_DIR, EXAMPLE_WORKSPACE, REPO_ROOT } from './offlineHost.mjs';
import { buildExtension } from './runOffline.mjs';

buildExtension();
const { suiteDir } = await buildHostSuite();

const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolshed-electron-'));
const workspace = path.join(scratch, 'workspace');
cpSync(EXAMPLE_WORKSPACE, workspace, { recursive: true }); // tests may write; keep examples/ clean
const resultsPath = path.join(scratch, 'results.json');

let exitCode = 1;
try {
  await runTests({
    version: process.env.TOOLSHED_VSCODE_VERSION || 'stable',
    extensionDevelopmentPath: [REPO_ROOT, DRIVER_DIR],
    extensionTestsPath: path.join(DRIVER_DIR, 'dist', 'electronTestsIndex.js'),
    extensionTestsEnv: {
      TOOLSHED_HOST_SUITE_DIR: suiteDir,
      TOOLSHED_MOCHA_PATH: path.dirname(createRequire(path.join(REPO_ROOT, 'package.json')).resolve('mocha/package.json')),
      TOOLSHED_TEST_RESULTS: resultsPath,
    },
    launchArgs: [
      workspace,
      '--disable-extensions', // other installed extensions; development extensions still load
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
    ],
  });
  exitCode = 0;
} catch (error) {
  console.error(`test:electron failed: ${/** @type {Error} */ (error).message ?? error}`);
}
if (existsSync(resultsPath)) {
  const results = JSON.parse(readFileSync(resultsPath, 'utf8'));
  console.log(`host (electron): ${results.passed} passed, ${results.failed} failed`);
  if (results.failed > 0 || results.passed === 0) exitCode = 1;
}
rmSync(scratch, { recursive: true, force: true });
process.exit(exitCode);
