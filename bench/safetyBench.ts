/**
 * Safety benchmarks (bundled and run by bench/safety.bench.mjs):
 * - redaction on the labelled corpus (test/fixtures/redaction-corpus.jsonl): recall on secrets,
 *   false-positive rate on look-alikes, throughput;
 * - redaction on hostile text: texts up to 60,000 characters glued from the rules' own pieces
 *   (test/fixtures/hostileRedactionPieces.ts, the pieces the unit tests' properties use: key
 *   headers, token prefixes, command flags, phone-number groups), the slowest one;
 * - the regex guard: each hostile pattern through tool_search (2,000 tools) and skill_search
 *   (2,000 skills), wall time and outcome
 *   (refused, stopped by the budget, or finished). Worst case is the number to watch: a
 *   backtracking engine runs these for tens of seconds or forever.
 * Prints one JSON line last: {"title", "rows"}.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nullEventSink, nullLogger } from '../src/core/platform/basicPorts';
import { MemoryByteStore } from '../src/core/platform/memoryByteStore';
import { compileSafeRegex, SAFE_REGEX_LIMITS } from '../src/core/search/safeRegex';
import { redact } from '../src/core/privacy/redaction';
import { folderPack } from '../src/core/skills/packs/skillPackSources';
import { createToolSearchService } from '../src/core/tools/toolSearchService';
import { ASSIGNMENT_PIECES, KEY_SHAPE_PIECES } from '../test/fixtures/hostileRedactionPieces';
import { readRedactionCorpus, scoreRedaction } from './redactionCorpus';
import { rng, round } from './benchMath';
import { benchEngine, benchSkillService } from './benchServices';

const CATALOG_SIZE = 2000;

/** An everyday pattern for reference, then patterns that freeze a backtracking engine (some RE2 must refuse as too large). */
const HOSTILE_PATTERNS = [
  'create.*issue',
  `${'.?'.repeat(25)}x`,
  `${'.?'.repeat(60)}x`,
  '.{0,99}'.repeat(8),
  '(.{0,99}){8}z',
  `${'.{0,99}'.repeat(4)}z`,
  '(a+)+$',
  '(a*)*b',
  '(a|aa)*$',
  '(\\w+\\s?)+$',
  '(x+x+)+y',
  '(.*a){20}',
  '(?:a?){50}a{50}',
  `${'[a-z]{0,40}'.repeat(4)}!`,
  '([a-z]{0,19}[aeiou]){12}!',
  'a[ab]{24}c',
  `${'(a|a)'.repeat(22)}x`,
];

