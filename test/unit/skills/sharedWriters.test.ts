import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { learningConfigSchema } from '../../../src/core/config/settingsSchema';
import { LearningService } from '../../../src/core/learning/learningService';
import { LearningStore } from '../../../src/core/learning/learningStore';
import { MemoryEventSink, type MemoryLogger, nullLogger } from '../../../src/core/platform/basicPorts';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import { NodeFileLock } from '../../../src/core/platform/nodeFileLock';
import type { SkillService } from '../../../src/core/skills/skillService';
import { SHARED_SKILLS_KEY, SHARED_SKILLS_LOCK, SharedSkillStore } from '../../../src/core/skills/store/learned/sharedSkillStore';
import { identityKey } from '../../../src/core/skills/store/skillScope';
import { engine, makeService, tempDir, TestClock } from './helpers';
import { globalSkill, SHARED_COUNTER } from './sharedWriterProcess';

/**
 * Concurrent writers of the user's shared (tenant/global) skill store — VS Code windows, each its
 * own process — lose nothing: every write reloads the file under the lock, applies its
 * change and renames a complete file into place. Counters are increments, so feedback given in
 * two windows adds up. Tested with real parallel processes, and a holder killed with the lock.
 */

const WRITER = path.join(__dirname, 'sharedWriterProcess.ts');

