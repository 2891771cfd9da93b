// @ts-check
// Skill store at scale over the real public-skill pool: bench/skillPoolScaleBench.ts (bundled,
// run in a fresh Node process; each measurement in a child process of its own). Prints one JSON
// line last: {"title", "rows"}. A cold load reads its next files on the load thread the CLI
// ships (src/workers/parseWorker.ts, bundled here as esbuild.mjs bundles it);
// TOOLSHED_POOL_SCALE_LOAD_THREAD=0 loads on one thread.
import * as esbuild from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTsBench } from './runTsBench.mjs';

const folder = mkdtempSync(path.join(os.tmpdir(), 'toolshed-load-thread-'));
try {
  const script = path.join(folder, 'parseWorker.js');
  await esbuild.build({
    entryPoints: [new URL('../src/workers/parseWorker.ts', import.meta.url).pathname],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  process.env.TOOLSHED_POOL_SCALE_LOAD_THREAD_SCRIPT = script;
  await runTsBench('skillPoolScaleBench.ts');
} finally {
  rmSync(folder, { recursive: true, force: true });
}
