// @ts-check
// Tool search benchmark: runs the built CLI (dist/cli.js — the code users run) on the BFCL
// tool-retrieval set (tuning half = odd query ids, held-out half = even ids; defaults were
// chosen on the odd half only), on synthetic catalogs of 200, 2,000 and 20,000 tools, and on
// BFCL padded with synthetic distractors to 100,000 tools. `user/engine p95` compares
// tool_search as VS Code serves it (catalog sync with the extension's own list poll running in the same event loop, sidebar count, run, search, JSON result) with
// the engine alone, interleaved in one process. `index_ms` is the cold index until searchable
// (as at activation), `index_cpu_ms` its main-thread CPU time (steadier on a shared machine),
// `persist_ms` the sql.js write the delayed save does afterwards. Prints one JSON line last:
// { "title", "rows" }.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCatalog, writePaddedCatalog } from './synthetic-tools.mjs';
import { bfclFolder, runCliJson } from './cliRuns.mjs';

/**
 * One `toolshed bench tools` run; its JSON result (field names as the CLI prints them).
 * @param {string} toolsFile
 * @param {string} queriesFile
 * @param {string[]} [extra]
 * @returns {Record<string, any>}
 */
function bench(toolsFile, queriesFile, extra = []) {
  return runCliJson(['bench', 'tools', '--tools', toolsFile, '--queries', queriesFile, ...extra]);
}

/** @type {object[]} */
const rows = [];
/** Recall@5 counting a hit on any `__vN` variant of the gold (BFCL's paraphrased definitions). */
/** @type {(r: Record<string, any>) => number | string} */
const familyR5 = (r) => {
  const groups = [r.gold_single_definition, r.gold_with_variants].filter(Boolean);
  const n = groups.reduce((sum, g) => sum + g.queries, 0);
  return n > 0 ? Number((groups.reduce((sum, g) => sum + g.family_recall_at_5 * g.queries, 0) / n).toFixed(3)) : '';
};
/** @type {(set: string, r: Record<string, any>, note?: string) => object} */
const row = (set, r, note = '') => ({
  set,
  tools: r.tools,
  queries: r.queries,
  embedder: r.embedder ?? '',
  'R@1': r.recall_at_1,
  'R@5': r.recall_at_5,
  'family R@5': familyR5(r),
  'R@10': r.recall_at_10,
  'MRR@10': r.mrr_at_10,
  p50_ms: r.p50_ms,
  p95_ms: r.p95_ms,
  p95_cpu_ms: r.p95_cpu_ms ?? '',
  index_ms: r.index_ms,
  index_cpu_ms: r.index_cpu_ms ?? '',
  first_search_ms: r.first_search_ms ?? '',
  persist_ms: r.persist_ms ?? '',
  persist_cpu_ms: r.persist_cpu_ms ?? '',
  reindex_one_ms: r.reindex_one_ms ?? '',
  token_reduction: r.token_reduction ?? '',
  user_p95_ms: r.user_p95_ms ?? '',
  'user/engine p95': r.user_engine_p95_ratio ?? '',
  host_list_read_ms: r.host_list_read_ms ?? '',
  request_text: r.request_text ? `${r.request_text}; ${r.requests_cut} cut` : '',
  'list reads / searches behind a poll / searches': r.user_searches ? `${r.list_reads_during_run} / ${r.searches_behind_a_poll} / ${r.user_searches}` : '',
  note,
});
/** @type {(label: string, r: Record<string, any>) => object[]} */
const categoryRows = (label, r) =>
  Object.entries(r.per_category ?? {}).map(([category, c]) => ({
    set: `  ${label}/${category}`,
    tools: r.tools,
    queries: c.queries,
    'R@1': c.recall_at_1,
    'R@5': c.recall_at_5,
    'R@10': c.recall_at_10,
    'MRR@10': c.mrr_at_10,
  }));
/**
 * Per-category R@5 / R@10 change of an ablation against the default run, as one note.
 * @type {(r: Record<string, any>, base: Record<string, any>) => string}
 */
const categoryDelta = (r, base) =>
  Object.entries(r.per_category ?? {})
    .map(([category, c]) => {
      const b = base.per_category[category];
      /** @param {number} x */
      const d = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
      return `${category} ${d(c.recall_at_5 - b.recall_at_5)}/${d(c.recall_at_10 - b.recall_at_10)}`;
    })
    .join('; ');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-bench-'));
