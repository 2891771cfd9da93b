// Tool search benchmark: runs the built CLI (dist/cli.js — the code users run) on the BFCL
// tool-retrieval set and on synthetic catalogs of 200, 2,000 and 20,000 tools, and prints one
// JSON line last: { "title", "rows" } for scripts/bench.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCatalog } from './synthetic-tools.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cli = path.join(root, 'dist', 'cli.js');
const bfcl = path.resolve(root, '..', 'shared', 'benchmarks', 'tool-retrieval', 'bfcl');

function bench(toolsFile, queriesFile, extra = []) {
  const out = execFileSync(process.execPath, [cli, 'bench', 'tools', '--tools', toolsFile, '--queries', queriesFile, '--json', ...extra], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out.trim().split('\n').pop());
}

const rows = [];
const row = (set, r, note = '') => ({
  set,
  tools: r.tools,
  queries: r.queries,
  engine: r.engine,
  'R@1': r.recall_at_1,
  'R@5': r.recall_at_5,
  'R@10': r.recall_at_10,
  'MRR@10': r.mrr_at_10,
  p50_ms: r.p50_ms,
  p95_ms: r.p95_ms,
  index_ms: r.index_ms,
  reindex_one_ms: r.reindex_one_ms ?? '',
  token_reduction: r.token_reduction ?? '',
  note,
});

if (existsSync(path.join(bfcl, 'tools.jsonl'))) {
  const r = bench(path.join(bfcl, 'tools.jsonl'), path.join(bfcl, 'queries.jsonl'), ['--reindex', '--per-category']);
  rows.push(row('bfcl', r, 'index_ms = cold index'));
  for (const [category, c] of Object.entries(r.per_category ?? {})) {
    rows.push({ set: `  bfcl/${category}`, tools: r.tools, queries: c.queries, engine: r.engine, 'R@1': c.recall_at_1, 'R@5': c.recall_at_5, 'R@10': c.recall_at_10, 'MRR@10': c.mrr_at_10, p50_ms: '', p95_ms: '', index_ms: '', reindex_one_ms: '', token_reduction: '', note: '' });
  }
  const none = bench(path.join(bfcl, 'tools.jsonl'), path.join(bfcl, 'queries.jsonl'), ['--engine', 'none']);
  rows.push(row('bfcl (FTS disabled)', none, 'fallback: regex over query words'));
} else {
  rows.push({ set: 'bfcl', note: `skipped: ${bfcl} not found` });
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-bench-'));
try {
  for (const size of [200, 2000, 20000]) {
    const files = writeCatalog(tmp, size, 7);
    const extra = size === 200 ? ['--tokens', '--reindex'] : size === 20000 ? ['--reindex'] : [];
    const r = bench(files.toolsFile, files.queriesFile, extra);
    rows.push(row(`synthetic-${size}`, r, size === 200 ? 'token_reduction: default always-visible set vs all tools' : ''));
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

console.log(JSON.stringify({ title: 'Tool search (tool_search via dist/cli.js)', rows }));
