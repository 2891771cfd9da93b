// @ts-check
// Reach: runs bench/reachBench.ts through tsx (it drives the real runtimes with the runtime
// tests' harness, which finds the packages relative to its own file, so it is not bundled).
// Needs `node esbuild.mjs` first (the hook is dist/cli.js, as users run it). Prints one JSON line
// last: {"title": "...", "rows": [...]}.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join('bench', 'reachBench.ts')], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
process.stderr.write(run.stderr);
process.stdout.write(run.stdout);
process.exitCode = run.status ?? 1;
