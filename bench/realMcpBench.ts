/**
 * Real MCP catalog (bundled and run by bench/realMcp.bench.mjs): tool relevance on 568 tools of
 * 31 public MCP servers (bench/data/mcp-catalog, SOURCES.md) with requests written the way users
 * type them, through the functions the extension calls: a tool-search service with the default
 * settings and Toolshed's own tools beside the catalog (as `toolshed preflight tools` builds it),
 * `ToolRun.search` (what `tool_search` runs) and `ToolRun.activateForRequest` (pre-activation,
 * the gate of requestMatch.ts). Lexical and with the bundled word vectors (toolshed.embeddings).
 *
 * Rows, per half (odd ids = tuning, even ids = held out):
 * - R@1 / R@5 / R@10 of the ranked search for `kind: "tool"` requests (a hit: any acceptable gold name);
 * - the share of `kind: "none"` requests that pre-activate at least one tool, and gold in round 1
 *   (a gold tool among those pre-activated) for `kind: "tool"` requests;
 * - request R@5: a gold tool among the first 5 candidates pre-activation ranks for the request as
 *   it reads it (`tool_search` itself takes at most 500 characters, so R@5 above searches the
 *   first 500: what a model could paste; request R@5 is what the extension searches itself);
 * - the same over long pasted requests (long-requests.jsonl, 800–2,800 characters), with gold in
 *   round 1 and request R@5 again for those whose ask comes after the first 2,000 characters;
 * - the same over the blind requests (blind-requests.jsonl: written from task scenarios by someone
 *   who never saw the tool list, labelled afterwards), without the adversary rows;
 * - each adversarial tool (adversarial-tools.jsonl) added alone to the catalog: the share of
 *   requests (none has it as gold) for which it is pre-activated or in the top 5, and how many
 *   requests lose their gold tool from the top 5 or from pre-activation because of it;
 * - p95 latency of a search and of a pre-activation over the real catalog;
 * - BFCL's held-out half (R@5, gold in round 1) from the same run when the shared folder exists.
 * Prints one JSON line last: {"title", "rows"}.
 *
 * Switches (after the bench's path; none = every row): `--set blind|requests|long|reference`
 * (repeatable) measures only those request sets and skips the adversaries, the hostile token and
 * BFCL; `--half odd|even` only that half; `--lexical` without the bundled vectors; `--misses` adds
 * per request of the chosen halves that misses the top 5 its id, text, gold and top 5 (looking
 * at the held-out half's misses is for reporting a change already chosen, not for tuning).
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { MemoryByteStore } from '../src/core/platform/memoryByteStore';
import { loadBundledEmbedder, WORD_VECTORS_FILE } from '../src/core/search/embedding/bundledEmbedder';
import type { Embedder } from '../src/core/search/embedding/embedder';
import type { SqlEngine } from '../src/core/sql/sqlEngine';
import type { ToolInput } from '../src/core/tools/toolRecord';
import { createToolSearchService } from '../src/core/tools/toolSearchService';
import type { ToolSearchService } from '../src/core/tools/toolSearchService';
import { queryIdParity } from '../src/cli/commands/benchTools';
import { toToolInputs, toolshedOwnTools } from '../src/cli/commands/toolCliSupport';
import { processCpuMs } from '../src/cli/commands/mainThreadCpu';
import { toolSearchRequestText } from '../src/cli/commands/requestText';
import { benchEngine } from './benchServices';

// Run from the repository root (runTsBench sets the working directory).
const root = process.cwd();
const dataDir = path.join(root, 'bench', 'data', 'mcp-catalog');

type Half = 'odd' | 'even';
interface Request {
  id: number;
  request: string;
  gold: string[];
  kind: 'tool' | 'none';
  /** Long requests only: what the request asks for is said after its first 2,000 characters. */
  late?: boolean;
  /** Blind requests only: tools judged to do the job as well as the gold (the rule is in SOURCES.md). */
  equivalent?: string[];
}
interface Adversary extends ToolInput {
  adversary: string;
}
/** Wall and process-CPU time per call (CPU beside wall: the machine running benches is often shared). */
interface Timings {
  search: number[];
  searchCpu: number[];
  activate: number[];
  activateCpu: number[];
}

/** What the user path gave one request: the ranked search's top 10, pre-activation's ranked candidates and the tools it activated. */
interface Outcome {
  top10: string[];
  candidates: string[];
  activated: string[];
}

const WARM_UP = 500;
const HALVES: Half[] = ['odd', 'even'];

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits));
const share = (n: number, of: number) => (of > 0 ? round(n / of) : 0);
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))], 3) : 0;
}

