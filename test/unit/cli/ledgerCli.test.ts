import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { LedgerStore } from '../../../src/core/ledger/ledgerStore';
import type { LedgerReport } from '../../../src/core/ledger/ledgerReport';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import { engine } from '../skills/helpers';
import { cli } from './helpers';
import { tempFolder } from '../../tempFolder';

describe('toolshed ledger', () => {
  let folder: string;
  before(async () => {
    folder = tempFolder('toolshed-ledger-');
    const ledger = await LedgerStore.open({
      engine: await engine(),
      store: new NodeByteStore(folder),
      logger: new MemoryLogger(),
      clock: { now: () => Date.now() },
    });
    const at = Date.now();
    ledger.record({
      at,
      rounds: 2,
      modelRequests: 3,
      toolsSent: 3,
      toolDefinitionTokens: 1234,
      tools: [
        { name: 'tool_search', server: 'Toolshed', sent: 2, sentTokens: 234, calls: 1, failures: 0 },
        { name: 'mcp_github_create_issue', server: 'github', sent: 1, sentTokens: 1000, activatedBy: 'search', calls: 1, failures: 1 },
      ],
      skills: [{ name: 'triage-issues', injected: true, followed: true, selectionTokens: 77 }],
    });
    ledger.record({ at: at - 40 * 86_400_000, rounds: 1, modelRequests: 1, toolsSent: 1, toolDefinitionTokens: 50, tools: [], skills: [] });
    await ledger.save();
    ledger.close();
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('prints the tables of the period from a storage folder', async () => {
    const { code, out } = await cli('ledger', '--storage', folder);
    assert.equal(code, 0);
    assert.match(out, /last 7 days .*: 1 turns, 2 rounds, 3 model requests, 3 tool definitions sent \(1,234 tokens\)/);
    const row = out.split('\n').find((line) => line.startsWith('mcp_github_create_issue'));
    assert.ok(row, out);
    assert.deepEqual(row.split(/\s+/).slice(1), ['github', '1', '1,000', '0', '1', '0', '0', '0', '1', '1']);
    assert.match(out, /^triage-issues\s+1\s+1\s+0\s+0\s+77$/m);
  });

  it('--json gives the same report; --days widens the period', async () => {
    const week = JSON.parse((await cli('ledger', '--storage', folder, '--json')).out) as LedgerReport;
    assert.deepEqual(week.totals, { turns: 1, rounds: 2, modelRequests: 3, toolsSent: 3, toolDefinitionTokens: 1234 });
    assert.equal(week.servers.find((server) => server.server === 'github')?.failures, 1);
    const twoMonths = JSON.parse((await cli('ledger', '--storage', folder, '--json', '--days', '60')).out) as LedgerReport;
    assert.equal(twoMonths.totals.turns, 2);
  });

  it('a damaged or newer ledger.db: says what happened, exits 1 and leaves the file as it was (a read-only command)', async () => {
    const { readFileSync, readdirSync, writeFileSync, mkdirSync } = await import('node:fs');
    const sql = await engine();
    const healthy = readFileSync(path.join(folder, 'ledger.db'));
    const newer = new sql.sql.Database(healthy);
    newer.run("UPDATE toolshed_meta SET value = 'ledger/99' WHERE key = 'schema_version'");
    const cases: Array<[string, Uint8Array, RegExp]> = [
      ['newer', newer.export(), /written by a newer version of Toolshed \(schema "ledger\/99"/],
      ['damaged', new TextEncoder().encode('not a database '.repeat(300)), /cannot be read/],
    ];
    newer.close();
    for (const [label, bytes, reason] of cases) {
      const dir = path.join(folder, label);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'ledger.db'), bytes);
      const { code, out, err } = await cli('ledger', '--storage', dir);
      assert.equal(code, 1, `${label}: ${out}${err}`);
      assert.match(err, reason, label);
      assert.match(err, /left as it is/, label);
      assert.doesNotMatch(out, /No @toolshed turn recorded/, label);
      assert.deepEqual(readdirSync(dir), ['ledger.db'], `${label}: nothing renamed or added`);
      assert.deepEqual(new Uint8Array(readFileSync(path.join(dir, 'ledger.db'))), bytes, `${label}: the bytes are unchanged`);
    }
  });

  it('refuses a bad --days or a missing folder with a usage error', async () => {
    for (const days of ['0', '91', 'x', '1.5']) {
      const { code, err } = await cli('ledger', '--storage', folder, '--days', days);
      assert.equal(code, 2);
      assert.match(err, /--days needs a whole number from 1 to 90/);
    }
    assert.equal((await cli('ledger')).code, 2);
    assert.equal((await cli('ledger', '--storage', path.join(folder, 'missing'))).code, 2);
  });
});
