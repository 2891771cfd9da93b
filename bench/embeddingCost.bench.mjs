// @ts-check
// What the bundled embedding costs on the VS Code path, lexical vs fused, at 3,258 (BFCL) and
// 20,000 (synthetic) tools: tool_search p95 as the extension serves it, the cold index (main
// thread CPU) and memory. Each configuration runs in a fresh child process (`dist/cli.js bench
// tools`, node --expose-gc so memory is read after a full collection; timing runs with
// --user-path, memory runs without that second service), several times, interleaved
// lexical/fused so a busy machine drifts both alike; the medians are compared, and the spread of
// each is printed beside them so noise can be told from the effect. `heap_mb` (JS heap + external
// buffers) is steadier than the resident set. Prints one JSON line last: { "title", "rows" }.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCatalog } from './synthetic-tools.mjs';
import { bfclFolder as bfcl, runCliJson } from './cliRuns.mjs';

/** Fields compared, as `bench tools --json` names them: from the timing runs, then from the memory runs. */
const TIME_FIELDS = ['user_p95_ms', 'engine_p95_ms', 'p95_cpu_ms', 'index_cpu_ms'];
const MEMORY_FIELDS = ['rss_mb', 'heap_mb'];

/**
 * One fresh process of `bench tools` on a catalog; its JSON result.
 * @param {string} toolsFile
 * @param {string} queriesFile
 * @param {string[]} extra
 * @returns {Record<string, number>}
 */
function child(toolsFile, queriesFile, extra) {
  return runCliJson(['bench', 'tools', '--tools', toolsFile, '--queries', queriesFile, ...extra], ['--expose-gc']);
}

/** @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** @param {number} value */
const r2 = (value) => Number(value.toFixed(2));

/** @type {Array<Record<string, unknown>>} */
const rows = [];
/**
 * @param {string} set
 * @param {string} toolsFile
 * @param {string} queriesFile
 * @param {number} repetitions
 */
function compare(set, toolsFile, queriesFile, repetitions) {
  /** @type {Record<string, Array<Record<string, number>>>} */
  const runs = { lexical: [], fused: [] };
  // Timing runs serve tool_search as VS Code does (--user-path); memory runs leave that second
  // service out, so the resident set holds one index, as in the extension host.
  for (let i = 0; i < repetitions; i++) {
    for (const [variant, embedder] of [
      ['lexical', []],
      ['fused', ['--embedder', 'bundled']],
    ]) {
      const timing = child(toolsFile, queriesFile, ['--user-path', ...embedder]);
      const memory = child(toolsFile, queriesFile, [...embedder]);
      runs[/** @type {string} */ (variant)].push({ ...pick(timing, TIME_FIELDS), ...pick(memory, MEMORY_FIELDS), tools: timing.tools });
    }
  }
  const fields = [...TIME_FIELDS, ...MEMORY_FIELDS];
  /** @type {Record<string, Record<string, number>>} */
  const medians = {};
  for (const [variant, results] of Object.entries(runs)) {
    medians[variant] = Object.fromEntries(fields.map((f) => [f, r2(median(results.map((r) => r[f])))]));
    const spread = Object.fromEntries(fields.map((f) => [`${f}_spread`, r2(Math.max(...results.map((r) => r[f])) - Math.min(...results.map((r) => r[f])))]));
    rows.push({ set, variant, tools: results[0].tools, runs: results.length, ...medians[variant], ...spread });
  }
  const { lexical, fused } = medians;
  rows.push({
    set,
    variant: 'fused vs lexical',
    user_p95_ms: r2(fused.user_p95_ms - lexical.user_p95_ms),
    p95_cpu_ms: r2(fused.p95_cpu_ms - lexical.p95_cpu_ms),
    cold_index_ratio: r2(fused.index_cpu_ms / lexical.index_cpu_ms),
    rss_growth_mb: r2(fused.rss_mb - lexical.rss_mb),
    heap_growth_mb: r2(fused.heap_mb - lexical.heap_mb),
  });
}

/**
 * @param {Record<string, number>} result
 * @param {string[]} fields
 */
const pick = (result, fields) => Object.fromEntries(fields.map((f) => [f, result[f]]));

const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-embedding-cost-'));
try {
  if (bfcl) compare('bfcl (3,258 tools)', path.join(bfcl, 'tools.jsonl'), path.join(bfcl, 'queries.jsonl'), 5);
  else rows.push({ set: 'bfcl', note: 'skipped: the shared BFCL folder was not found' });
  const files = writeCatalog(tmp, 20000, 7);
  compare('synthetic-20000', files.toolsFile, files.queriesFile, 3);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

console.log(JSON.stringify({ title: 'Embedding cost on the VS Code path: lexical vs bundled fused (medians of fresh processes)', rows }));