/** A service as `toolshed preflight tools` and the extension build it: default settings, Toolshed's own tools beside the catalog. */
async function userPathService(engine: SqlEngine, tools: readonly ToolInput[], embedder: Embedder | undefined): Promise<ToolSearchService> {
  const service = await createToolSearchService({
    engine,
    store: new MemoryByteStore(),
    // Learning from use only changes ranking after a tool is called; no tool is called here.
    config: { toolSearch: { learnFromUse: false } },
    saveDelayMs: 60_000,
    embedder,
  });
  service.setTools([...tools, ...toolshedOwnTools()]);
  await service.embeddings.settled();
  return service;
}

/** One run per request for the search (as a `tool_search` call), another for pre-activation (as a new @toolshed turn). */
async function outcomes(service: ToolSearchService, requests: readonly { request: string }[], timings?: Timings): Promise<Outcome[]> {
  const out: Outcome[] = [];
  if (timings) {
    await service.withRun({}, (run) => {
      for (let i = 0; i < WARM_UP && requests.length; i++) {
        run.search({ query: toolSearchRequestText.text(requests[i % requests.length].request), search_type: 'fts', limit: 10, include_always_loaded: false });
        run.activateForRequest(requests[i % requests.length].request);
      }
    });
  }
  for (const r of requests) {
    const top10 = await service.withRun({}, (run) => {
      const cpu = processCpuMs();
      const start = performance.now();
      const result = run.search({ query: toolSearchRequestText.text(r.request), search_type: 'fts', limit: 10, include_always_loaded: false });
      timings?.search.push(performance.now() - start);
      timings?.searchCpu.push(processCpuMs() - cpu);
      return result.ok ? result.output.tools.map((t) => t.name) : [];
    });
    const { activated, candidates } = await service.withRun({}, (run) => {
      const cpu = processCpuMs();
      const start = performance.now();
      const names = run.activateForRequest(r.request).map((t) => t.name);
      timings?.activate.push(performance.now() - start);
      timings?.activateCpu.push(processCpuMs() - cpu);
      return { activated: names, candidates: (run.lastRequestMatch?.candidates ?? []).map((c) => c.name) };
    });
    out.push({ top10, candidates, activated });
  }
  return out;
}

const hitAt = (o: Outcome, gold: readonly string[], k: number) => o.top10.slice(0, k).some((n) => gold.includes(n));
const goldActivated = (o: Outcome, gold: readonly string[]) => o.activated.some((n) => gold.includes(n));
const goldRanked = (o: Outcome, gold: readonly string[]) => o.candidates.slice(0, 5).some((n) => gold.includes(n));

function qualityRow(set: string, half: Half, embedder: string, requests: readonly Request[], results: readonly Outcome[]) {
  const tool = requests.map((r, i) => ({ r, o: results[i] })).filter((x) => x.r.kind === 'tool');
  const none = requests.map((r, i) => ({ r, o: results[i] })).filter((x) => x.r.kind === 'none');
  return {
    set,
    half: halfLabel(half),
    embedder,
    requests: `${tool.length} tool / ${none.length} none`,
    // R@5/R@10 are tool_search's (its query cut at its limit); pre-activation takes the whole request.
    ...toolSearchRequestText.describe(requests.map((r) => r.request)),
    'R@1': share(tool.filter((x) => hitAt(x.o, x.r.gold, 1)).length, tool.length),
    'R@5': share(tool.filter((x) => hitAt(x.o, x.r.gold, 5)).length, tool.length),
    'R@10': share(tool.filter((x) => hitAt(x.o, x.r.gold, 10)).length, tool.length),
    ...(tool.some((x) => x.r.equivalent)
      ? { 'R@5_gold_or_equivalent': share(tool.filter((x) => hitAt(x.o, [...x.r.gold, ...(x.r.equivalent ?? [])], 5)).length, tool.length) }
      : {}),
    'request_R@5': share(tool.filter((x) => goldRanked(x.o, x.r.gold)).length, tool.length),
    gold_in_round_1: share(tool.filter((x) => goldActivated(x.o, x.r.gold)).length, tool.length),
    ...lateColumns(tool),
    none_pre_activating: share(none.filter((x) => x.o.activated.length > 0).length, none.length),
    pre_activated_per_tool_request: round(tool.reduce((sum, x) => sum + x.o.activated.length, 0) / Math.max(tool.length, 1), 2),
    pre_activated_per_none_request: round(none.reduce((sum, x) => sum + x.o.activated.length, 0) / Math.max(none.length, 1), 2),
  };
}

