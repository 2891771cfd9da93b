import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { doorJournalLine, parseDoorJournal, type DoorLedgerEntry } from '../../../src/core/ledger/doorJournal';
import { LedgerStore } from '../../../src/core/ledger/ledgerStore';
import { ledgerTableText } from '../../../src/core/ledger/ledgerTable';
import { MemoryLogger, systemClock } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import type { ByteStore } from '../../../src/core/platform/ports';
import { readLastDecisions, recordDoorDecision } from '../../../src/core/runtimes/doors/doorDecision';
import { DOOR_JOURNAL_FILE, doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import { journalSegments } from '../../../src/core/runtimes/doors/doorJournalSegments';
import { importDoorJournal } from '../../../src/core/runtimes/doors/importDoorJournal';
import { loadSqlEngine, type SqlEngine } from '../../../src/core/sql/sqlEngine';
import { tempFolder } from '../../tempFolder';

/**
 * One ledger across doors: the hook and the MCP server append their decisions to the workspace's
 * door journal, and the ledger counts each of them exactly once, whatever writes or saves at the
 * same time, with damaged lines skipped and named.
 */

const WRITER = path.join(__dirname, 'doorWriterProcess.ts');
const temp = () => tempFolder('toolshed-doors-');

function runWriter(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}: ${err}`))));
  });
}

describe('door decisions in the ledger', () => {
  let engine: SqlEngine;
  before(async () => {
    engine = await loadSqlEngine();
  });
  const open = (store: ByteStore = new MemoryByteStore()) => LedgerStore.open({ engine, store, logger: new MemoryLogger(), clock: systemClock });

  it('counts a hook decision once per door and runtime, with its skills as injections, and keeps it as the last decision', async () => {
    const home = temp();
    const workspace = temp();
    const error = recordDoorDecision(
      workspace,
      {
        door: 'hook',
        runtime: 'claude',
        action: 'inject',
        request: 'deploy with key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789',
        injected: ['deploy-app'],
        searches: 1,
        tokens: 120,
      },
      { home },
    );
    assert.equal(error, undefined);
    const folder = doorFolderFor(workspace, home);
    const journal = readFileSync(path.join(folder, DOOR_JOURNAL_FILE), 'utf8');
    assert.doesNotMatch(journal, /sk-ant|deploy with/, 'the journal keeps counts and names, never the request');
    const ledger = await open();
    assert.deepEqual(importDoorJournal(ledger, folder), { imported: 1, skipped: [] });
    assert.deepEqual(importDoorJournal(ledger, folder), { imported: 0, skipped: [] }, 'a second import counts nothing again');
    const report = ledger.report(1);
    assert.deepEqual(report.doors, [
      { door: 'hook', runtime: 'claude', decisions: 1, withSkills: 1, injections: 1, searches: 1, tokens: 120, withOffers: 0, offers: 0 },
    ]);
    assert.equal(report.skills.find((row) => row.skill === 'deploy-app')?.injections, 1);
    const last = readLastDecisions(folder).decisions[0];
    assert.equal(last?.door, 'hook');
    assert.doesNotMatch(last?.request ?? '', /abcdefghijklmnop/, 'the kept request is redacted');
    assert.match(last?.request ?? '', /^deploy with key /);
  });

  it('a hook’s offers count apart from its injections: the door’s offers, never a skill’s injection', async () => {
    const home = temp();
    const workspace = temp();
    const decide = (injected: string[], offered: string[]) =>
      recordDoorDecision(workspace, { door: 'hook', runtime: 'copilot', action: 'inject', request: 'r', injected, offered, searches: 1, tokens: 40 }, { home });
    assert.equal(decide([], ['pdf-form-filler', 'pdf-fill-studio']), undefined);
    assert.equal(decide(['report'], ['statistical-analysis']), undefined);
    assert.equal(decide([], []), undefined);
    const folder = doorFolderFor(workspace, home);
    const ledger = await open();
    assert.deepEqual(importDoorJournal(ledger, folder), { imported: 3, skipped: [] });
    const report = ledger.report(1);
    assert.deepEqual(report.doors, [
      { door: 'hook', runtime: 'copilot', decisions: 3, withSkills: 1, injections: 1, searches: 3, tokens: 120, withOffers: 2, offers: 3 },
    ]);
    assert.deepEqual(
      report.skills.map((row) => [row.skill, row.injections]),
      [['report', 1]],
      'an offered skill was not put in front of the model as text',
    );
    assert.match(ledgerTableText(report), /with offers +offered/);
  });

  it("the gateway's searches and calls count as MCP decisions, and the tools they name never appear as skills", async () => {
    const home = temp();
    const workspace = temp();
    const base = { door: 'mcp' as const, runtime: 'claude-code', request: 'create an invoice', tokens: 300 };
    assert.equal(recordDoorDecision(workspace, { ...base, action: 'find_tools', injected: ['mcp_billing_create_invoice'], searches: 1 }, { home }), undefined);
    assert.equal(recordDoorDecision(workspace, { ...base, action: 'call_tool', injected: ['mcp_billing_create_invoice'], searches: 0 }, { home }), undefined);
    assert.equal(recordDoorDecision(workspace, { ...base, action: 'read_skill', injected: ['invoicing'], searches: 0 }, { home }), undefined);
    const ledger = await open();
    assert.equal(importDoorJournal(ledger, doorFolderFor(workspace, home)).imported, 3);
    const report = ledger.report(1);
    assert.deepEqual(report.doors, [
      { door: 'mcp', runtime: 'claude-code', decisions: 3, withSkills: 1, injections: 1, searches: 1, tokens: 900, withOffers: 0, offers: 0 },
    ]);
    assert.deepEqual(
      report.skills.map((row) => row.skill),
      ['invoicing'],
    );
  });

  it('skips a damaged line with a diagnostic, leaves a line still being written for later, and counts the rest', async () => {
    const home = temp();
    const workspace = temp();
    const folder = doorFolderFor(workspace, home);
    recordDoorDecision(workspace, { door: 'mcp', runtime: 'copilot', action: 'skill_search', request: 'a', injected: [], searches: 1 }, { home });
    appendFileSync(path.join(folder, DOOR_JOURNAL_FILE), 'not json at all\n{"at":1,"door":"nope"}\n');
    recordDoorDecision(workspace, { door: 'mcp', runtime: 'copilot', action: 'skill_get', request: 'b', injected: ['x'] }, { home });
    appendFileSync(path.join(folder, DOOR_JOURNAL_FILE), `{"at":${Date.now()},"door":"hook"`);
    const ledger = await open();
    const first = importDoorJournal(ledger, folder);
    assert.equal(first.imported, 2);
    assert.equal(first.skipped.length, 2);
    assert.match(first.skipped[0] ?? '', /not a door decision/);
    appendFileSync(path.join(folder, DOOR_JOURNAL_FILE), ',"runtime":"codex","action":"inject","skills":[],"searches":1,"tokens":0}\n');
    assert.deepEqual(importDoorJournal(ledger, folder), { imported: 1, skipped: [] }, 'the finished line is counted once it ends');
    assert.equal(
      ledger.report(90).doors.reduce((sum, row) => sum + row.decisions, 0),
      3,
    );
  });

  it('hostile journals never throw, every well-formed line is counted and the whole journal is read', () => {
    const entry = fc.record({
      at: fc.integer({ min: 0, max: 4_102_444_800_000 }),
      door: fc.constantFrom('hook' as const, 'mcp' as const),
      runtime: fc.string({ maxLength: 20 }),
      action: fc.string({ maxLength: 20 }),
      skills: fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }),
      searches: fc.nat(5),
      tokens: fc.nat(5000),
    });
    const garbage = fc.string({ maxLength: 80 }).map((text) => `${text.replace(/\n/g, ' ')}\n`);
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, garbage), { maxLength: 30 }), (items) => {
        const text = items.map((item) => (typeof item === 'string' ? item : doorJournalLine(item as DoorLedgerEntry))).join('');
        const bytes = new TextEncoder().encode(text);
        const parsed = parseDoorJournal(bytes, 0);
        const valid = items.filter((item) => typeof item !== 'string').length;
        assert.ok(parsed.entries.length >= valid, 'every well-formed decision is read');
        assert.equal(parsed.next, bytes.length);
      }),
      { numRuns: 200 },
    );
  });

  it('a journal with damaged bytes (invalid UTF-8, stray newlines) reads as its lines read one by one, with the byte of each damaged line', () => {
    const valid = fc
      .record({ at: fc.nat(), skill: fc.string({ maxLength: 12 }) })
      .map(({ at, skill }) => Buffer.from(doorJournalLine({ at, door: 'hook', runtime: 'r', action: 'inject', skills: [skill], searches: 0, tokens: 0 })));
    const damaged = fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.concat([Buffer.from(b), Buffer.from([0x0a])]));
    fc.assert(
      fc.property(fc.array(fc.oneof(valid, damaged), { maxLength: 20 }), fc.uint8Array({ maxLength: 10 }), (pieces, tail) => {
        const bytes = Buffer.concat([...pieces, Buffer.from(tail)]);
        const whole = parseDoorJournal(bytes, 0);
        const entries: DoorLedgerEntry[] = [];
        const skipped: string[] = [];
        let start = 0;
        for (let end = bytes.indexOf(0x0a); end >= 0; start = end + 1, end = bytes.indexOf(0x0a, start)) {
          const one = parseDoorJournal(bytes.subarray(start, end + 1), 0);
          entries.push(...one.entries);
          skipped.push(...one.skipped.map((line) => line.replace(/^byte 0/, `byte ${start}`)));
        }
        assert.deepEqual(whole.entries, entries);
        assert.deepEqual(whole.skipped, skipped);
        assert.equal(whole.next, start, 'stops after the last complete line');
      }),
      { numRuns: 300 },
    );
  });

  for (const segmentBytes of [undefined, 1500])
    it(`parallel door processes lose nothing while the ledger imports and saves, even when a stale copy saves last${segmentBytes ? ', with the journal starting a new segment every few lines' : ''}`, async () => {
      const home = temp();
      const workspace = temp();
      const storage = temp();
      const folder = doorFolderFor(workspace, home);
      // The extension's ledger, opened before the doors run and never re-read: it saves last, over everything.
      const stale = await open(new NodeByteStore(storage));
      const writers = ['a', 'b', 'c', 'd'].map((name) => runWriter([home, workspace, name, '40', ...(segmentBytes ? [String(segmentBytes)] : [])]));
      let ledger = await open(new NodeByteStore(storage));
      let pending = true;
      const all = Promise.all(writers).finally(() => (pending = false));
      while (pending) {
        importDoorJournal(ledger, folder);
        await ledger.save();
        ledger.close();
        ledger = await open(new NodeByteStore(storage));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await all;
      importDoorJournal(ledger, folder);
      await ledger.save();
      ledger.close();
      await stale.save();
      stale.close();
      const reopened = await open(new NodeByteStore(storage));
      importDoorJournal(reopened, folder);
      const doors = reopened.report(1).doors;
      assert.equal(
        doors.reduce((sum, row) => sum + row.decisions, 0),
        160,
        'every decision of every process is counted exactly once',
      );
      assert.deepEqual(new Set(doors.map((row) => row.runtime)), new Set(['a', 'b', 'c', 'd']));
      assert.equal(reopened.report(1).skills.length, 160);
      if (segmentBytes) assert.ok(journalSegments(folder).length > 4, 'the journal spans several segments');
    });

  it('a journal in segments is counted once across them; beyond the size kept its oldest segments go, never the newest', async () => {
    const home = temp();
    const workspace = temp();
    const folder = doorFolderFor(workspace, home);
    const limits = { segmentBytes: 1000, keepBytes: 4000 };
    const record = (i: number) =>
      recordDoorDecision(
        workspace,
        { door: 'hook', runtime: 'claude', action: 'inject', request: `r${i}`, injected: [`skill-${i}`], searches: 1 },
        { home, journalLimits: limits },
      );
    const ledger = await open();
    let counted = 0;
    for (let i = 0; i < 60; i++) {
      assert.equal(record(i), undefined);
      if (i % 5 === 4) counted += importDoorJournal(ledger, folder).imported;
    }
    counted += importDoorJournal(ledger, folder).imported;
    assert.equal(counted, 60, 'each decision counted once, whichever segment it is in');
    assert.equal(ledger.report(1).skills.length, 60);
    const segments = journalSegments(folder);
    const sizes = segments.map((file) => statSync(file).size);
    assert.ok(!segments.some((file) => path.basename(file) === DOOR_JOURNAL_FILE), 'the first segment was deleted');
    assert.ok(sizes.slice(0, -2).reduce((a, b) => a + b, 0) <= limits.keepBytes, 'no more kept than the limit, beside the two newest');
    const newest = parseDoorJournal(readFileSync(segments.at(-1)!), 0).entries.concat(parseDoorJournal(readFileSync(segments.at(-2)!), 0).entries);
    assert.ok(
      newest.some((entry) => entry.skills[0] === 'skill-59'),
      'the newest decision is kept',
    );
    // A ledger that never imported counts what is left: the kept segments whole.
    const late = await open();
    assert.equal(
      importDoorJournal(late, folder).imported,
      segments.reduce((sum, file) => sum + parseDoorJournal(readFileSync(file), 0).entries.length, 0),
    );
  });

  it('a new segment is named after the newest even when the clock is behind it', () => {
    const home = temp();
    const workspace = temp();
    const folder = doorFolderFor(workspace, home);
    mkdirSync(folder, { recursive: true });
    const future = 'doors-900000000000000-abcd.jsonl';
    writeFileSync(path.join(folder, future), '');
    for (let i = 0; i < 3; i++)
      recordDoorDecision(
        workspace,
        { door: 'hook', runtime: 'claude', action: 'inject', request: 'r', injected: [] },
        { home, journalLimits: { segmentBytes: 1, keepBytes: 1e9 } },
      );
    const names = journalSegments(folder).map((file) => path.basename(file));
    assert.equal(names.indexOf(future), 0, 'the future segment is the oldest now');
    assert.equal(names.length, 4, 'each full append started one segment after the newest');
    assert.deepEqual([...names].sort(), names);
    assert.equal(readFileSync(path.join(folder, future), 'utf8').split('\n').filter(Boolean).length, 1, 'appends went to the newest segment');
  });

  it('a journal replaced by a shorter one is read from its start', async () => {
    const home = temp();
    const workspace = temp();
    const folder = doorFolderFor(workspace, home);
    for (let i = 0; i < 3; i++) recordDoorDecision(workspace, { door: 'hook', runtime: 'copilot', action: 'inject', request: 'r', injected: [] }, { home });
    const ledger = await open();
    assert.equal(importDoorJournal(ledger, folder).imported, 3);
    writeFileSync(path.join(folder, DOOR_JOURNAL_FILE), '');
    recordDoorDecision(workspace, { door: 'hook', runtime: 'copilot', action: 'inject', request: 'r', injected: [] }, { home });
    assert.equal(importDoorJournal(ledger, folder).imported, 1);
  });

  it('two workspaces of the same name get two door folders; TOOLSHED_HOME moves them all', () => {
    const a = doorFolderFor('/tmp/one/app', '/h', 'linux');
    const b = doorFolderFor('/tmp/two/app', '/h', 'linux');
    assert.notEqual(a, b);
    assert.match(path.basename(a), /^app-[0-9a-f]{12}$/);
    assert.equal(doorFolderFor('/tmp/one/app/', '/h', 'linux'), a, 'a trailing separator is the same folder');
  });
});
