/**
 * Hostile-file benchmark (bundled and run by bench/hostileFiles.bench.mjs). For each
 * pathological file under the 1 MiB cap: the parser's time alone, then `loadPacks` of a pack
 * holding it beside a good file, as VS Code loads it (files over 64 KB parse on the worker thread
 * of `dist/parseWorker.js`: run `npm run build` first) — total time, the longest event-loop stall during the load (a
 * 1 ms timer measures the gaps), problems listed, and whether the good file's skill loaded; then
 * the same for `*.tools.yaml` example files (load = read + parse + validate); last, the
 * alias bomb (an 800 KB file that expands to 39 MB) searched with the CLI in a fresh process
 * beside the built-in pack searched the same way: wall time and peak RSS (median of 3).
 * Prints one JSON line last: {"title", "rows"}.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nullLogger } from '../src/core/platform/basicPorts';
import { nodeFileSystem } from '../src/core/platform/nodeFileSystem';
import { folderPack } from '../src/core/skills/packs/skillPackSources';
import { benchEngine, benchSkillService } from './benchServices';
import { parseSkillDocument } from '../src/core/skills/packs/document/skillDocumentParser';
import { loadToolExampleFiles } from '../src/core/tools/examples/toolExamples';
import { OffThreadRunner } from '../src/core/platform/offThreadRunner';
import { offThreadSkillParse } from '../src/core/skills/packs/document/offThreadParser';
import { offThreadToolExamplesParse } from '../src/core/tools/examples/offThreadExamples';

const round = (v: number) => Number(v.toFixed(1));

/** One anchored 800 KB string referenced 49 times: 39 MB once the aliases are expanded. */
const ALIAS_BOMB = `name: bomb\ntrigger: &t "${'w '.repeat(399_999)}w"\nsteps: [${Array.from({ length: 49 }, () => '*t').join(', ')}]\n`;

const unknownKeys = Array.from({ length: 50_000 }, (_, i) => `k${i}: v`).join('\n');
const CASES: Array<{ name: string; file: string; text: string }> = [
  { name: 'self-referencing alias', file: 'alias.skill.yaml', text: 'a: &a [*a]\ntrigger: x\nsteps: [a]\n' },
  { name: '100k lines of {}', file: 'empty.skill.jsonl', text: '{}\n'.repeat(100_000) },
  { name: '50k unknown keys (YAML)', file: 'keys.skill.yaml', text: `trigger: t\nsteps: [a]\n${unknownKeys}\n` },
  {
    name: '50k unknown keys (JSON)',
    file: 'keys.skill.json',
    text: JSON.stringify(Object.fromEntries([['trigger', 't'], ['steps', ['a']], ...Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 'v'])])),
  },
  {
    name: '34k valid skills (JSONL)',
    file: 'many.skill.jsonl',
    text: Array.from({ length: 34_000 }, () => JSON.stringify({ trigger: 't', steps: ['a'] })).join('\n'),
  },
  { name: 'alias bomb: 800 KB, 39 MB expanded', file: 'bomb.skill.yaml', text: ALIAS_BOMB },
  { name: '3,000-character description', file: 'long/SKILL.md', text: `---\nname: long\ndescription: ${'word '.repeat(599)}final\n---\nBody\n` },
];

const exampleEntries = (count: number, copies: number) =>
  `examples:\n${Array.from({ length: count * copies }, (_, i) => `  tool_${i % count}:\n    - args: { q: "x" }\n`).join('')}`;
/** `*.tools.yaml` files (tool use examples, trusted workspaces only), read as the extension reads them. */
const EXAMPLE_CASES: Array<{ name: string; text: string }> = [
  { name: '*.tools.yaml, 20,000 tools', text: exampleEntries(20_000, 1) },
  { name: '*.tools.yaml, 14,000 tools each listed twice', text: exampleEntries(14_000, 2) },
  { name: '*.tools.yaml over 1 MiB', text: exampleEntries(40_000, 1) },
];

/** Runs `work` with a 1 ms timer beside it; the longest gap between ticks is the longest stall. */
async function withStallMeter<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; longestStall: number }> {
  let last = performance.now();
  let longestStall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - last);
    last = now;
  }, 1);
  const start = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - start, longestStall: Math.max(longestStall, performance.now() - last) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * `toolshed search skills --packs DIR w` in a fresh Node process (dist/cli.js), as a user runs
 * it: wall time and peak RSS (reported by the child itself on exit), median of 3 runs, for the
 * alias bomb and for the built-in pack.
 */
