// @ts-check
// Tool search modes, on the code users run (dist/cli.js):
// 1. prompt tokens and rounds per request in each mode, with and without <available_deferred_tools>,
//    on a synthetic 200-tool catalog and a 40-tool one (where `auto` sends everything), with a
//    scripted model that calls the right tool as soon as the prompt offers or names it;
// 2. R@1/5/10 on the held-out half of BFCL before and after the learned pick prior, with a
//    click log simulated from the other half. Prints one JSON line last: { "title", "rows" }.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCatalog } from './synthetic-tools.mjs';
import { bfclFolder as bfcl, runCliJson as runCli } from './cliRuns.mjs';

const rows = [];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-modes-'));
try {
  for (const size of [200, 40]) {
    const files = writeCatalog(tmp, size, 7);
    const result = runCli(['bench', 'tool-modes', '--tools', files.toolsFile, '--queries', files.queriesFile, '--max-queries', '100']);
    for (const r of result.rows) {
      if (size === 40 && r.mode !== 'auto') continue;
      rows.push({ set: `synthetic-${size}`, ...r, note: r.mode === 'auto' ? (r.tools_sent >= size ? 'auto: all sent' : 'auto: deferred') : '' });
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

if (bfcl) {
  const r = runCli(['bench', 'pick-prior', '--tools', path.join(bfcl, 'tools.jsonl'), '--queries', path.join(bfcl, 'queries.jsonl')]);
  for (const [label, recall] of [
    ['before (learnFromUse off)', r.before],
    ['after (pick prior)', r.after],
  ]) {
    rows.push({
      set: 'bfcl held-out',
      mode: label,
      'R@1': recall.recall_at_1,
      'R@5': recall.recall_at_5,
      'R@10': recall.recall_at_10,
      note: `log: ${r.clicks} worked picks + ${r.failures} failures from ${r.train_queries} queries; tested on ${r.held_out_queries}; queries: ${r.request_text}, ${r.requests_cut} cut`,
    });
  }
} else {
  rows.push({ set: 'bfcl held-out', note: 'skipped: the shared BFCL folder was not found' });
}

console.log(JSON.stringify({ title: 'Tool search modes: prompt tokens per request, deferred names, pick prior', rows }));
