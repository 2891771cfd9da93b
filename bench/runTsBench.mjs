// @ts-check
// Bundles one bench/*.ts file (the same core code the extension and CLI run) with esbuild and
// runs it in a fresh Node process, passing its output through. Used by the *.bench.mjs files.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BENCH_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * @param {string} entry file name under bench/
 * @param {string[]} [nodeArgs]
 * @param {string[]} [args] passed to the bundle (after its path)
 */
export async function runTsBench(entry, nodeArgs = [], args = []) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'toolshed-bench-'));
  const bundle = path.join(out, `${path.basename(entry, '.ts')}.cjs`);
  try {
    await esbuild.build({
      entryPoints: [path.join(BENCH_ROOT, 'bench', entry)],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
      define: { __TOOLSHED_VERSION__: '"bench"' },
    });
    const run = spawnSync(process.execPath, [...nodeArgs, bundle, ...args], { cwd: BENCH_ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    process.stderr.write(run.stderr);
    process.stdout.write(run.stdout);
    process.exitCode = run.status ?? 1;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