function cliSearchRows(): Array<Record<string, unknown>> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'toolshed-hostile-cli-'));
  const preload = path.join(work, 'report-rss.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(path.join(work, 'rss'))}, String(process.resourceUsage().maxRSS)));`,
  );
  const bombPack = path.join(work, 'bomb-pack');
  mkdirSync(bombPack);
  writeFileSync(path.join(bombPack, 'bomb.skill.yaml'), ALIAS_BOMB);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const rows = [
    ['CLI search: alias bomb (800 KB)', bombPack],
    ['CLI search: built-in pack', path.join(process.cwd(), 'skill-packs')],
  ].map(([name, dir]) => {
    const times: number[] = [];
    const rss: number[] = [];
    let error = '';
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const run = spawnSync(
        process.execPath,
        ['--require', preload, path.join(process.cwd(), 'dist', 'cli.js'), 'search', 'skills', '--packs', dir as string, 'w'],
        { encoding: 'utf8', maxBuffer: 64 << 20 },
      );
      times.push(performance.now() - start);
      rss.push(Number(readFileSync(path.join(work, 'rss'), 'utf8')) / 1024);
      error = run.stderr.split('\n').find((line) => line.includes('error')) ?? '';
    }
    return {
      case: name,
      chars: name.includes('bomb') ? ALIAS_BOMB.length : '',
      load_ms: round(median(times)),
      peak_rss_mb: round(median(rss)),
      error: error.replace(work, '…').slice(0, 140),
    };
  });
  rmSync(work, { recursive: true, force: true });
  const [bomb, builtIn] = rows;
  if (bomb && builtIn) {
    rows.push({
      case: 'alias bomb ÷ built-in pack',
      chars: '',
      load_ms: Number((bomb.load_ms / builtIn.load_ms).toFixed(2)),
      peak_rss_mb: Number((bomb.peak_rss_mb / builtIn.peak_rss_mb).toFixed(2)),
      error: '',
    });
  }
  return rows;
}

async function main(): Promise<void> {
  const engine = await benchEngine();
  const rows: Array<Record<string, unknown>> = [];
  // As in VS Code: files over 64 KB parse on the worker thread built by esbuild.mjs (dist/).
  const parserThread = new OffThreadRunner(path.join(process.cwd(), 'dist', 'parseWorker.js'), nullLogger);
  for (const c of CASES) {
    const t0 = performance.now();
    const parsed = parseSkillDocument(c.text, c.file);
    const parseMs = performance.now() - t0;

    const root = mkdtempSync(path.join(os.tmpdir(), 'toolshed-hostile-bench-'));
    writeFileSync(path.join(root, 'good.skill.yaml'), 'name: good\ntrigger: A good skill\nsteps: [Do it.]\n');
    const target = path.join(root, c.file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, c.text);
    const service = await benchSkillService(engine, { parse: offThreadSkillParse(parserThread), autoSaveDelayMs: 0 });
    let error = '';
    let problems = 0;
    const { ms: loadMs, longestStall } = await withStallMeter(async () => {
      try {
        const summary = await service.loadPacks([folderPack('bench', root)]);
        problems = summary.problems.length;
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    });
    rows.push({
      case: c.name,
      chars: c.text.length,
      parse_ms: round(parseMs),
      parsed_skills: parsed.skills.length,
      load_ms: round(loadMs),
      longest_stall_ms: round(longestStall),
      problems_listed: problems,
      good_skill_loaded: service.inspect('good') !== undefined,
      error,
    });
    await service.dispose();
    rmSync(root, { recursive: true, force: true });
  }
  for (const c of EXAMPLE_CASES) {
    const root = mkdtempSync(path.join(os.tmpdir(), 'toolshed-hostile-bench-'));
    const file = path.join(root, 'big.tools.yaml');
    writeFileSync(file, c.text);
    const { result, ms, longestStall } = await withStallMeter(() => loadToolExampleFiles(nodeFileSystem, [file], offThreadToolExamplesParse(parserThread)));
    rows.push({
      case: c.name,
      chars: c.text.length,
      parse_ms: '',
      parsed_skills: '',
      load_ms: round(ms),
      longest_stall_ms: round(longestStall),
      problems_listed: result.problems.length,
      tools_with_examples: Object.keys(result.examples).length,
      error: result.problems[0]?.replace(root, '…').slice(0, 140) ?? '',
    });
    rmSync(root, { recursive: true, force: true });
  }
  parserThread.dispose();
  rows.push(...cliSearchRows());
  console.log(JSON.stringify({ title: 'Hostile skill files: parse/load time and longest event-loop stall (one file beside a good one)', rows }));
}

void main();
