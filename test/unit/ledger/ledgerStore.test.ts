import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { loadSqlEngine, type SqlEngine } from '../../../src/core/sql/sqlEngine';
import { LEDGER_DB_KEY, LEDGER_RETENTION_DAYS, LedgerStore, RECENT_TURNS_KEPT } from '../../../src/core/ledger/ledgerStore';
import { apportion, type LedgerTurn } from '../../../src/core/ledger/ledgerTurn';
import { LearningStore } from '../../../src/core/learning/learningStore';

const DAY = 86_400_000;
const NOV_27 = Date.UTC(2026, 10, 27, 12);

function turn(at: number, overrides: Partial<LedgerTurn> = {}): LedgerTurn {
  return {
    at,
    rounds: 2,
    modelRequests: 2,
    toolsSent: 5,
    toolDefinitionTokens: 300,
    tools: [
      { name: 'tool_search', server: 'Toolshed', sent: 2, sentTokens: 120, calls: 1, failures: 0 },
      { name: 'read_file', server: 'built-in', sent: 2, sentTokens: 100, calls: 0, failures: 0 },
      { name: 'mcp_github_create_issue', server: 'github', sent: 1, sentTokens: 80, activatedBy: 'search', calls: 1, failures: 1 },
      { name: 'mcp_github_list_prs', server: 'github', sent: 0, sentTokens: 0, activatedBy: 'request', calls: 0, failures: 0 },
    ],
    skills: [
      { name: 'triage-issues', injected: true, followed: true, selectionTokens: 40 },
      { name: 'write-release-notes', injected: true, followed: false, selectionTokens: 0 },
    ],
    ...overrides,
  };
}

