// @ts-check
// Skill store at scale: 1,000 and 10,000 synthetic SKILL.md skills (50,000 with
// TOOLSHED_BENCH_SKILLS_50K=1), loaded through the built CLI (`dist/cli.js bench skills`, the
// pack loader and store the extension runs) in a child process per row, so memory is that
// process's own. Per size: a cold load into an empty storage folder, then a warm start from what
// that load persisted (same files, nothing changed), lexical and with the bundled word vectors.
// Prints one JSON line last: {"title", "rows"}.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliJson } from './cliRuns.mjs';
import { writeSkills } from './syntheticSkills.mjs';

// TOOLSHED_BENCH_SKILLS_SIZES=10000 (a comma list) runs only those sizes.
const SIZES = process.env.TOOLSHED_BENCH_SKILLS_SIZES
  ? process.env.TOOLSHED_BENCH_SKILLS_SIZES.split(',').map(Number)
  : process.env.TOOLSHED_BENCH_SKILLS_50K === '1'
    ? [1000, 10000, 50000]
    : [1000, 10000];

const rows = [];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-skill-scale-'));
try {
  for (const size of SIZES) {
    const data = path.join(tmp, `skills-${size}`);
    const { packs, queriesFile } = writeSkills(data, size, 32);
    for (const embedder of ['none', 'bundled']) {
      const storeDir = path.join(tmp, `store-${size}-${embedder}`);
      for (const start of ['cold', 'warm']) {
        // One round of the 100 queries after one warm-up round: at 50,000 skills a round of many
        // more would take minutes on a small machine.
        const out = runCliJson(
          ['bench', 'skills', '--packs', ...packs, '--queries', queriesFile, '--store', storeDir, '--embedder', embedder, '--rounds', '1'],
          ['--expose-gc'],
        );
        rows.push({
          case: `${size} skills, ${start} start, ${embedder === 'none' ? 'lexical' : 'bundled vectors'}`,
          skills: out.skills,
          start,
          embedder,
          startup_ms: Math.round(out.open_ms + out.load_ms),
          open_ms: out.open_ms,
          load_ms: out.load_ms,
          startup_cpu_ms: Math.round(out.open_cpu_ms + out.load_cpu_ms),
          p50_ms: out.p50_ms,
          p95_ms: out.p95_ms,
          recall_at_1: out.recall_at_1,
          peak_rss_mb: out.peak_rss_mb,
          heap_mb: out.heap_mb,
          external_mb: out.external_mb,
        });
        process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
      }
    }
    rmSync(data, { recursive: true, force: true });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(JSON.stringify({ title: 'Skill store at scale (SKILL.md packs through dist/cli.js bench skills; cold load, warm start, search, memory)', rows }));
