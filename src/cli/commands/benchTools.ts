import type { CliCommand } from '../cliCommand';
import { readJsonl, readToolCatalog } from './cliInput';
import { RANKER_DEFAULTS } from '../../core/tools/index/toolRanker';
import type { RankerOptions } from '../../core/tools/index/toolRanker';
import { measureUserPath } from './benchUserPath';
import { EMBEDDER_HELP, EMBEDDER_USAGE, embedderFromFlags, embedderLabel, reportEndpointFailure, EMBEDDER_SWITCHES, EMBEDDER_VALUES } from './embedderFlag';
import { mainThreadCpuMs, processCpuMs } from './mainThreadCpu';
import { VariantRecallCounter } from './variantRecall';
import { toolSearchRequestText } from './requestText';
import { cliService, defaultService, parseArgs, toolshedOwnTools, toolsAndQueries } from './toolCliSupport';

interface QueryRow {
  id?: string;
  query: string;
  gold: string[];
  category?: string;
}

interface Tally {
  queries: number;
  r1: number;
  r5: number;
  r10: number;
  mrr: number;
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** Searches run before timing starts (see the warm-up comment in run). */
const WARM_UP_SEARCHES = 500;

/**
 * Odd or even by the query's number in its set (`simple_python_7` → 7, `live_multiple_12-4-0`
 * → 12): BFCL's halves for tuning (odd) and reporting (even, held out).
 */
export function queryIdParity(id: string | undefined): 'odd' | 'even' | undefined {
  const match = id === undefined ? null : /_(\d+)(?:-\d+)*$/.exec(id);
  return match ? (Number(match[1]) % 2 === 1 ? 'odd' : 'even') : undefined;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export const benchToolsCommand: CliCommand = {
  path: ['bench', 'tools'],
  summary: 'Measure tool_search recall and latency on a catalog and labelled queries',
  usage: [
    'Usage: toolshed bench tools --tools FILE.jsonl --queries FILE.jsonl [--json] [--search-type fts|regex|exact]',
    '                            [--ranker JSON] [--per-category] [--half odd|even]',
    `                            ${EMBEDDER_USAGE}`,
    '',
    ...EMBEDDER_HELP,
    'tools: {"name", "description", "inputSchema", "tags"?} per line; queries: {"query", "gold": [names]} per line.',
    '--json prints {recall_at_1, recall_at_5, recall_at_10, mrr_at_10, p50_ms, p95_ms, tools, queries, rss_mb, embedder, index_ms,',
    '  index_cpu_ms, first_search_ms, persist_ms}: index_ms = tool list → searchable (cold; index_cpu_ms = its main-thread',
    '  CPU time, steady on a shared machine; p95_cpu_ms: per-query process CPU), first_search_ms = the search',
    '  right after it, persist_ms = the deferred sql.js write + export (the delayed save, off the search path).',
    'Latency is per query in steady state: timed after 500 warm-up searches (JIT), one pass over the queries.',
    '--half odd|even keeps the queries whose id number is odd (the tuning half) or even (held out).',
    '--ranker overrides ranking knobs (JSON object merged over the defaults), for ablations.',
    '--reindex adds reindex_one_ms (median time to re-index one changed tool);',
    '--user-path adds user_p95_ms / engine_p95_ms / user_engine_p95_ratio (tool_search as VS Code serves it vs the engine);',
    '--tokens adds token_reduction (default always-visible set vs every tool visible, len/4 tokens).',
  ].join('\n'),
  async run(args, io) {
    const { flags } = parseArgs(args, {
      switches: ['json', 'per-category', 'reindex', 'tokens', 'user-path', ...EMBEDDER_SWITCHES],
      values: ['tools', 'queries', 'search-type', 'ranker', 'half', ...EMBEDDER_VALUES],
    });
    const files = toolsAndQueries(flags, 'bench tools', io);
    if (!files) return 2;
    const { toolsFile, queriesFile } = files;
    const rankerFlag = flags.get('ranker');
    const ranker: RankerOptions | undefined =
      typeof rankerFlag === 'string' ? { ...RANKER_DEFAULTS, ...(JSON.parse(rankerFlag) as Partial<RankerOptions>) } : undefined;
    const searchType = typeof flags.get('search-type') === 'string' ? (flags.get('search-type') as string) : 'fts';
    const embedder = embedderFromFlags(flags);
    const service = await cliService(ranker, embedder);
    const tools = readToolCatalog(toolsFile, io);
    const half = flags.get('half');
    if (half !== undefined && half !== 'odd' && half !== 'even') throw new Error(`--half must be odd or even (got "${String(half)}")`);
    const queries = readJsonl<QueryRow>(queriesFile, '--queries').filter((q) => half === undefined || queryIdParity(q.id) === half);

    // Cold index as at activation: from the tool list to a searchable index (CPU time beside
    // wall time, as the machine may be shared), then the first search, then the deferred
    // sql.js write + export that the service's delayed save does in the background.
    const indexStart = performance.now();
    const indexCpuStart = mainThreadCpuMs();
    service.setTools(tools);
    const indexMs = performance.now() - indexStart;
    const indexCpuMs = mainThreadCpuMs() - indexCpuStart;
    // Tool vectors are built in the background once the index is searchable (not part of the
    // cold index; vectors_ms says how long); an endpoint's query vectors are fetched before the
    // timed searches, as the LM tool does before searching.
    const vectorsStart = performance.now();
    await service.embeddings.settled();
    const vectorsMs = performance.now() - vectorsStart;
    if (embedder && !embedder.vectorOfTerms) for (const q of queries) await embedder.prepare(toolSearchRequestText.text(q.query));
    const firstRun = await service.startRun();
    const firstStart = performance.now();
    if (queries.length > 0)
      firstRun.search({ query: toolSearchRequestText.text(queries[0].query), search_type: searchType, limit: 10, include_always_loaded: true });
    const firstSearchMs = performance.now() - firstStart;
    firstRun.end();
    const persistStart = performance.now();
    const persistCpuStart = mainThreadCpuMs();
    await service.flush();
    const persistMs = performance.now() - persistStart;
    const persistCpuMs = mainThreadCpuMs() - persistCpuStart;

    const run = await service.startRun();
    // Warm-up, not counted: the extension host is a long-lived process, so latency is measured
    // in steady state — after JIT tier-up of the JS and of sql.js's WebAssembly, which otherwise
    // dominates the first few hundred queries of a fresh process (same method as bench skills).
    for (let i = 0; queries.length > 0 && i < WARM_UP_SEARCHES; i++) {
      run.search({ query: toolSearchRequestText.text(queries[i % queries.length].query), search_type: searchType, limit: 10, include_always_loaded: true });
    }

    const total: Tally = { queries: 0, r1: 0, r5: 0, r10: 0, mrr: 0 };
    const byCategory = new Map<string, Tally>();
    const times: number[] = [];
    const variants = new VariantRecallCounter(tools.map((t) => t.name));
    const cpuTimes: number[] = [];
    for (const q of queries) {
      const cpuStart = processCpuMs();
      const start = performance.now();
      const result = run.search({ query: toolSearchRequestText.text(q.query), search_type: searchType, limit: 10, include_always_loaded: true });
      times.push(performance.now() - start);
      cpuTimes.push(processCpuMs() - cpuStart);
      const names = result.ok ? result.output.tools.map((t) => t.name) : [];
      const gold = new Set(q.gold);
      const rank = names.findIndex((n) => gold.has(n));
      variants.add(q.gold, names);
      for (const tally of [
        total,
        byCategory.get(q.category ?? 'all') ??
          (byCategory.set(q.category ?? 'all', { queries: 0, r1: 0, r5: 0, r10: 0, mrr: 0 }).get(q.category ?? 'all') as Tally),
      ]) {
        tally.queries++;
        if (rank === 0) tally.r1++;
        if (rank >= 0 && rank < 5) tally.r5++;
        if (rank >= 0 && rank < 10) {
          tally.r10++;
          tally.mrr += 1 / (rank + 1);
        }
      }
    }
    run.end();
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    const extras: Record<string, number> = {};
    if (flags.has('reindex') && tools.length > 0) {
      const samples: number[] = [];
      for (let i = 0; i < 15; i++) {
        const target = tools[(i * 7919) % tools.length];
        const changed = tools.map((t) => (t === target ? { ...t, description: `${t.description} (revision ${i})` } : t));
        const start = performance.now();
        const report = service.setTools(changed);
        samples.push(performance.now() - start);
        if (report.updated !== 1) throw new Error(`expected one updated tool, got ${JSON.stringify(report)}`);
        service.setTools(tools);
      }
      samples.sort((a, b) => a - b);
      extras.reindex_one_ms = round(samples[samples.length >> 1]);
    }
    if (flags.has('user-path')) {
      Object.assign(
        extras,
        await measureUserPath(
          tools,
          queries.map((q) => toolSearchRequestText.text(q.query)),
          WARM_UP_SEARCHES,
          embedder,
        ),
      );
    }
    if (flags.has('tokens')) {
      const tokenService = await defaultService();
      tokenService.setTools([...tools, ...toolshedOwnTools()]);
      const tokenRun = await tokenService.startRun();
      const report = await tokenRun.tokenReport();
      extras.token_reduction = round(report.reduction);
      extras.tokens_sent = report.sentTokens;
      extras.tokens_all = report.allToolsTokens;
      tokenRun.end();
    }
    const summary = (t: Tally) => ({
      recall_at_1: round(t.r1 / Math.max(t.queries, 1)),
      recall_at_5: round(t.r5 / Math.max(t.queries, 1)),
      recall_at_10: round(t.r10 / Math.max(t.queries, 1)),
      mrr_at_10: round(t.mrr / Math.max(t.queries, 1)),
    });
    const result = {
      ...summary(total),
      p50_ms: round(percentile(times, 0.5)),
      p95_ms: round(percentile(times, 0.95)),
      p95_cpu_ms: round(percentile(cpuTimes, 0.95)),
      tools: tools.length,
      queries: queries.length,
      ...toolSearchRequestText.describe(queries.map((q) => q.query)),
      index_ms: round(indexMs, 1),
      index_cpu_ms: round(indexCpuMs, 1),
      first_search_ms: round(firstSearchMs, 2),
      persist_ms: round(persistMs, 1),
      persist_cpu_ms: round(persistCpuMs, 1),
      // Memory after indexing and every search (compare runs with and without --embedder), after a
      // full collection when node runs with --expose-gc (garbage is noise here). heap_mb = JS heap +
      // external buffers (sql.js's WebAssembly memory, vectors): steadier than the resident set.
      ...memoryAfterCollection(),
      ...embedderLabel(embedder),
      ...(embedder ? { vectors_ms: round(vectorsMs, 1) } : {}),
      ...extras,
      ...(variants.hasVariants ? variants.report() : {}),
      ...(flags.has('per-category') ? { per_category: Object.fromEntries([...byCategory].map(([k, t]) => [k, { queries: t.queries, ...summary(t) }])) } : {}),
    };
    reportEndpointFailure(embedder, io);
    if (flags.has('json')) io.stdout(`${JSON.stringify(result)}\n`);
    else {
      for (const [key, value] of Object.entries(result)) io.stdout(`${key.padEnd(14)} ${typeof value === 'object' ? JSON.stringify(value) : value}\n`);
    }
    return 0;
  },
};

/** Resident set and JS heap + external memory (MB), after a full collection when `gc` is exposed (node --expose-gc). */
function memoryAfterCollection(): { rss_mb: number; heap_mb: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { rss_mb: round(usage.rss / 2 ** 20, 1), heap_mb: round((usage.heapUsed + usage.external) / 2 ** 20, 1) };
}