/** For long requests: the same two measures over those whose ask comes after the first 2,000 characters. */
function lateColumns(tool: ReadonlyArray<{ r: Request; o: Outcome }>): Record<string, unknown> {
  const late = tool.filter((x) => x.r.late);
  if (late.length === 0) return {};
  return {
    late_requests: late.length,
    'late_request_R@5': share(late.filter((x) => goldRanked(x.o, x.r.gold)).length, late.length),
    late_gold_in_round_1: share(late.filter((x) => goldActivated(x.o, x.r.gold)).length, late.length),
  };
}

/**
 * The modelcontextprotocol/servers reference servers (current and archived): a catalog the size a
 * new user starts with (87 tools), where a common word weighs more than among 568 tools.
 */
const REFERENCE_SERVERS = new Set([
  'filesystem',
  'git',
  'fetch',
  'memory',
  'time',
  'sequentialthinking',
  'aws-kb-retrieval',
  'brave-search',
  'everart',
  'gdrive',
  'gitlab',
  'google-maps',
  'postgres',
  'puppeteer',
  'redis',
  'sentry',
  'slack',
  'sqlite',
]);

interface Catalog {
  /** The `--set` name that selects it. */
  key: 'requests' | 'long' | 'blind' | 'reference';
  label: string;
  tools: ToolInput[];
  requests: Request[];
  /** Add each adversarial tool alone to this catalog (rows that measure the catalog; run once per request style, not for the blind set). */
  adversaries: boolean;
}

/** The reference servers' part of the set: gold names narrowed to their tools; requests only other servers serve are left out. */
function referenceCatalog(rows: ReadonlyArray<Record<string, unknown>>, requests: readonly Request[]): Catalog {
  const tools = toToolInputs(rows.filter((row) => REFERENCE_SERVERS.has(String(row.server))));
  const names = new Set(tools.map((t) => t.name));
  const kept = requests.map((r) => ({ ...r, gold: r.gold.filter((name) => names.has(name)) })).filter((r) => r.kind === 'none' || r.gold.length > 0);
  return { key: 'reference', label: `reference servers (${REFERENCE_SERVERS.size})`, tools, requests: kept, adversaries: true };
}

const halfLabel = (half: Half) => (half === 'odd' ? 'tuning (odd)' : 'held-out (even)');
const inHalf = (half: Half) => (r: Request) => (r.id % 2 === 1 ? 'odd' : 'even') === half;

/** Quality and latency rows of one catalog, then a row per adversary added alone to it, per half. */
async function measureCatalog(
  engine: SqlEngine,
  catalog: Catalog,
  adversaries: readonly Adversary[],
  label: string,
  embedder: Embedder | undefined,
  options: BenchOptions,
) {
  const { tools, requests } = catalog;
  const rows: Array<Record<string, unknown>> = [];
  const timings: Timings = { search: [], searchCpu: [], activate: [], activateCpu: [] };
  const service = await userPathService(engine, tools, embedder);
  const base = await outcomes(service, requests, timings);
  await service.dispose();
  for (const half of options.halves) {
    const keep = requests.map(inHalf(half));
    if (options.misses) rows.push(...missRows(catalog.label, half, label, requests, base));
    rows.push({
      ...qualityRow(
        catalog.label,
        half,
        label,
        requests.filter((_, i) => keep[i]),
        base.filter((_, i) => keep[i]),
      ),
      tools: tools.length,
      search_p95_ms: percentile(timings.search, 0.95),
      search_p95_cpu_ms: percentile(timings.searchCpu, 0.95),
      pre_activation_p95_ms: percentile(timings.activate, 0.95),
      pre_activation_p95_cpu_ms: percentile(timings.activateCpu, 0.95),
    });
  }
  for (const adversary of adversaries) {
    const withAdversary = await userPathService(engine, [...tools, adversary], embedder);
    const results = await outcomes(withAdversary, requests);
    await withAdversary.dispose();
    for (const half of options.halves) {
      const idx = requests.map((r, i) => (inHalf(half)(r) ? i : -1)).filter((i) => i >= 0);
      const tool = idx.filter((i) => requests[i].kind === 'tool');
      rows.push({
        set: `  + adversary ${adversary.adversary}`,
        half: halfLabel(half),
        embedder: label,
        requests: idx.length,
        adversary_pre_activated: share(idx.filter((i) => results[i].activated.includes(adversary.name)).length, idx.length),
        adversary_in_top_5: share(idx.filter((i) => results[i].top10.slice(0, 5).includes(adversary.name)).length, idx.length),
        gold_lost_from_top_5: tool.filter((i) => hitAt(base[i], requests[i].gold, 5) && !hitAt(results[i], requests[i].gold, 5)).length,
        gold_lost_from_pre_activation: tool.filter((i) => goldActivated(base[i], requests[i].gold) && !goldActivated(results[i], requests[i].gold)).length,
        'R@5': share(tool.filter((i) => hitAt(results[i], requests[i].gold, 5)).length, tool.length),
        gold_in_round_1: share(tool.filter((i) => goldActivated(results[i], requests[i].gold)).length, tool.length),
        note: `${catalog.label}; ${adversary.name} (${(adversary.description ?? '').length} chars)`,
      });
    }
  }
  return rows;
}

