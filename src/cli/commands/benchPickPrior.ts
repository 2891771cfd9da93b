import { createHash } from 'node:crypto';
import type { CliCommand } from '../cliCommand';
import { readJsonl, readToolCatalog } from './cliInput';
import { cliService, parseArgs, toolsAndQueries } from './toolCliSupport';
import { toolSearchRequestText } from './requestText';

interface QueryRow {
  id?: string;
  query: string;
  gold: string[];
}

const DAY = 86_400_000;
const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** The split the ranker was tuned with: sha1(id) first byte even = tuning half, odd = held out. */
function isHeldOut(row: QueryRow, index: number): boolean {
  return (
    createHash('sha1')
      .update(row.id ?? String(index))
      .digest()[0]! %
      2 ===
    1
  );
}

export const benchPickPriorCommand: CliCommand = {
  path: ['bench', 'pick-prior'],
  summary: 'Recall on held-out queries with and without the learned pick prior (simulated click log)',
  usage: [
    'Usage: toolshed bench pick-prior --tools FILE.jsonl --queries FILE.jsonl [--json]',
    '',
    'Click log from the even half of the queries (sha1 of the id): the model calls the gold tool when tool_search',
    'showed it in the top 5 (success), else the top result (failure). Then R@1/R@5/R@10 on the odd half, learning off vs on.',
  ].join('\n'),
  async run(args, io) {
    const { flags } = parseArgs(args, { switches: ['json'], values: ['tools', 'queries'] });
    const files = toolsAndQueries(flags, 'bench pick-prior', io);
    if (!files) return 2;
    const { toolsFile, queriesFile } = files;
    const tools = readToolCatalog(toolsFile, io);
    const rows = readJsonl<QueryRow>(queriesFile, '--queries').filter((q) => q.gold.length > 0);
    const train = rows.filter((row, i) => !isHeldOut(row, i));
    const test = rows.filter((row, i) => isHeldOut(row, i));
    const service = await cliService(undefined);
    service.setTools(tools);
    service.updateConfig({ toolSearch: { learnFromUse: true } });

    // The click log, spread over the last 60 days (so decay is exercised). Searches here activate
    // nothing and so log nothing by themselves; the log gets the bench's own timestamps.
    const now = Date.now();
    let clicks = 0;
    let failures = 0;
    for (const [i, row] of train.entries()) {
      const at = now - Math.floor((i / Math.max(train.length, 1)) * 60) * DAY;
      const result = await service.withRun({}, (run) =>
        run.search({ query: toolSearchRequestText.text(row.query), limit: 5, include_always_loaded: true }, { activate: false }),
      );
      const names = result.ok ? result.output.tools.map((t) => t.name) : [];
      if (names.length === 0) continue;
      const gold = names.find((n) => row.gold.includes(n));
      service.pickLog.recordSearch(`train-${i}`, row.query, names, at);
      service.pickLog.recordOutcome(`train-${i}`, gold ?? names[0]!, gold !== undefined, at);
      if (gold) clicks++;
      else failures++;
    }
    const evaluate = async (learn: boolean) => {
      service.updateConfig({ toolSearch: { learnFromUse: learn } });
      let r1 = 0;
      let r5 = 0;
      let r10 = 0;
      for (const row of test) {
        const result = await service.withRun({}, (run) =>
          run.search({ query: toolSearchRequestText.text(row.query), limit: 10, include_always_loaded: true }, { activate: false }),
        );
        const names = result.ok ? result.output.tools.map((t) => t.name) : [];
        const rank = names.findIndex((n) => row.gold.includes(n));
        if (rank === 0) r1++;
        if (rank >= 0 && rank < 5) r5++;
        if (rank >= 0 && rank < 10) r10++;
      }
      const n = Math.max(test.length, 1);
      return { recall_at_1: round(r1 / n), recall_at_5: round(r5 / n), recall_at_10: round(r10 / n) };
    };
    const before = await evaluate(false);
    const after = await evaluate(true);
    const result = {
      tools: tools.length,
      train_queries: train.length,
      held_out_queries: test.length,
      ...toolSearchRequestText.describe(rows.map((row) => row.query)),
      clicks,
      failures,
      log_rows: service.pickLog.size(),
      before,
      after,
    };
    if (flags.has('json')) io.stdout(`${JSON.stringify(result)}\n`);
    else io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    await service.dispose();
    return 0;
  },
};