try {
  const bfcl = bfclFolder;
  if (bfcl) {
    const tools = path.join(bfcl, 'tools.jsonl');
    const queries = path.join(bfcl, 'queries.jsonl');
    const held = bench(tools, queries, ['--half', 'even', '--per-category', '--reindex', '--user-path']);
    rows.push(
      row(
        'bfcl held-out (even ids)',
        held,
        'index_ms = cold index of 3,258 tools until searchable (index_cpu_ms: main-thread CPU); persist_ms = the deferred sql.js write + export, off the search path',
      ),
    );
    rows.push(...categoryRows('held-out', held));
    // BFCL's `name__vN` variants are paraphrased definitions of one function; the gold is the
    // variant of the query's own test case. Split so ranking and that label noise read apart.
    for (const [label, key] of [
      ['gold has one definition', 'gold_single_definition'],
      ['gold has __vN variants', 'gold_with_variants'],
    ]) {
      const v = held[key];
      if (v)
        rows.push({
          set: `  held-out/${label}`,
          tools: held.tools,
          queries: v.queries,
          'R@5': v.recall_at_5,
          'R@10': v.recall_at_10,
          note: `any variant of the gold: R@5 ${v.family_recall_at_5}, R@10 ${v.family_recall_at_10}`,
        });
    }
    // Hybrid ranking (toolshed.embeddings): each component's own row on the held-out half, the
    // bundled embedding alone, then fused with the lexical stage (weights tuned on the odd half).
    const embeddingOnly = bench(tools, queries, [
      '--half',
      'even',
      '--per-category',
      '--embedder',
      'bundled',
      '--ranker',
      JSON.stringify({ semanticOnly: true }),
    ]);
    rows.push(row('held-out, bundled embedding alone', embeddingOnly, categoryDelta(embeddingOnly, held)));
    const fused = bench(tools, queries, ['--half', 'even', '--per-category', '--reindex', '--user-path', '--embedder', 'bundled']);
    rows.push(row('held-out, lexical + bundled embedding (fused)', fused, `${categoryDelta(fused, held)}; rss ${held.rss_mb} → ${fused.rss_mb} MB`));
    rows.push(...categoryRows('held-out fused', fused));
    const fusedTune = bench(tools, queries, ['--half', 'odd', '--embedder', 'bundled']);
    rows.push(row('tuning half, lexical + bundled embedding (fused)', fusedTune));
    const tune = bench(tools, queries, ['--half', 'odd', '--per-category']);
    rows.push(row('bfcl tuning half (odd ids)', tune));
    rows.push(...categoryRows('tuning', tune));
    rows.push(row('bfcl all queries', bench(tools, queries, [])));
    // Each vocabulary-bridge change against the default, on the held-out half (R@5/R@10 Δ per category).
    /** @type {Array<[string, object]>} */
    const ablations = [
      ['held-out, no de-compounding', { expansion: { compoundPartWeight: 0 } }],
      ['held-out, no stem variants', { expansion: { variantWeight: 0 } }],
      ['held-out, + WordNet related words', { expansion: { relatedWeight: 0.5 } }],
      ['held-out, + pseudo-relevance feedback', { feedback: { documents: 3, terms: 5, weight: 0.3 } }],
    ];
    for (const [label, ranker] of ablations) {
      const r = bench(tools, queries, ['--half', 'even', '--per-category', '--ranker', JSON.stringify(ranker)]);
      rows.push(row(label, r, categoryDelta(r, held)));
    }
    const realTools = readFileSync(tools, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const padded = writePaddedCatalog(tmp, realTools, 100000, 7);
    rows.push(row('bfcl held-out in 100k tools', bench(padded, queries, ['--half', 'even']), '3,258 BFCL tools + 96,742 synthetic distractors'));
  } else {
    rows.push({ set: 'bfcl', note: 'skipped: the shared BFCL folder was not found' });
  }

  for (const size of [200, 2000, 20000]) {
    const files = writeCatalog(tmp, size, 7);
    const extra = size === 200 ? ['--tokens', '--reindex'] : size === 20000 ? ['--reindex', '--user-path'] : [];
    const r = bench(files.toolsFile, files.queriesFile, extra);
    rows.push(row(`synthetic-${size}`, r, size === 200 ? 'token_reduction: default always-visible set vs all tools' : ''));
    if (size === 20000) {
      const h = bench(files.toolsFile, files.queriesFile, [...extra, '--embedder', 'bundled']);
      rows.push(
        row('synthetic-20000, bundled embedding (fused)', h, `rss ${r.rss_mb} → ${h.rss_mb} MB; cold index ${r.index_cpu_ms} → ${h.index_cpu_ms} ms CPU`),
      );
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

console.log(JSON.stringify({ title: 'Tool search (tool_search via dist/cli.js)', rows }));
