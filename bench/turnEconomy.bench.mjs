// @ts-check
// Turn economy of an @toolshed request (on the code users run, dist/cli.js): rounds, model
// requests, tool-definition and total prompt tokens per turn, the share of requests whose gold
// tool is offered in round 1, and the definitions spent on tools pre-activated in vain — the real
// planner loop with a scripted model, main's behaviour (nothing pre-activated, every tool_search
// result activated) and the current defaults in the same run. BFCL: all requests, the odd half
// (where the gate was tuned) and the held-out even half, also with the bundled embedding on;
// the real MCP catalog (bench/data/mcp-catalog, its two halves, lexical and with the bundled
// embedding); synthetic-200: the toolModes catalog.
// Prints one JSON line last: { "title", "rows" }.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCatalog } from './synthetic-tools.mjs';
import { bfclFolder as bfcl, runCliJson } from './cliRuns.mjs';

/**
 * @typedef {{ subset: string, variant: string, [metric: string]: unknown }} Row
 * @param {string[]} args
 * @returns {{ rows: Row[] }}
 */
const runCli = (args) => runCliJson(['bench', 'turn-economy', ...args]);

/**
 * before → after as a relative change, e.g. -0.21 for 21 % fewer.
 * @param {unknown} before
 * @param {unknown} after
 */
const change = (before, after) =>
  typeof before === 'number' && typeof after === 'number' && before > 0 ? Number(((after - before) / before).toFixed(3)) : null;

/** @type {Array<Record<string, unknown>>} */
const rows = [];
/**
 * @param {string} set
 * @param {{ rows: Row[] }} result
 */
const addSet = (set, result) => {
  for (const subset of [...new Set(result.rows.map((r) => r.subset))]) {
    const [before, after] = result.rows.filter((r) => r.subset === subset);
    if (!before || !after) continue;
    const name = subset === 'all' ? set : `${set} ${subset === 'even' ? 'held-out (even)' : 'tuning (odd)'}`;
    rows.push({ set: name, ...before }, { set: name, ...after });
    rows.push({
      set: name,
      variant: 'change (after vs before)',
      rounds_per_request: change(before.rounds_per_request, after.rounds_per_request),
      model_requests_per_turn: change(before.model_requests_per_turn, after.model_requests_per_turn),
      tool_definition_tokens_per_turn: change(before.tool_definition_tokens_per_turn, after.tool_definition_tokens_per_turn),
      prompt_tokens_per_turn: change(before.prompt_tokens_per_turn, after.prompt_tokens_per_turn),
    });
  }
};

if (bfcl) {
  addSet('bfcl', runCli(['--tools', path.join(bfcl, 'tools.jsonl'), '--queries', path.join(bfcl, 'queries.jsonl'), '--halves']));
  // The same with the bundled embedding on: fused ranking, and its calibrated similarity in the relevance gate.
  addSet(
    'bfcl, bundled embedding',
    runCli(['--tools', path.join(bfcl, 'tools.jsonl'), '--queries', path.join(bfcl, 'queries.jsonl'), '--halves', '--embedder', 'bundled']),
  );
} else {
  rows.push({ set: 'bfcl', note: 'skipped: the shared BFCL folder was not found' });
}
const tmp = mkdtempSync(path.join(os.tmpdir(), 'toolshed-turns-'));
try {
  // The real MCP catalog (bench/data/mcp-catalog): its requests a tool serves, as `bench
  // turn-economy` reads them (ids `mcp_N`, so --halves splits odd/even as the set does). The
  // scripted model calls the first gold name; requests with several acceptable tools list the
  // most direct one first.
  const mcp = path.join(path.dirname(new URL(import.meta.url).pathname), 'data', 'mcp-catalog');
  const mcpQueries = path.join(tmp, 'real-mcp-queries.jsonl');
  writeFileSync(
    mcpQueries,
    readFileSync(path.join(mcp, 'requests.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line))
      .filter((r) => r.kind === 'tool')
      .map((r) => JSON.stringify({ id: `mcp_${r.id}`, query: r.request, gold: r.gold }))
      .join('\n'),
  );
  const mcpTools = path.join(mcp, 'tools.jsonl');
  addSet('real MCP', runCli(['--tools', mcpTools, '--queries', mcpQueries, '--halves']));
  addSet('real MCP, bundled embedding', runCli(['--tools', mcpTools, '--queries', mcpQueries, '--halves', '--embedder', 'bundled']));
  const files = writeCatalog(tmp, 200, 7);
  addSet('synthetic-200', runCli(['--tools', files.toolsFile, '--queries', files.queriesFile]));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

console.log(JSON.stringify({ title: 'Turn economy: rounds, model requests and prompt tokens per @toolshed turn, before → after pre-activation', rows }));
