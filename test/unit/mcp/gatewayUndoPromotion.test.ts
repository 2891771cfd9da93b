import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { CORE_SET_RULES } from '../../../src/core/ledger/learnedCoreSet';
import { LedgerStore } from '../../../src/core/ledger/ledgerStore';
import { MemoryLogger, systemClock } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import { importDoorJournal } from '../../../src/core/runtimes/doors/importDoorJournal';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import { JournalCoreSet, type CoreSetJudge } from '../../../src/mcp/gateway/gatewayCoreSet';
import { gatewayDoorRecorder } from '../../../src/mcp/gateway/gatewayLedger';
import { cli } from '../cli/helpers';
import { tempFolder } from '../../tempFolder';

/**
 * Undo Promotion and Reset for the MCP gateway's learned core set, from the CLI: the word is a
 * line of the workspace's door journal, which every gateway folds in its place among the calls.
 */
describe('MCP gateway: undoing a promotion of the learned core set', () => {
  let dir: string;
  let saved: string | undefined;
  beforeEach(() => {
    dir = tempFolder('toolshed-undo-promotion-');
    saved = process.env.TOOLSHED_HOME;
    process.env.TOOLSHED_HOME = path.join(dir, 'home');
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TOOLSHED_HOME;
    else process.env.TOOLSHED_HOME = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  const judge: CoreSetJudge = { eligible: () => true, tokensOf: () => 100, contextTokens: 128_000 };

  it('an undone tool leaves the set and is not promoted again until a reset; the ledger counts only the calls', async () => {
    const workspace = path.join(dir, 'ws');
    mkdirSync(workspace);
    const folder = doorFolderFor(workspace, process.env.TOOLSHED_HOME);
    const record = gatewayDoorRecorder(
      workspace,
      () => 'claude-code',
      () => undefined,
      process.env.TOOLSHED_HOME,
    );
    const searchedFor = (tool: string, times: number) => {
      for (let i = 0; i < times; i++)
        record({ at: Date.now(), action: 'call', request: tool, tokens: 10, found: [], called: tool, failed: false, missed: true });
    };
    const gateway = new JournalCoreSet(folder);
    const listed = (fold: JournalCoreSet) => {
      fold.refresh(judge);
      return fold.entries.map((entry) => entry.tool).sort();
    };

    searchedFor('mcp_github_create_issue', CORE_SET_RULES.promoteAt);
    searchedFor('mcp_jira_search', CORE_SET_RULES.promoteAt);
    assert.deepEqual(listed(gateway), ['mcp_github_create_issue', 'mcp_jira_search'], 'both promoted');

    const undo = await cli('gateway', 'undo-promotion', 'mcp_github_create_issue', '--workspace', workspace);
    assert.equal(undo.code, 0, undo.all);
    assert.match(undo.out, /mcp_github_create_issue will not be listed directly/);
    assert.deepEqual(listed(gateway), ['mcp_jira_search'], 'a running gateway drops it at its next read');
    searchedFor('mcp_github_create_issue', 3 * CORE_SET_RULES.promoteAt);
    assert.deepEqual(listed(gateway), ['mcp_jira_search'], 'searched for again and again, it is not promoted');
    assert.deepEqual(listed(new JournalCoreSet(folder)), ['mcp_jira_search'], 'a gateway started now agrees');

    const reset = await cli('gateway', 'reset-core-set', '--workspace', workspace);
    assert.equal(reset.code, 0, reset.all);
    assert.deepEqual(listed(gateway), [], 'the set, and what it learned from, are forgotten');
    searchedFor('mcp_github_create_issue', CORE_SET_RULES.promoteAt);
    assert.deepEqual(listed(gateway), ['mcp_github_create_issue'], 'after a reset it can be promoted again');
    assert.deepEqual(listed(new JournalCoreSet(folder)), ['mcp_github_create_issue']);

    const ledger = await LedgerStore.open({ engine: await loadSqlEngine(), store: new MemoryByteStore(), logger: new MemoryLogger(), clock: systemClock });
    importDoorJournal(ledger, folder);
    const calls = 2 * CORE_SET_RULES.promoteAt + 3 * CORE_SET_RULES.promoteAt + CORE_SET_RULES.promoteAt;
    assert.equal(
      ledger.report(1).doors.reduce((sum, row) => sum + row.decisions, 0),
      calls,
      'the undo and the reset are not decisions',
    );
    ledger.close();
  });

  it('refuses a missing, extra or multi-line tool name and a --workspace without a folder, writing nothing', async () => {
    for (const args of [[], ['a', 'b'], ['a\nb'], ['a', '--workspace']]) {
      const result = await cli('gateway', 'undo-promotion', ...args);
      assert.equal(result.code, 2, `${JSON.stringify(args)}: ${result.all}`);
    }
    assert.equal((await cli('gateway', 'reset-core-set', 'extra')).code, 2);
    assert.ok(!existsSync(path.join(process.env.TOOLSHED_HOME!, 'workspaces')), 'no journal line was written');
  });
});
