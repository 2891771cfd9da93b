// --extensionTestsPath module for @vscode/test-electron (desktop VS Code, needs internet to
// download VS Code): runs the same bundled suite as the offline host. One suite, two launchers.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { runSuite } from './runSuite';

// This file is bundled to test/host/driver/dist/electronTestsIndex.js.
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

export async function run(): Promise<void> {
  const results = await runSuite({
    suiteDir: process.env.TOOLSHED_HOST_SUITE_DIR ?? path.join(REPO_ROOT, 'out', 'host-suite'),
    mochaPath: process.env.TOOLSHED_MOCHA_PATH ?? path.join(REPO_ROOT, 'node_modules', 'mocha'),
    testTimeoutMs: Number(process.env.TOOLSHED_HOST_TEST_TIMEOUT_MS || 30_000),
    grep: process.env.TOOLSHED_HOST_GREP || undefined,
    vscodeVersion: vscode.version,
  });
  const resultsPath = process.env.TOOLSHED_TEST_RESULTS;
  if (resultsPath) {
    mkdirSync(path.dirname(resultsPath), { recursive: true });
    writeFileSync(resultsPath, JSON.stringify(results, null, 2));
  }
  if (results.failed > 0) throw new Error(`${results.failed} host test(s) failed`);
  if (results.passed === 0) throw new Error('No host tests ran');
}