/** Per request of `half` whose gold (or equivalent) misses the top 5: what `--misses` prints. */
function missRows(set: string, half: Half, embedder: string, requests: readonly Request[], results: readonly Outcome[]) {
  return requests
    .map((r, i) => ({ r, o: results[i] }))
    .filter((x) => inHalf(half)(x.r) && x.r.kind === 'tool' && !hitAt(x.o, [...x.r.gold, ...(x.r.equivalent ?? [])], 5))
    .map((x) => ({ set, half: halfLabel(half), embedder, miss: x.r.id, request: x.r.request, gold: x.r.gold, top5: x.o.top10.slice(0, 5) }));
}

interface BenchOptions {
  sets: ReadonlySet<Catalog['key']> | undefined;
  halves: readonly Half[];
  lexicalOnly: boolean;
  misses: boolean;
}

/** The switches in the header comment; an unknown one stops the run rather than measure something else. */
function benchOptions(args: readonly string[]): BenchOptions {
  const sets = new Set<Catalog['key']>();
  const halves: Half[] = [];
  let lexicalOnly = false;
  let misses = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--lexical') lexicalOnly = true;
    else if (arg === '--misses') misses = true;
    else if (arg === '--set' && ['requests', 'long', 'blind', 'reference'].includes(args[i + 1])) sets.add(args[++i] as Catalog['key']);
    else if (arg === '--half' && (args[i + 1] === 'odd' || args[i + 1] === 'even')) halves.push(args[++i] as Half);
    else throw new Error(`realMcp bench: unknown switch ${arg} (--set blind|requests|long|reference, --half odd|even, --lexical, --misses)`);
  }
  return { sets: sets.size ? sets : undefined, halves: halves.length ? halves : HALVES, lexicalOnly, misses };
}

/** BFCL's held-out half through the same path: R@5 and gold in round 1, beside the real-MCP rows. */
async function measureBfcl(engine: SqlEngine, folder: string, label: string, embedder: Embedder | undefined) {
  const tools = toToolInputs(readJsonl<Record<string, unknown>>(path.join(folder, 'tools.jsonl')));
  const heldOut = readJsonl<{ id: string; query: string; gold: string[] }>(path.join(folder, 'queries.jsonl'))
    .filter((q) => queryIdParity(q.id) === 'even')
    .map((q, i) => ({ id: 2 * i + 2, request: q.query, gold: q.gold, kind: 'tool' as const }));
  const service = await userPathService(engine, tools, embedder);
  const results = await outcomes(service, heldOut);
  await service.dispose();
  const row = qualityRow('bfcl', 'even', label, heldOut, results);
  return {
    set: row.set,
    half: row.half,
    embedder: label,
    requests: heldOut.length,
    'R@5': row['R@5'],
    'R@10': row['R@10'],
    gold_in_round_1: row.gold_in_round_1,
    pre_activated_per_tool_request: row.pre_activated_per_tool_request,
    tools: tools.length,
  };
}

/**
 * One request holding a single 100,000-character token (a pasted base64 blob, a minified line, a
 * run of capitals), through pre-activation: each must take about as long as any other request
 * (its analysis once grew with the square of the token's length: seconds).
 */
