import * as path from 'node:path';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import { makeService, pack } from './unit/skills/helpers';
async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'prof-'));
  const n = Number(process.argv[2] ?? 5000);
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ name: `pack.s.x${i}`, trigger: `do thing ${i % 97} with widget ${i % 13}`, steps: ['a', 'b'], tags: ['t' + (i % 20)] }));
  for (let f = 0; f * 3000 < n; f++) writeFileSync(path.join(dir, `p${f}.skill.jsonl`), lines.slice(f * 3000, (f + 1) * 3000).join('\n'));
  const { service } = await makeService();
  let t = performance.now();
  await service.loadPacks([pack('s', dir)]);
  console.log('load', n, performance.now() - t);
  t = performance.now();
  for (let i = 0; i < 50; i++) await service.search({ query: `how to do thing ${i} with widget` }, { includeWorkspacePacks: true });
  console.log('search avg', (performance.now() - t) / 50);
}
main();
