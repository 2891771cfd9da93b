// Merge-with-lineage and snapshot benchmarks: bundles bench/lineageBench.ts (the same core code the extension runs)
// and runs it. Prints one JSON line last: {"title": "...", "rows": [...]}.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = mkdtempSync(path.join(os.tmpdir(), 'toolshed-lineage-bench-'));
const bundle = path.join(out, 'lineageBench.cjs');
try {
  await esbuild.build({ entryPoints: [path.join(root, 'bench', 'lineageBench.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning', define: { __TOOLSHED_VERSION__: '"bench"' } });
  const run = spawnSync(process.execPath, [bundle], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  process.stderr.write(run.stderr);
  process.stdout.write(run.stdout);
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
