import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { doorJournalLine } from '../../../src/core/ledger/doorJournal';
import { CORE_SET_RULES, nextCoreSet } from '../../../src/core/ledger/learnedCoreSet';
import type { CoreSetEntry, RecentTurnCalls } from '../../../src/core/ledger/ledgerStore';
import { DOOR_JOURNAL_FILE, doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import { appendToJournal, journalSegments } from '../../../src/core/runtimes/doors/doorJournalSegments';
import { CoreSetFold, JournalCoreSet } from '../../../src/mcp/gateway/gatewayCoreSet';
import type { CoreSetJudge } from '../../../src/mcp/gateway/gatewayCoreSet';
import { tempFolder } from '../../tempFolder';

/**
 * The learned core set read from the door journal: whatever the journal holds and however its
 * bytes arrive (a line half written, damaged lines, other doors' decisions), the set is the rule
 * applied to its gateway calls in order; and parallel gateway processes writing their calls lose
 * none of them.
 */

const WRITER = path.join(__dirname, 'coreSetWriterProcess.ts');
const judge: CoreSetJudge = { eligible: (tool) => tool !== 'denied', tokensOf: () => 100, contextTokens: 128_000 };

function runWriter(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 && !err ? resolve() : reject(new Error(`writer exited ${code}: ${err}`))));
  });
}

