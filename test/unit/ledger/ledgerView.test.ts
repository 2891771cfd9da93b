import { strict as assert } from 'node:assert';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { LedgerStore } from '../../../src/core/ledger/ledgerStore';
import { ledgerViewModel } from '../../../src/core/ledger/ledgerView';
import { engine } from '../skills/helpers';

const NOW = Date.UTC(2026, 10, 27, 12);

describe('ledger view model: servers with their tools, then skills, sorted and filtered', () => {
  async function report() {
    const ledger = await LedgerStore.open({ engine: await engine(), store: new MemoryByteStore(), logger: new MemoryLogger(), clock: { now: () => NOW } });
    const tool = (name: string, server: string, sentTokens: number, calls: number, activatedBy?: 'search') => ({
      name,
      server,
      sent: 1,
      sentTokens,
      calls,
      failures: 0,
      ...(activatedBy ? { activatedBy } : {}),
    });
    ledger.record({
      at: NOW,
      rounds: 1,
      modelRequests: 1,
      toolsSent: 4,
      toolDefinitionTokens: 1000,
      tools: [
        tool('mcp_github_create_issue', 'github', 500, 0, 'search'),
        tool('mcp_github_list_issues', 'github', 100, 3),
        tool('mcp_jira_search', 'jira', 300, 1),
        tool('copilot_readFile', 'built-in', 100, 5),
      ],
      skills: [
        { name: 'triage', injected: true, followed: true, selectionTokens: 10 },
        { name: 'release-notes', injected: true, followed: false, selectionTokens: 50 },
      ],
    });
    return ledger.report(7);
  }

  it('by tokens: the costliest server and tool first', async () => {
    const model = ledgerViewModel(await report(), 'tokens', '');
    assert.deepEqual(
      model.servers.map((group) => group.server.server),
      ['github', 'jira', 'built-in'],
    );
    assert.deepEqual(
      model.servers[0]!.tools.map((tool) => tool.tool),
      ['mcp_github_create_issue', 'mcp_github_list_issues'],
    );
    assert.deepEqual(
      model.skills.map((skill) => skill.skill),
      ['release-notes', 'triage'],
    );
  });

  it('by calls and by vain activations; a filter keeps matching rows (a server name keeps its tools)', async () => {
    const r = await report();
    assert.deepEqual(
      ledgerViewModel(r, 'calls', '').servers.map((group) => group.server.server),
      ['built-in', 'github', 'jira'],
    );
    assert.equal(ledgerViewModel(r, 'vain', '').servers[0]!.server.server, 'github');
    const filtered = ledgerViewModel(r, 'tokens', 'LIST');
    assert.deepEqual(
      filtered.servers.flatMap((group) => group.tools.map((tool) => tool.tool)),
      ['mcp_github_list_issues'],
    );
    assert.deepEqual(filtered.skills, []);
    assert.equal(ledgerViewModel(r, 'name', 'jira').servers[0]!.tools[0]!.tool, 'mcp_jira_search');
  });
});
