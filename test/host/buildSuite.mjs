// @ts-check
// Bundles what runs inside the extension host: the test-driver extension
// (test/host/driver/*.ts -> test/host/driver/dist/) and the suite
// (test/host/suite/**/*.test.ts -> out/host-suite/**/*.test.js). `vscode` and `mocha` stay external:
// the host provides `vscode`; the driver requires the repo's mocha by absolute path.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DRIVER_DIR, REPO_ROOT } from './offlineHost.mjs';

export const SUITE_SOURCE_DIR = path.join(REPO_ROOT, 'test', 'host', 'suite');
export const SUITE_OUT_DIR = path.join(REPO_ROOT, 'out', 'host-suite');

/**
 * @param {string} folder
 * @returns {string[]}
 */
function testSources(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return testSources(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline', // stack traces in failures point at the .ts sources
  external: ['vscode', 'mocha'],
  logLevel: 'warning',
};

export async function buildHostSuite() {
  rmSync(SUITE_OUT_DIR, { recursive: true, force: true });
  rmSync(path.join(DRIVER_DIR, 'dist'), { recursive: true, force: true });
  const suiteEntries = testSources(SUITE_SOURCE_DIR);
  if (suiteEntries.length === 0) throw new Error(`No *.test.ts files under ${SUITE_SOURCE_DIR}`);
  await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: ['extension.ts', 'electronTestsIndex.ts'].map((file) => path.join(DRIVER_DIR, file)),
      outdir: path.join(DRIVER_DIR, 'dist'),
    }),
    esbuild.build({ ...common, entryPoints: suiteEntries, outbase: SUITE_SOURCE_DIR, outdir: SUITE_OUT_DIR }),
  ]);
  return { suiteDir: SUITE_OUT_DIR, files: suiteEntries.length };
}
