// @ts-check
// `npm run bench`: builds, then runs every bench/*.bench.mjs in order. Each prints one JSON
// object on its last stdout line: { "title": "...", "rows": [ {...}, ... ] }. This script
// prints each as a table and writes everything to bench/results/latest.json. Each bench runs
// with a private temp folder (scripts/privateTemp.mjs): a bench that leaves anything there fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { leftBehind, withPrivateTemp } from './privateTemp.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: root, stdio: 'inherit' });

const benches = readdirSync(path.join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.mjs'))
  .sort();
const results = [];
let failed = false;
for (const file of benches) {
  const { value: run, left } = await withPrivateTemp(() =>
    spawnSync(process.execPath, [path.join('bench', file)], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }),
  );
  process.stderr.write(run.stderr);
  if (left.length > 0) {
    failed = true;
    console.error(leftBehind(file, left));
  }
  const last = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0) {
    failed = true;
    console.error(`${file} exited with ${run.status}`);
    continue;
  }
  const result = JSON.parse(last);
  results.push({ file, ...result });
  console.log(`\n## ${result.title}`);
  console.table(result.rows);
}
mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
writeFileSync(path.join(root, 'bench', 'results', 'latest.json'), JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
console.log(JSON.stringify({ results }));
process.exitCode = failed ? 1 : 0;