/** Descriptions that feed the patterns: long runs of a/b, random letters, realistic words. */
function hostileText(r: () => number, i: number): string {
  const words = ['create', 'issue', 'repository', 'deploy', 'a', 'aaaa', 'ab', 'x', 'file', 'list'];
  switch (i % 4) {
    case 0:
      return 'a'.repeat(900);
    case 1:
      return Array.from({ length: 990 }, () => (r() < 0.5 ? 'a' : 'b')).join('') + ' c';
    case 2:
      return Array.from({ length: 995 }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join('') + ' !';
    default:
      return Array.from({ length: 150 }, () => words[Math.floor(r() * words.length)]).join(' ');
  }
}

function engineOf(pattern: string): string {
  const compiled = compileSafeRegex(pattern);
  return compiled.ok ? compiled.regex.engine : '-';
}

function outcome(text: string): string {
  if (/Regex rejected: the pattern is too expensive/.test(text)) return 'refused: too expensive';
  if (/Regex rejected/.test(text)) return 'refused';
  if (/too expensive/.test(text)) return 'stopped at budget';
  return 'finished';
}

const REDACTION_PIECES = [...KEY_SHAPE_PIECES, ...ASSIGNMENT_PIECES];

/** The slowest redaction of 40 hostile texts (10,000-60,000 characters). */
function hostileRedactionRow(r: () => number): Record<string, unknown> {
  let slowest = 0;
  let chars = 0;
  for (let i = 0; i < 40; i++) {
    const parts: string[] = [];
    let length = 0;
    const target = 10_000 + Math.floor(r() * 50_000);
    while (length < target) {
      const piece = REDACTION_PIECES[Math.floor(r() * REDACTION_PIECES.length)]!;
      parts.push(piece);
      length += piece.length;
    }
    const text = parts.join('');
    const t0 = performance.now();
    redact(text);
    const ms = performance.now() - t0;
    if (ms > slowest) [slowest, chars] = [ms, text.length];
  }
  return { case: 'redaction: hostile text, slowest of 40', chars, ms: round(slowest, 1), target: '< 1000 ms (never a hang)', ok: slowest < 1000 };
}

async function main(): Promise<void> {
  const rows: Array<Record<string, unknown>> = [];

  // Redaction corpus.
  const corpus = readRedactionCorpus(process.cwd());
  const score = scoreRedaction(corpus, redact);
  const chars = corpus.reduce((n, row) => n + row.text.length, 0);
  const start = performance.now();
  for (let i = 0; i < 20; i++) for (const row of corpus) redact(row.text);
  const perMb = (performance.now() - start) / 20 / (chars / 1e6);
  rows.push({ case: 'redaction: recall on secrets', n: score.secrets, value: round(score.recall), target: '≥ 0.98', ok: score.recall >= 0.98 });
  rows.push({
    case: 'redaction: false-positive rate on look-alikes',
    n: score.benign,
    value: round(score.falsePositiveRate),
    target: '≤ 0.02',
    ok: score.falsePositiveRate <= 0.02,
  });
  rows.push({ case: 'redaction: throughput', n: corpus.length, value: round(perMb, 1), unit: 'ms per MB of text' });
  for (const m of score.missed) console.error(`missed ${m.kind}: ${m.text.slice(0, 80)}`);
  for (const m of score.overRedacted) console.error(`over-redacted ${m.kind}: ${m.text.slice(0, 80)}`);

  rows.push(hostileRedactionRow(rng(11)));

  // Regex guard: tool_search.
  const r = rng(7);
  const tools = Array.from({ length: CATALOG_SIZE }, (_, i) => ({
    name: `mcp_${['github', 'jira', 'slack', 'aws'][i % 4]}_${'a'.repeat(i % 30)}tool_${i}`,
    description: hostileText(r, i),
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    tags: ['a'.repeat(40), 'read'],
  }));
  const worst: Record<string, number> = {};
  const engine = await benchEngine();
  const service = await createToolSearchService({
    engine,
    store: new MemoryByteStore(),
    logger: nullLogger,
    events: nullEventSink,
    clock: { now: () => Date.now() },
    saveDelayMs: 60_000,
  });
  service.setTools(tools);
  const label = 'tool_search';
  for (const pattern of HOSTILE_PATTERNS) {
    const run = await service.startRun();
    const t0 = performance.now();
    const result = run.search({ query: pattern, search_type: 'regex', limit: 20 });
    const ms = performance.now() - t0;
    worst[label] = Math.max(worst[label] ?? 0, ms);
    rows.push({
      case: `regex guard: ${label}`,
      pattern: pattern.length > 40 ? `${pattern.slice(0, 37)}…` : pattern,
      tools: CATALOG_SIZE,
      engine: engineOf(pattern),
      ms: round(ms, 1),
      outcome: outcome(result.ok ? (result.output.note ?? '') : result.error),
    });
  }

  // Regex guard: skill_search.
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-safety-bench-'));
  try {
    const lines = Array.from({ length: CATALOG_SIZE }, (_, i) =>
      JSON.stringify({
        name: `pack.hostile.${'a'.repeat(i % 20)}skill_${i}`,
        title: `${'a'.repeat(i % 50)} ${i}`,
        trigger: hostileText(r, i).slice(0, 500),
        task_type: 'code',
        tags: ['a'.repeat(30)],
        steps: [hostileText(r, i + 1).slice(0, 300)],
      }),
    );
    mkdirSync(path.join(tmp, 'pack'), { recursive: true });
    // Files stay under the 1 MiB per-file cap.
    for (let f = 0; f * 400 < lines.length; f++)
      writeFileSync(path.join(tmp, 'pack', `part${f}.skill.jsonl`), `${lines.slice(f * 400, (f + 1) * 400).join('\n')}\n`);
    const skills = await benchSkillService(await benchEngine());
    const loaded = await skills.loadPacks([folderPack('hostile', path.join(tmp, 'pack'))]);
    const skillCount = loaded.packs[0]?.skillCount ?? 0;
    if (skillCount < CATALOG_SIZE) console.error(`only ${skillCount} hostile skills loaded: ${JSON.stringify(loaded.problems.slice(0, 3))}`);
    const label = 'skill_search';
    for (const pattern of HOSTILE_PATTERNS) {
      const t0 = performance.now();
      const out = await skills.search({ query: pattern, search_type: 'regex', limit: 20 }, { includeWorkspacePacks: true });
      const ms = performance.now() - t0;
      worst[label] = Math.max(worst[label] ?? 0, ms);
      rows.push({
        case: `regex guard: ${label}`,
        pattern: pattern.length > 40 ? `${pattern.slice(0, 37)}…` : pattern,
        skills: skillCount,
        engine: engineOf(pattern),
        ms: round(ms, 1),
        outcome: outcome(out.note ?? ''),
      });
    }
    await skills.dispose();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  for (const [label, ms] of Object.entries(worst)) {
    rows.push({
      case: `regex guard: worst case, ${label}`,
      patterns: HOSTILE_PATTERNS.length,
      ms: round(ms, 1),
      budget_ms: SAFE_REGEX_LIMITS.searchBudgetMs,
      target: '< 1000 ms (never a hang)',
      ok: ms < 1000,
    });
  }
  console.log(JSON.stringify({ title: 'Safety: redaction corpus, regex guard under hostile patterns', rows }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