describe('MCP gateway: the learned core set from the door journal', () => {
  let dir: string;
  beforeEach(() => (dir = tempFolder('toolshed-coreset-journal-')));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('read in any pieces or across segments, with damaged lines and other doors between, it equals the rule applied to the calls in order', () => {
    // Runs of calls of one tool, so the window slides and idle members are demoted too.
    const run = fc.record({
      tool: fc.constantFrom('a', 'b', 'c', 'denied'),
      missed: fc.constantFrom(true, true, false),
      at: fc.integer({ min: 1, max: 2_000_000_000_000 }),
      times: fc.integer({ min: 1, max: 60 }),
    });
    const other = fc.constantFrom(
      doorJournalLine({ at: 1, door: 'hook', runtime: 'claude', action: 'inject', skills: ['a'], searches: 1, tokens: 5 }),
      doorJournalLine({ at: 1, door: 'mcp', runtime: 'x', action: 'find_tools', skills: ['a', 'b'], searches: 1, tokens: 5 }),
      '{"not": "a decision"}\n',
      'garbage\n',
    );
    const item = fc.oneof({ arbitrary: run, weight: 4 }, { arbitrary: other, weight: 1 });
    const calls = fc
      .array(item, { minLength: 5, maxLength: 30 })
      .map((list) =>
        list.flatMap((it): (string | { tool: string; missed: boolean; at: number })[] =>
          typeof it === 'string' ? [it] : Array.from({ length: it.times }, (_, i) => ({ ...it, at: it.at + i })),
        ),
      );
    let demotions = 0;
    let segmentedRuns = 0;
    fc.assert(
      fc.property(calls, fc.array(fc.nat(40_000), { maxLength: 8 }), fc.integer({ min: 200, max: 4000 }), (items, cuts, segmentBytes) => {
        const folder = mkdtempSync(path.join(dir, 'f-'));
        const text = items
          .map((it) =>
            typeof it === 'string'
              ? it
              : doorJournalLine({
                  at: it.at,
                  door: 'mcp',
                  runtime: 't',
                  action: 'call_tool',
                  skills: [it.tool],
                  searches: 0,
                  tokens: 1,
                  ...(it.missed ? { missed: [it.tool] } : {}),
                }),
          )
          .join('');
        const bytes = Buffer.from(text);
        // The rule itself, run after every call over the window of the calls before it.
        const turns: RecentTurnCalls[] = [];
        let expected: CoreSetEntry[] = [];
        for (const it of items) {
          if (typeof it === 'string') continue;
          turns.unshift({ called: [it.tool], missed: it.missed ? [it.tool] : [] });
          const recent = turns.slice(0, CORE_SET_RULES.window);
          const next = nextCoreSet({ recent, current: expected, undone: new Set(), ...judge, now: it.at });
          if (expected.some((entry) => !next.some((n) => n.tool === entry.tool))) demotions++;
          expected = next;
        }
        const journal = new JournalCoreSet(folder);
        let at = 0;
        for (const cut of [...cuts.map((c) => Math.min(c, bytes.length)), bytes.length].sort((x, y) => x - y)) {
          appendFileSync(path.join(folder, DOOR_JOURNAL_FILE), bytes.subarray(at, Math.max(at, cut)));
          at = Math.max(at, cut);
          journal.refresh(judge);
        }
        assert.deepEqual(journal.entries, expected);
        assert.ok(!journal.entries.some((entry) => entry.tool === 'denied'));
        // The same calls appended a few lines at a time to a journal that starts a new segment every few appends.
        const segmented = mkdtempSync(path.join(dir, 's-'));
        const reading = new JournalCoreSet(segmented);
        const lines = text.split(/(?<=\n)/);
        for (let i = 0; i < lines.length; i += 10) {
          appendToJournal(segmented, lines.slice(i, i + 10).join(''), { segmentBytes, keepBytes: Number.MAX_SAFE_INTEGER });
          if (i % 30 === 0) reading.refresh(judge);
        }
        reading.refresh(judge);
        const fresh = new JournalCoreSet(segmented);
        fresh.refresh(judge);
        if (journalSegments(segmented).length > 1) segmentedRuns++;
        assert.deepEqual(reading.entries, expected, 'read while segments start');
        assert.deepEqual(fresh.entries, expected, 'read from all the segments at once');
      }),
      { numRuns: 150 },
    );
    assert.ok(segmentedRuns > 0, 'some journals spanned several segments');
    assert.ok(demotions > 0, 'the runs demoted tools too');
  });

  it('with more tools in use than the set can list, the fold still equals the rule after every call', () => {
    const tools = Array.from({ length: 10 }, (_, i) => `t${i}`);
    let saturated = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ tool: fc.constantFrom(...tools), missed: fc.constantFrom(true, true, true, false) }), { minLength: 50, maxLength: 400 }),
        (calls) => {
          const fold = new CoreSetFold();
          const turns: RecentTurnCalls[] = [];
          let expected: CoreSetEntry[] = [];
          for (const [i, call] of calls.entries()) {
            const turn = { called: [call.tool], missed: call.missed ? [call.tool] : [] };
            turns.unshift(turn);
            expected = nextCoreSet({ recent: turns.slice(0, CORE_SET_RULES.window), current: expected, undone: new Set(), ...judge, now: i });
            fold.step({ ...turn, at: i }, judge);
            if (expected.length === CORE_SET_RULES.maxTools) saturated++;
          }
          fold.settle(judge);
          assert.deepEqual(fold.entries, expected);
        },
      ),
      { numRuns: 100 },
    );
    assert.ok(saturated > 0, 'some runs filled the set');
  });

  it('parallel gateway processes writing their calls lose none: each tool with exactly promoteAt searched-for calls is promoted', async () => {
    const home = path.join(dir, 'home');
    const workspace = path.join(dir, 'ws');
    mkdirSync(workspace);
    const folder = doorFolderFor(workspace, home);
    const tools = ['mcp_a_one', 'mcp_b_two', 'mcp_c_three', 'mcp_d_four'];
    const reader = new JournalCoreSet(folder);
    let pending = true;
    const writers = Promise.all(tools.map((tool) => runWriter([home, workspace, tool, String(CORE_SET_RULES.promoteAt)]))).finally(() => (pending = false));
    // A gateway reading while they write (half-written lines included) ends where a fresh reader does.
    while (pending) {
      reader.refresh(judge);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writers;
    reader.refresh(judge);
    const fresh = new JournalCoreSet(folder);
    fresh.refresh(judge);
    assert.deepEqual(fresh.entries.map((entry) => entry.tool).sort(), [...tools].sort(), 'one lost line would leave its tool short of promoteAt');
    assert.deepEqual(reader.entries, fresh.entries);
  });
});
