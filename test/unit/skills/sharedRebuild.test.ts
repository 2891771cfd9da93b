import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import { NodeFileLock } from '../../../src/core/platform/nodeFileLock';
import type { ByteStore, FileLock } from '../../../src/core/platform/ports';
import type { SkillService } from '../../../src/core/skills/skillService';
import { SHARED_SKILLS_KEY, SHARED_SKILLS_LOCK } from '../../../src/core/skills/store/learned/sharedSkillStore';
import type { LearnedSkillInput } from '../../../src/core/skills/store/skillRecords';
import { engine, makeService, tempDir } from './helpers';

/**
 * shared-skills.db damaged as a whole (SQLite's check fails): it is set aside and a new store made.
 * A window that read the new, empty store first must not make the next window take "not in the
 * shared store" as "deleted elsewhere": every window's copy of the user's learned skills is kept
 * and written back there. A skill deleted after the new store was made stays deleted.
 */

/** A window of tenant team-1 on its own workspace storage (`local`) and the user's one global storage. */
async function openWindow(
  globalDir: string,
  local = new MemoryByteStore(),
  lock: FileLock = new NodeFileLock(globalDir, SHARED_SKILLS_LOCK),
  bytes: ByteStore = new NodeByteStore(globalDir),
): Promise<SkillService> {
  const { service } = await makeService({
    bytes: local,
    shared: { bytes, lock, tenantId: () => 'team-1' },
  });
  return service;
}

const SKILLS: LearnedSkillInput[] = [
  { name: 'deploy-app', trigger: 'Deploy the app to staging', steps: ['Build the image.', 'Push it to the staging cluster.'], scope_mode: 'global' },
  { name: 'rotate-keys', trigger: 'Rotate the signing keys', steps: ['Create the new key pair.', 'Retire the old pair.'], scope_mode: 'tenant' },
  { name: 'triage-bug', trigger: 'Triage an incoming bug report', steps: ['Reproduce it.', 'Label its area.'], scope_mode: 'global' },
];
const ALL = SKILLS.map((s) => s.name);

/** The learned skills a user sees in a window. */
const names = (w: SkillService) =>
  w
    .learnedSkills()
    .map((r) => r.name)
    .sort();

/** A global storage holding SKILLS, and the storage of the window that wrote them (its copies). */
async function seeded(): Promise<{ globalDir: string; local: MemoryByteStore }> {
  const globalDir = tempDir('toolshed-global-');
  const local = new MemoryByteStore();
  const w = await openWindow(globalDir, local);
  for (const skill of SKILLS) await w.addLearnedSkill(skill, { tenantId: 'team-1' });
  await w.dispose();
  return { globalDir, local };
}

/** Another workspace's storage holding the same copies (a second window that synced them). */
async function copyOf(local: MemoryByteStore): Promise<MemoryByteStore> {
  const copy = new MemoryByteStore();
  for (const [key, bytes] of local.entries) await copy.write(key, bytes);
  return copy;
}

/** Damage that makes SQLite's check fail for the whole file. */
const ruin = (globalDir: string) => writeFileSync(path.join(globalDir, SHARED_SKILLS_KEY), 'not a database any more');

