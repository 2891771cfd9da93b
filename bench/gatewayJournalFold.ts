/**
 * A row of bench/gatewayBench.ts: what a gateway pays at its start to fold its learned core set
 * from a workspace's door journal (`JournalCoreSet.refresh`, the function the gateway calls), after
 * 100,000 and 1,000,000 gateway calls were journaled through `appendToJournal` (the writers' own
 * function, so segments start and the oldest are deleted as they are for users). Calls: a mix of
 * five frequent tools and 150 others, a third of them found by a search (missed).
 */
import { mkdtempSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { doorJournalLine } from '../src/core/ledger/doorJournal';
import { appendToJournal, journalSegments } from '../src/core/runtimes/doors/doorJournalSegments';
import { JournalCoreSet, type CoreSetJudge } from '../src/mcp/gateway/gatewayCoreSet';
import { rng, round } from './benchMath';

const SIZES = [100_000, 1_000_000];
const BATCH = 1000;

export function journalFoldRows(dir: string): Record<string, unknown>[] {
  const judge: CoreSetJudge = { eligible: () => true, tokensOf: () => 150, contextTokens: 128_000 };
  return SIZES.map((calls) => {
    const folder = mkdtempSync(path.join(dir, 'journal-'));
    const random = rng(calls);
    let batch = '';
    for (let i = 0; i < calls; i++) {
      const tool = random() < 0.5 ? `mcp_hot_${Math.floor(random() * 5)}` : `mcp_tool_${Math.floor(random() * 150)}`;
      batch += doorJournalLine({
        at: 1_780_000_000_000 + i * 1000,
        door: 'mcp',
        runtime: 'claude-code',
        action: 'call_tool',
        skills: [tool],
        searches: 0,
        tokens: 150,
        ...(random() < 0.33 ? { missed: [tool] } : {}),
      });
      if ((i + 1) % BATCH === 0 || i === calls - 1) {
        appendToJournal(folder, batch);
        batch = '';
      }
    }
    const segments = journalSegments(folder);
    const bytes = segments.reduce((sum, file) => sum + statSync(file).size, 0);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const fold = new JournalCoreSet(folder);
    fold.refresh(judge);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return {
      case: `learned core set folded at a gateway's start, ${calls.toLocaleString('en')} calls journaled`,
      calls_journaled: calls,
      segments_kept: segments.length,
      journal_mb_kept: round(bytes / 1024 / 1024, 1),
      fold_ms: round(wall, 0),
      fold_cpu_ms: round((used.user + used.system) / 1000, 0),
      tools_listed: fold.entries.length,
    };
  });
}
