/**
 * The library and requests of the extension-host size row (bench/hostSkillScale.bench.mjs): the
 * same library the real-pool rows load (poolLibrary.ts: the skills-at-scale pool, above its size
 * plus renamed `-fork` copies), written as one folder of source-repository sub-folders
 * (`<library>/<repository>/<skill>/SKILL.md`) that one `toolshed.skills.packs` entry names, and
 * every request of the requests file as `skill_search` takes it (whole, up to its query limit).
 *
 * Run bundled (runTsBench.mjs) with `<out folder> <size | "pool"> <requests.jsonl>`; writes
 * `<out>/library/` and `<out>/requests.json`, and prints nothing else.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { skillRequestText } from '../src/cli/commands/requestText';
import { librarySample, libraryLabel } from './poolLibrary';
import { materialisePool, readPool, readRequests } from './skillsAtScaleData';

function main(): void {
  const [out, sizeArg, requestsFile] = process.argv.slice(2);
  if (!out || !sizeArg || !requestsFile) throw new Error('usage: hostSkillScaleBench <out folder> <size | pool> <requests.jsonl>');
  const found = readRequests(requestsFile);
  mkdirSync(out, { recursive: true });
  if ('skip' in found) {
    writeFileSync(path.join(out, 'requests.json'), JSON.stringify({ skip: found.skip }));
    return;
  }
  const pool = readPool(process.cwd());
  const size = sizeArg === 'pool' ? pool.length : Number(sizeArg);
  if (!Number.isInteger(size) || size <= 0) throw new Error(`not a library size: ${sizeArg}`);
  const entries = librarySample(pool, size);
  const written = materialisePool(entries, path.join(out, 'library'));
  const texts = found.requests.map((r) => r.request);
  writeFileSync(
    path.join(out, 'requests.json'),
    JSON.stringify({
      library: libraryLabel(size, pool.length),
      files: entries.length,
      repositories: written.packs.length,
      requests: texts.map((text) => skillRequestText.text(text)),
      ...skillRequestText.describe(texts),
    }),
  );
}

main();