async function hostileTokenRow(engine: SqlEngine, tools: readonly ToolInput[], label: string, embedder: Embedder | undefined) {
  let x = 7;
  const random = (alphabet: string) =>
    Array.from({ length: 100_000 }, () => {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      return alphabet[x % alphabet.length];
    }).join('');
  const tokens: Record<string, string> = {
    lowercase: random('abcdefghijklmnopqrstuvwxyz'),
    capitals: random('ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
    base64: random('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
  };
  const service = await userPathService(engine, tools, embedder);
  const ms: Record<string, number> = {};
  for (const [kind, token] of Object.entries(tokens)) {
    ms[kind] = await service.withRun({}, (run) => {
      const start = performance.now();
      run.activateForRequest(`What does this decode to? ${token}`);
      return Math.round((performance.now() - start) * 10) / 10;
    });
  }
  await service.dispose();
  return { set: 'hostile request: one 100,000-character token', embedder: label, pre_activation_ms: ms, pre_activation_max_ms: Math.max(...Object.values(ms)) };
}

/** Stops on a set that would measure nonsense: a gold name missing from the catalog, a repeated id, a no-tool request with gold. */
function checkSet(tools: readonly ToolInput[], requests: readonly Request[]): void {
  const names = new Set(tools.map((t) => t.name));
  const ids = new Set<number>();
  for (const r of requests) {
    if (!Number.isInteger(r.id) || ids.has(r.id)) throw new Error(`request set: id ${String(r.id)} is not a unique integer`);
    ids.add(r.id);
    if (r.kind !== 'tool' && r.kind !== 'none') throw new Error(`request set: id ${r.id} has kind "${String(r.kind)}" (tool or none)`);
    if ((r.kind === 'none') !== (r.gold.length === 0)) throw new Error(`request set: id ${r.id}: a "none" request has no gold, a "tool" request has some`);
    if (r.equivalent?.some((name) => r.gold.includes(name))) throw new Error(`request set: id ${r.id}: a tool is both gold and equivalent`);
    const unknown = [...r.gold, ...(r.equivalent ?? [])].filter((name) => !names.has(name));
    if (unknown.length) throw new Error(`request set: id ${r.id}: gold or equivalent not in tools.jsonl: ${unknown.join(', ')}`);
  }
}

async function main(): Promise<void> {
  const options = benchOptions(process.argv.slice(2));
  const toolRows = readJsonl<Record<string, unknown>>(path.join(dataDir, 'tools.jsonl'));
  const requests = readJsonl<Request>(path.join(dataDir, 'requests.jsonl'));
  const longRequests = readJsonl<Request>(path.join(dataDir, 'long-requests.jsonl'));
  const blindRequests = readJsonl<Request>(path.join(dataDir, 'blind-requests.jsonl'));
  checkSet(toToolInputs(toolRows), [...requests, ...longRequests]);
  // Its own id range (1–240, like requests.jsonl): checked apart so ids may repeat across the two sets.
  checkSet(toToolInputs(toolRows), blindRequests);
  const adversaries = readJsonl<Adversary>(path.join(dataDir, 'adversarial-tools.jsonl'));
  const catalogs: Catalog[] = [
    { key: 'requests', label: 'real MCP (31 servers)', tools: toToolInputs(toolRows), requests, adversaries: true },
    { key: 'long', label: 'real MCP, long requests', tools: toToolInputs(toolRows), requests: longRequests, adversaries: true },
    { key: 'blind', label: 'real MCP, blind requests', tools: toToolInputs(toolRows), requests: blindRequests, adversaries: false },
    referenceCatalog(toolRows, requests),
  ];
  const vectors = path.join(root, 'src', 'core', 'search', 'vocabulary', WORD_VECTORS_FILE);
  const bundled = loadBundledEmbedder(existsSync(vectors) ? vectors : undefined);
  if (!bundled) throw new Error(`the bundled word vectors were not found at ${vectors}`);
  const engine = await benchEngine();
  const bfcl = [path.join(root, '..', 'shared'), path.join(root, '..', '..', 'shared')]
    .map((dir) => path.join(dir, 'benchmarks', 'tool-retrieval', 'bfcl'))
    .find((dir) => existsSync(path.join(dir, 'tools.jsonl')));
  const rows: Array<Record<string, unknown>> = [];
  const embedders = [
    ['lexical', undefined],
    ['bundled vectors', bundled],
  ] as const;
  for (const [label, embedder] of options.lexicalOnly ? embedders.slice(0, 1) : embedders) {
    for (const catalog of catalogs) {
      if (options.sets && !options.sets.has(catalog.key)) continue;
      const measured = options.sets || !catalog.adversaries ? [] : adversaries;
      rows.push(...(await measureCatalog(engine, catalog, measured, label, embedder, options)));
    }
    if (options.sets) continue;
    rows.push(await hostileTokenRow(engine, catalogs[0].tools, label, embedder));
    rows.push(
      bfcl ? await measureBfcl(engine, bfcl, label, embedder) : { set: 'bfcl', embedder: label, note: 'skipped: the shared BFCL folder was not found' },
    );
  }
  console.log(
    JSON.stringify({ title: 'Real MCP catalog: tool_search recall, pre-activation and stuffed adversaries (core functions of the extension)', rows }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