describe('shared skill store made afresh (its file damaged as a whole): no window deletes its learned skills', () => {
  it('a window without copies reads the new store first; the next window keeps its skills and writes them back, for every window', async () => {
    const { globalDir, local } = await seeded();
    const copies = await copyOf(local);
    ruin(globalDir);
    const empty = await openWindow(globalDir);
    assert.deepEqual(names(empty), [], 'nothing to show: the store was made afresh and this window holds no copy');
    assert.ok(
      readdirSync(globalDir).some((f) => f.startsWith(`${SHARED_SKILLS_KEY}.corrupt-`)),
      'the damaged file is kept aside',
    );
    const owner = await openWindow(globalDir, local);
    assert.deepEqual(names(owner), ALL, 'the window that held the skills still has them');
    await empty.syncSharedSkills();
    assert.deepEqual(names(empty), ALL, 'and they are back in the shared store');
    // A window offline across a second rebuild keeps its copies too.
    ruin(globalDir);
    await empty.syncSharedSkills();
    const offline = await openWindow(globalDir, copies);
    assert.deepEqual(names(offline), ALL);
    await owner.syncSharedSkills();
    assert.deepEqual(names(owner), ALL);
    await Promise.all([empty.dispose(), owner.dispose(), offline.dispose()]);
  });

  it('an open window syncing after the rebuild keeps its skills; a skill deleted after the rebuild stays deleted in a window that seeds later', async () => {
    const { globalDir, local } = await seeded();
    const open = await openWindow(globalDir, local);
    const later = await copyOf(local);
    ruin(globalDir);
    const empty = await openWindow(globalDir);
    await open.syncSharedSkills();
    assert.deepEqual(names(open), ALL);
    // Deleted in the new store, before a window still holding it (closed meanwhile) syncs with it.
    assert.equal(await open.removeLearnedSkill('deploy-app'), true);
    const closed = await openWindow(globalDir, later);
    assert.deepEqual(names(closed), ['rotate-keys', 'triage-bug'], 'the delete reaches a window that seeds later');
    await empty.syncSharedSkills();
    assert.deepEqual(names(empty), ['rotate-keys', 'triage-bug']);
    // And deletes propagate as usual from then on.
    assert.equal(await closed.removeLearnedSkill('triage-bug'), true);
    for (const w of [open, empty]) await w.syncSharedSkills();
    assert.deepEqual(names(open), ['rotate-keys']);
    assert.deepEqual(names(empty), ['rotate-keys']);
    // A skill deleted and then learned again is an ordinary skill of the store.
    await empty.addLearnedSkill(SKILLS[0]!, { tenantId: 'team-1' });
    await open.syncSharedSkills();
    assert.deepEqual(names(open), ['deploy-app', 'rotate-keys']);
    await Promise.all([open.dispose(), empty.dispose(), closed.dispose()]);
  });

  it('after an upgrade, a window that synced under an older build does not bring back a skill deleted elsewhere meanwhile', async () => {
    const { globalDir, local } = await seeded();
    const other = await openWindow(globalDir);
    assert.equal(await other.removeLearnedSkill('deploy-app'), true);
    await other.dispose();
    // The file and the window's mark as an older build left them: no generation, no deleted keys, mark "1".
    const file = path.join(globalDir, SHARED_SKILLS_KEY);
    const sql = (await engine()).sql;
    const old = new sql.Database(readFileSync(file));
    old.exec("DELETE FROM toolshed_meta WHERE key = 'shared_generation'; DROP TABLE shared_skills_removed");
    writeFileSync(file, old.export());
    old.close();
    await local.write('shared-skills.seeded', new TextEncoder().encode('1'));
    const owner = await openWindow(globalDir, local);
    assert.deepEqual(names(owner), ['rotate-keys', 'triage-bug']);
    await owner.dispose();
  });

  it('the file damaged as a whole again while a window writes back a skill set aside: that window keeps every skill', async () => {
    const { globalDir, local } = await seeded();
    const file = path.join(globalDir, SHARED_SKILLS_KEY);
    // "staging" becomes "stagiog" in deploy-app's record: set aside on the next read.
    const bytes = readFileSync(file);
    bytes[bytes.indexOf('Deploy the app to staging') + 23]! ^= 0x01;
    writeFileSync(file, bytes);
    // The window's first locked write saves the read's check; before its second (the write-back of
    // deploy-app's copy) the whole file is damaged, so that write makes a new store.
    const real = new NodeFileLock(globalDir, SHARED_SKILLS_LOCK);
    let taken = 0;
    const lock: FileLock = {
      withLock: (fn) =>
        real.withLock(() => {
          if (++taken === 2) ruin(globalDir);
          return fn();
        }),
    };
    const owner = await openWindow(globalDir, local, lock);
    assert.equal(taken >= 2, true, 'the write-back ran');
    assert.deepEqual(names(owner), ALL);
    const other = await openWindow(globalDir);
    assert.deepEqual(names(other), ALL, 'and every skill is in the new store');
    await Promise.all([owner.dispose(), other.dispose()]);
  });

  it('a window that read the damaged bytes before another window replaced them never sets the good file aside', async () => {
    const { globalDir, local } = await seeded();
    const gate = heldReads(globalDir);
    const slow = await openWindow(globalDir, new MemoryByteStore(), new NodeFileLock(globalDir, SHARED_SKILLS_LOCK), gate.bytes);
    ruin(globalDir);
    const reached = gate.holdNextRead();
    const slowSync = slow.syncSharedSkills();
    await reached;
    // Meanwhile the window holding the skills makes the new store and fills it.
    const owner = await openWindow(globalDir, local);
    assert.deepEqual(names(owner), ALL);
    gate.release();
    await slowSync;
    for (const f of readdirSync(globalDir).filter((name) => name.startsWith(`${SHARED_SKILLS_KEY}.corrupt-`)))
      assert.equal(readFileSync(path.join(globalDir, f), 'utf8'), 'not a database any more', `${f} is the damaged file, not the new store`);
    await owner.syncSharedSkills();
    await slow.syncSharedSkills();
    assert.deepEqual(names(owner), ALL);
    assert.deepEqual(names(slow), ALL);
    await Promise.all([owner.dispose(), slow.dispose()]);
  });
});

/** The shared storage, where the next read of the shared file can be held after its bytes are read (until `release`). */
function heldReads(globalDir: string): { bytes: ByteStore; holdNextRead(): Promise<void>; release(): void } {
  const disk = new NodeByteStore(globalDir);
  let reached: (() => void) | undefined;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  return {
    bytes: {
      read: async (key) => {
        const read = await disk.read(key);
        const signal = key === SHARED_SKILLS_KEY ? reached : undefined;
        if (signal) {
          reached = undefined;
          signal();
          await held;
        }
        return read;
      },
      write: (key, data) => disk.write(key, data),
      rename: (from, to) => disk.rename(from, to),
      delete: (key) => disk.delete(key),
    },
    holdNextRead: () => new Promise<void>((resolve) => (reached = resolve)),
    release: () => release(),
  };
}
