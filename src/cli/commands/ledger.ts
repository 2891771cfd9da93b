import type { CliCommand } from '../cliCommand';
import * as path from 'node:path';
import { LEDGER_DB_KEY, LedgerStore } from '../../core/ledger/ledgerStore';
import { ledgerTableText } from '../../core/ledger/ledgerTable';
import { nullLogger, systemClock } from '../../core/platform/basicPorts';
import { NodeByteStore } from '../../core/platform/nodeByteStore';
import { MemoryByteStore } from '../../core/platform/memoryByteStore';
import { escapeForLine } from '../../core/platform/lineText';
import { doorFolderFor } from '../../core/runtimes/doors/doorFolder';
import { importDoorJournal } from '../../core/runtimes/doors/importDoorJournal';
import { loadSqlEngine } from '../../core/sql/sqlEngine';
import { checkStorageFolder } from './learnedSnapshotSupport';
import { parseSkillArgs } from './skillCliSupport';

export const ledgerCommand: CliCommand = {
  path: ['ledger'],
  summary: 'Print what each tool, skill and server cost and gave back (the Ledger view)',
  usage: [
    'Usage: toolshed ledger [--storage DIR] [--workspace FOLDER] [--days N] [--json]',
    '',
    "DIR is the Toolshed storage folder (the extension's workspace storage, holding ledger.db). With --workspace, the",
    'decisions of the hook and the MCP server for FOLDER (its door journal) are counted too; with --workspace alone, only they',
    '(ledger.db is only read: the extension counts the same decisions into it when it opens or shows its ledger).',
    'Prints, for the last N days (default 7, at most 90; today included): per tool the definitions sent and',
    'their tokens, activations by source (request match, search, first use, skill), vain activations',
    '(activated, never called), calls and failures; per skill injections, follows, feedback and selection',
    'tokens; per server the totals; per door (hook, MCP server) and runtime its decisions, those that handed the model a',
    'skill, the skills, searches and tokens. --json prints the same as one JSON object.',
    'Reads only: a ledger.db it cannot use (damaged, or written by a newer Toolshed) is reported and left as it is.',
    'Exit code: 0 on success, 1 when ledger.db cannot be read, 2 on usage errors.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseSkillArgs(args, { switches: ['json'], values: ['storage', 'days', 'workspace'] });
    const workspace = parsed.flags.get('workspace');
    let folder: string | undefined;
    try {
      if (workspace === undefined || parsed.flags.has('storage')) folder = checkStorageFolder(parsed.flags.get('storage'));
    } catch (error) {
      io.stderr(`toolshed ledger: ${(error as Error).message} See --help.\n`);
      return 2;
    }
    const daysFlag = parsed.flags.get('days');
    const days = daysFlag === undefined ? 7 : Number(daysFlag);
    if (!Number.isInteger(days) || days < 1 || days > 90) {
      io.stderr('toolshed ledger: --days needs a whole number from 1 to 90. See --help.\n');
      return 2;
    }
    const store = folder === undefined ? new MemoryByteStore() : new NodeByteStore(folder);
    const ledger = await LedgerStore.open({ engine: await loadSqlEngine(), store, logger: nullLogger, clock: systemClock, readOnly: true });
    try {
      const opened = ledger.openStatus;
      if (folder !== undefined && opened.status === 'rebuilt') {
        io.stderr(`toolshed ledger: ${path.join(folder, LEDGER_DB_KEY)} cannot be read: ${opened.reason ?? 'unknown reason'}. The file was left as it is.\n`);
        return 1;
      }
      if (typeof workspace === 'string')
        for (const problem of importDoorJournal(ledger, doorFolderFor(workspace)).skipped)
          io.stderr(`toolshed ledger: door journal: skipped ${escapeForLine(problem)}\n`);
      const report = ledger.report(days);
      io.stdout(parsed.flags.get('json') === true ? `${JSON.stringify(report, null, 2)}\n` : ledgerTableText(report));
      return 0;
    } finally {
      ledger.close();
    }
  },
};