/** Runs the writer script in a new Node process; resolves with its stdout once it exits 0. */
function runWriter(args: string[], onLine?: (line: string, kill: () => void) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of chunk.toString().split('\n').filter(Boolean)) onLine?.(line, () => child.kill('SIGKILL'));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 || signal === 'SIGKILL' ? resolve(out) : reject(new Error(`writer ${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}

/** Whether bytes on disk are a complete, healthy SQLite database (read-only: nothing moved aside). */
async function healthy(file: string): Promise<boolean> {
  if (!existsSync(file)) return true;
  const db = new (await engine()).sql.Database(readFileSync(file));
  try {
    return db.exec('PRAGMA integrity_check')[0]?.values[0]?.[0] === 'ok';
  } finally {
    db.close();
  }
}

async function openShared(dir: string): Promise<SharedSkillStore> {
  return new SharedSkillStore({
    engine: await engine(),
    bytes: new NodeByteStore(dir),
    lock: new NodeFileLock(dir, SHARED_SKILLS_LOCK),
    logger: nullLogger,
    clock: new TestClock(),
  });
}

interface Window {
  service: SkillService;
  learning: LearningService;
  logger: MemoryLogger;
}

/** A window: its own workspace storage (skills + learning), the user's one global storage. */
async function openWindow(globalDir: string, projectId: string): Promise<Window> {
  const local = new NodeByteStore(tempDir('toolshed-window-'));
  const { service, logger, clock } = await makeService({
    bytes: local,
    shared: { bytes: new NodeByteStore(globalDir), lock: new NodeFileLock(globalDir, SHARED_SKILLS_LOCK), tenantId: () => '' },
  });
  const store = await LearningStore.open({ engine: await engine(), store: local, logger, clock });
  const learning = new LearningService({
    store,
    skills: service,
    config: () => learningConfigSchema.parse({ mode: 'propose' }),
    trusted: () => true,
    personal: () => ({ workspaceRoots: [], homeDir: '/home/dev', userName: 'dev' }),
    scope: () => ({ projectId }),
    clock,
    events: new MemoryEventSink(),
    logger,
    fileExists: () => true,
    knownTool: () => true,
    frameFacts: () => undefined,
  });
  return { service, learning, logger };
}

describe('shared skill store: concurrent writers lose nothing', () => {
  it('real processes writing skills and counters in parallel: every skill and every +1 is there, and the file is never damaged', async function () {
    this.timeout(120_000);
    const dir = tempDir('toolshed-global-');
    const file = path.join(dir, SHARED_SKILLS_KEY);
    const WRITERS = 4;
    const EACH = 8;
    let checks = 0;
    let watching = true;
    // While they write, the file on disk is always a whole database (atomic rename, never in place).
    const watcher = (async () => {
      while (watching) {
        assert.ok(await healthy(file), 'the shared store on disk is damaged');
        checks++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const outputs = await Promise.all(Array.from({ length: WRITERS }, (_, w) => runWriter(['write', dir, `w${w}`, String(EACH)])));
    watching = false;
    await watcher;
    assert.deepEqual(
      outputs.map((o) => o.trim()),
      Array(WRITERS).fill('done'),
    );
    assert.ok(checks > 0);
    const snapshot = await (await openShared(dir)).read();
    assert.equal(snapshot.rebuilt, false);
    const expected = Array.from({ length: WRITERS }, (_, w) => Array.from({ length: EACH }, (_, i) => `w${w}-${i}`))
      .flat()
      .sort();
    assert.deepEqual(snapshot.records.map((r) => r.name).sort(), expected);
    const counter = snapshot.counters.find((c) => c.name === SHARED_COUNTER);
    assert.equal(counter?.helpful, WRITERS * EACH, "every process's +1 counted");
    assert.equal(counter?.use_count, WRITERS * EACH);
    assert.equal(existsSync(path.join(dir, SHARED_SKILLS_LOCK)), false, 'no lock left behind');
  });

  it('a writer killed while holding the lock does not block the others: its lock is broken (dead pid) and the write goes through', async function () {
    this.timeout(60_000);
    const dir = tempDir('toolshed-global-');
    await runWriter(['hold', dir], (line, kill) => {
      if (line === 'locked') kill();
    });
    const lockFile = path.join(dir, SHARED_SKILLS_LOCK);
    assert.ok(existsSync(lockFile), 'the killed holder left its lock file');
    const shared = await openShared(dir);
    // The write gives up after 10 s and the lock only turns stale at 30 s: that it goes through at
    // all shows the dead holder's lock was broken at once.
    const snapshot = await shared.write({ upsert: [globalSkill('after-crash')] });
    assert.deepEqual(
      snapshot.records.map((r) => r.name),
      ['after-crash'],
    );
    // A lock left on this host by a live process is respected until it is older than the stale limit.
    writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, host: os.hostname(), token: 'old', at: Date.now() - 60_000 }));
    assert.deepEqual(
      (await shared.write({ upsert: [globalSkill('after-stale')] })).records.map((r) => r.name),
      ['after-crash', 'after-stale'],
    );
    writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, host: os.hostname(), token: 'busy', at: Date.now() }));
    const busy = new SharedSkillStore({
      engine: await engine(),
      bytes: new NodeByteStore(dir),
      lock: new NodeFileLock(dir, SHARED_SKILLS_LOCK, { timeoutMs: 150 }),
      logger: nullLogger,
      clock: new TestClock(),
    });
    await assert.rejects(busy.write({ upsert: [globalSkill('never')] }), new RegExp(`locked by another window \\(process ${process.ppid}\\)`));
    assert.deepEqual(
      (await shared.read()).records.map((r) => r.name),
      ['after-crash', 'after-stale'],
      'the refused write changed nothing',
    );
  });

  it('👍 on a global learned skill in two windows at once counts twice, in both windows and in a window opened later', async () => {
    const globalDir = tempDir('toolshed-global-');
    const a = await openWindow(globalDir, 'project-a');
    const b = await openWindow(globalDir, 'project-b');
    await a.service.addLearnedSkill({
      name: 'release-notes',
      trigger: 'Write the release notes',
      steps: ['Collect the merged changes.'],
      scope_mode: 'global',
    });
    await b.service.syncSharedSkills();
    await Promise.all([a.learning.recordOutcome(['release-notes'], 'helpful'), b.learning.recordOutcome(['release-notes'], 'helpful')]);
    await b.learning.recordOutcome(['release-notes'], 'harmful');
    await Promise.all([a.service.syncSharedSkills(), b.service.syncSharedSkills()]);
    for (const w of [a, b]) assert.deepEqual([w.learning.counters('release-notes')?.helpful, w.learning.counters('release-notes')?.harmful], [2, 1]);
    const later = await openWindow(globalDir, 'project-c');
    assert.equal(later.learning.counters('release-notes')?.helpful, 2);
    // A project skill's feedback stays in its own workspace.
    await a.service.addLearnedSkill({ name: 'local-only', trigger: 'Run the local checks', steps: ['Run them.'] }, { projectId: 'project-a' });
    await a.learning.recordOutcome(['local-only'], 'helpful');
    assert.equal(a.learning.counters('local-only')?.helpful, 1);
    assert.equal(
      (await (await openShared(globalDir)).read()).counters.some((c) => c.name === 'local-only'),
      false,
    );
    await Promise.all([a, b, later].map((w) => w.service.dispose()));
  });

  it('a merge or import that writes a global learned skill puts it in the shared store: other windows get it, and the next sync keeps it', async () => {
    const globalDir = tempDir('toolshed-global-');
    const a = await openWindow(globalDir, 'project-a');
    const b = await openWindow(globalDir, 'project-b');
    const record = { ...globalSkill('imported-global'), steps: ['Do it the imported way.'] };
    await a.service.restoreLearnedSkills([record]);
    await a.service.syncSharedSkills();
    assert.deepEqual(
      a.service.learnedSkills().map((r) => [r.name, r.scope_mode, r.steps]),
      [['imported-global', 'global', ['Do it the imported way.']]],
    );
    await b.service.syncSharedSkills();
    assert.deepEqual(
      b.service.learnedSkills().map((r) => r.name),
      ['imported-global'],
    );
    await Promise.all([a, b].map((w) => w.service.dispose()));
  });
});

describe('shared skill store: upgrade from version 1 (no counters)', () => {
  it('a version-1 shared store keeps every skill and gains counters', async () => {
    const dir = tempDir('toolshed-global-');
    const sql = (await engine()).sql;
    const old = new sql.Database();
    old.exec('CREATE TABLE toolshed_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    old.run("INSERT INTO toolshed_meta (key, value) VALUES ('schema_version', 'shared-skills/1')");
    old.exec('CREATE TABLE shared_skills (identity TEXT PRIMARY KEY, record TEXT NOT NULL, updated_at INTEGER NOT NULL)');
    const kept = globalSkill('from-version-1');
    old.run('INSERT INTO shared_skills (identity, record, updated_at) VALUES (?, ?, 1)', [identityKey(kept), JSON.stringify(kept)]);
    writeFileSync(path.join(dir, SHARED_SKILLS_KEY), old.export());
    old.close();
    const shared = await openShared(dir);
    const after = await shared.write({ counters: [{ name: 'from-version-1', helpful: 1, harmful: 0, use_count: 1, last_used: 5, last_validated: 5 }] });
    assert.deepEqual(after.records, [kept]);
    assert.deepEqual(after.counters, [{ name: 'from-version-1', helpful: 1, harmful: 0, use_count: 1, last_used: 5, last_validated: 5 }]);
    assert.equal(after.rebuilt, false);
  });
});
