import { NodeByteStore } from '../../core/platform/nodeByteStore';
import type { CliCommand } from '../cliCommand';
import { readJsonl } from './cliInput';
import { EMBEDDER_HELP, EMBEDDER_USAGE, embedderFromFlags, embedderLabel, reportEndpointFailure, EMBEDDER_SWITCHES, EMBEDDER_VALUES } from './embedderFlag';
import { cliSkillService, packsFromDirs, parseSkillArgs, percentile } from './skillCliSupport';
import { checkPackFolders } from './skillCliSupport';
import { skillRequestText } from './requestText';

interface QueryRow {
  query: string;
  gold: string[];
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

export const benchSkillsCommand: CliCommand = {
  path: ['bench', 'skills'],
  summary: 'Measure skill_search recall and latency on packs and labelled queries',
  usage: [
    'Usage: toolshed bench skills --packs DIR… --queries FILE.jsonl [--store DIR] [--rounds N] [--json]',
    `                             ${EMBEDDER_USAGE}`,
    '',
    ...EMBEDDER_HELP,
    '  With an endpoint, the text of every skill searched (secrets redacted) is sent to it to be embedded;',
    '  `embedder` in the result names it, or says "none" with `endpoint_failed` when it failed (lexical recall).',
    'queries: {"query", "gold": [skill names]} per line. Each query is sent whole, as skill_search and pre-flight take it',
    '  (request_text says so; requests_cut counts those longer than skill_search takes, cut at its limit).',
    '--store DIR: keep the skill store in that folder (as the extension keeps it in its storage), so a second run is a warm start.',
    '--json prints {recall_at_1, recall_at_3, recall_at_5, mrr_at_10, p50_ms, p95_ms, skills, queries, open_ms, load_ms,',
    '  open_cpu_ms, load_cpu_ms, peak_rss_mb, heap_mb, external_mb, embedder}: open_ms opens the store, load_ms loads the packs',
    '  into it (the _cpu_ms twins: CPU time of this process, which a busy machine does not inflate); memory is this',
    "  process's (external: sql.js's WebAssembly memory and other buffers), after the searches.",
    'Latency: pooled over enough rounds of the queries for ≥ 200 searches (at most 10; --rounds N to fix it), after as many warm-up rounds.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, { switches: ['json', ...EMBEDDER_SWITCHES], values: ['queries', 'store', 'rounds', ...EMBEDDER_VALUES] });
    const queriesFile = parsed.flags.get('queries');
    if (parsed.packs.length === 0 || typeof queriesFile !== 'string') {
      io.stderr('toolshed bench skills: --packs DIR… and --queries FILE.jsonl are required. See --help.\n');
      return 2;
    }
    checkPackFolders(parsed.packs);
    const storeDir = parsed.flags.get('store');
    const openStart = performance.now();
    const openCpu = process.cpuUsage();
    const service = await cliSkillService({
      store: typeof storeDir === 'string' ? new NodeByteStore(storeDir) : undefined,
    });
    const openMs = performance.now() - openStart;
    const openCpuMs = cpuMsSince(openCpu);
    const embedder = embedderFromFlags(parsed.flags);
    service.useEmbedder(embedder);
    const loadStart = performance.now();
    const loadCpu = process.cpuUsage();
    const summary = await service.loadPacks(packsFromDirs(parsed.packs));
    const loadMs = performance.now() - loadStart;
    const loadCpuMs = cpuMsSince(loadCpu);
    const skills = summary.packs.reduce((n, p) => n + p.skillCount, 0);
    const queries = readJsonl<QueryRow>(queriesFile, '--queries');
    const ctx = { includeWorkspacePacks: true };
    // Latency is pooled over enough rounds of the queries for a meaningful p95 (≥ 200 searches,
    // at most 10 rounds), after as many warm-up rounds (JIT, statement cache) — otherwise a small
    // query set measures compilation. Recall is taken from the first timed round (deterministic).
    const fixedRounds = Number(parsed.flags.get('rounds'));
    const rounds =
      queries.length === 0 ? 0 : Number.isInteger(fixedRounds) && fixedRounds > 0 ? fixedRounds : Math.min(10, Math.max(1, Math.ceil(200 / queries.length)));
    for (let pass = 0; pass < rounds; pass++) {
      for (const q of queries) await service.search({ query: skillRequestText.text(q.query), limit: 10 }, ctx);
    }
    let r1 = 0;
    let r3 = 0;
    let r5 = 0;
    let mrr = 0;
    const times: number[] = [];
    for (let pass = 0; pass < rounds; pass++) {
      for (const q of queries) {
        const start = performance.now();
        const output = await service.search({ query: skillRequestText.text(q.query), limit: 10 }, ctx);
        times.push(performance.now() - start);
        if (pass > 0) continue;
        const gold = new Set(q.gold);
        const rank = output.skills.findIndex((s) => gold.has(s.name));
        if (rank === 0) r1++;
        if (rank >= 0 && rank < 3) r3++;
        if (rank >= 0 && rank < 5) r5++;
        if (rank >= 0 && rank < 10) mrr += 1 / (rank + 1);
      }
    }
    times.sort((a, b) => a - b);
    const n = Math.max(queries.length, 1);
    const result = {
      recall_at_1: round(r1 / n),
      recall_at_3: round(r3 / n),
      recall_at_5: round(r5 / n),
      mrr_at_10: round(mrr / n),
      p50_ms: round(percentile(times, 0.5)),
      p95_ms: round(percentile(times, 0.95)),
      skills,
      queries: queries.length,
      ...skillRequestText.describe(queries.map((q) => q.query)),
      open_ms: round(openMs, 1),
      load_ms: round(loadMs, 1),
      open_cpu_ms: round(openCpuMs, 1),
      load_cpu_ms: round(loadCpuMs, 1),
      ...memoryFigures(),
      ...embedderLabel(embedder),
    };
    reportEndpointFailure(embedder, io);
    await service.dispose();
    if (parsed.flags.has('json')) io.stdout(`${JSON.stringify(result)}\n`);
    else for (const [key, value] of Object.entries(result)) io.stdout(`${key.padEnd(12)} ${value}\n`);
    return 0;
  },
};

/** CPU time (user + system, every thread of this process) since `start`: wall time on a busy machine says little. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** This process's memory after the run, in MB (the heap after a collection when node runs with --expose-gc). */
function memoryFigures(): { peak_rss_mb: number; heap_mb: number; external_mb: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  const mb = (bytes: number) => round(bytes / 1048576, 1);
  return { peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024), heap_mb: mb(usage.heapUsed), external_mb: mb(usage.external) };
}