describe('ledger store', () => {
  let engine: SqlEngine;
  before(async () => {
    engine = await loadSqlEngine();
  });
  const open = (store = new MemoryByteStore(), now = NOV_27, logger = new MemoryLogger()) =>
    LedgerStore.open({ engine, store, logger, clock: { now: () => now } });

  it("a turn's numbers appear per tool, per skill, per server and in the totals", async () => {
    const ledger = await open();
    ledger.record(turn(NOV_27));
    ledger.record(turn(NOV_27));
    ledger.recordFeedback(['triage-issues'], true);
    const report = ledger.report(7);
    assert.deepEqual(report.totals, { turns: 2, rounds: 4, modelRequests: 4, toolsSent: 10, toolDefinitionTokens: 600 });
    const create = report.tools.find((row) => row.tool === 'mcp_github_create_issue')!;
    assert.equal(create.sent, 2);
    assert.equal(create.sentTokens, 160);
    assert.equal(create.activations.search, 2);
    assert.equal(create.calls, 2);
    assert.equal(create.failures, 2);
    const listed = report.tools.find((row) => row.tool === 'mcp_github_list_prs')!;
    assert.equal(listed.vain, 2, 'activated by the request match and never called');
    assert.equal(listed.activations.request, 2);
    const github = report.servers.find((row) => row.server === 'github')!;
    assert.deepEqual([github.tools, github.sentTokens, github.calls, github.vain], [2, 160, 2, 2]);
    const triage = report.skills.find((row) => row.skill === 'triage-issues')!;
    assert.deepEqual([triage.injections, triage.follows, triage.helpful, triage.selectionTokens], [2, 2, 1, 80]);
    assert.equal(report.skills.find((row) => row.skill === 'write-release-notes')!.follows, 0);
  });

  it('the period counts only its days; days past the retention are dropped and recent turns are capped', async () => {
    const store = new MemoryByteStore();
    let now = NOV_27 - 200 * DAY;
    const ledger = await LedgerStore.open({ engine, store, logger: new MemoryLogger(), clock: { now: () => now } });
    for (let day = 0; day <= 200; day++) ledger.record(turn(NOV_27 - (200 - day) * DAY));
    now = NOV_27;
    assert.equal(ledger.report(7).totals.turns, 7);
    assert.equal(ledger.report(30).totals.turns, 30);
    assert.equal(ledger.report(365).totals.turns, LEDGER_RETENTION_DAYS, 'older days were pruned');
    for (let i = 0; i < RECENT_TURNS_KEPT + 20; i++) ledger.record(turn(NOV_27));
    assert.equal(ledger.recentCalls(1000).length, RECENT_TURNS_KEPT);
    const before = ledger.byteSize();
    for (let i = 0; i < 500; i++) ledger.record(turn(NOV_27));
    assert.equal(ledger.byteSize(), before, 'more turns of the same day and tools do not grow the file');
  });

  it('names are redacted before they are stored: no secret in the saved file', async () => {
    const store = new MemoryByteStore();
    const ledger = await open(store);
    const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    ledger.record(
      turn(NOV_27, {
        tools: [{ name: `mcp_x-${secret}`, server: `https://h.example/sse?api_key=${secret}`, sent: 1, sentTokens: 10, calls: 1, failures: 0 }],
        skills: [],
      }),
    );
    await ledger.save();
    const text = Buffer.from(store.entries.get(LEDGER_DB_KEY)!).toString('latin1');
    assert.ok(!text.includes(secret));
    const [row] = ledger.report(1).tools;
    assert.match(row.tool, /\[REDACTED/);
    assert.ok(!row.server.includes(secret));
  });

  it('a damaged ledger.db is rebuilt (old bytes kept aside) and no other store loses anything', async () => {
    const store = new MemoryByteStore();
    const learning = await LearningStore.open({ engine, store, logger: new MemoryLogger(), clock: { now: () => NOV_27 } });
    learning.recordOutcome('triage-issues', 'helpful');
    await learning.save();
    learning.close();
    const learningBytes = store.entries.get('learning.db')!.slice();
    const first = await open(store);
    first.record(turn(NOV_27));
    await first.save();
    first.close();
    const damaged = store.entries.get(LEDGER_DB_KEY)!.slice();
    damaged.fill(0x5a, 100, 4000);
    await store.write(LEDGER_DB_KEY, damaged);

    const logger = new MemoryLogger();
    const reopened = await open(store, NOV_27, logger);
    assert.equal(reopened.openStatus.status, 'rebuilt');
    assert.ok(reopened.openStatus.backupKey && store.entries.has(reopened.openStatus.backupKey), 'the damaged bytes are kept aside');
    assert.ok(logger.lines.some((line) => line.message.includes('ledger.db') && line.message.includes('rebuilt')));
    assert.deepEqual(store.entries.get('learning.db'), learningBytes, 'learning.db untouched');
    reopened.record(turn(NOV_27));
    await reopened.save();
    assert.equal((await open(store)).report(1).totals.turns, 1, 'the rebuilt ledger records and saves again');
  });

  it('a ledger.db written by a newer Toolshed (after a downgrade) is kept aside with its turns and retired skills, and the warning says where', async () => {
    const store = new MemoryByteStore();
    const newer = await open(store);
    for (let i = 0; i < 50; i++) newer.record(turn(NOV_27));
    newer.retireSkill('triage-issues');
    await newer.save();
    newer.close();
    const bytes = store.entries.get(LEDGER_DB_KEY)!;
    const stamped = new engine.sql.Database(bytes);
    stamped.run("UPDATE toolshed_meta SET value = 'ledger/99' WHERE key = 'schema_version'");
    await store.write(LEDGER_DB_KEY, stamped.export());
    stamped.close();

    const logger = new MemoryLogger();
    const older = await open(store, NOV_27, logger);
    assert.equal(older.openStatus.status, 'rebuilt');
    const kept = older.openStatus.backupKey;
    assert.ok(kept?.startsWith('ledger.db.newer-'), String(kept));
    assert.ok(logger.lines.some((line) => line.level === 'warn' && line.message.includes(kept!) && /newer version of Toolshed/.test(line.message)));
    older.record(turn(NOV_27));
    await older.save();
    older.close();
    const copy = new engine.sql.Database(store.entries.get(kept!)!);
    assert.equal(copy.exec('SELECT turns FROM turn_days')[0]?.values[0]?.[0], 50, 'the 50 turns are in the kept copy');
    assert.equal(copy.exec('SELECT skill FROM retired_skills')[0]?.values[0]?.[0], 'triage-issues');
    copy.close();
  });

  it('a tool the policy denies now is not named in the report; the totals keep its numbers', async () => {
    const ledger = await open();
    ledger.record(turn(NOV_27));
    const report = ledger.report(7, (tool) => !tool.startsWith('mcp_github_'));
    assert.ok(!JSON.stringify(report.tools).includes('mcp_github'));
    assert.ok(!report.servers.some((row) => row.server === 'github'));
    assert.equal(report.totals.toolDefinitionTokens, 300);
  });

  it('apportion splits a total in whole shares that sum to it exactly', () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.array(fc.nat(5000), { minLength: 1, maxLength: 200 }), (total, weights) => {
        const shares = apportion(total, weights);
        assert.equal(
          shares.reduce((a, b) => a + b, 0),
          total,
        );
        assert.ok(shares.every((share) => share >= 0));
      }),
    );
  });
});
