// Memory benchmark: bundles bench/memoryBench.ts (the core code the extension runs) and runs each
// in a fresh process with --expose-gc. Prints one JSON line last: {"title", "rows"}.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = mkdtempSync(path.join(os.tmpdir(), 'toolshed-memory-bench-'));
const bundle = path.join(out, 'memoryBench.cjs');
try {
  await esbuild.build({ entryPoints: [path.join(root, 'bench', 'memoryBench.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning', define: { __TOOLSHED_VERSION__: '"bench"' } });
  const run = spawnSync(process.execPath, ['--expose-gc', bundle], { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20 });
  process.stderr.write(run.stderr);
  if (run.status !== 0) throw new Error(`memory bench exited with ${run.status}`);
  const { rows } = JSON.parse(run.stdout.trim().split('\n').pop());
  console.log(JSON.stringify({ title: 'Memory (RSS growth of a session: tool index + skill store)', rows }));
} finally {
  rmSync(out, { recursive: true, force: true });
}
