import * as assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import { NodeFileLock } from '../../../src/core/platform/nodeFileLock';
import type { MemoryLogger } from '../../../src/core/platform/basicPorts';
import type { SkillService } from '../../../src/core/skills/skillService';
import { SHARED_SKILLS_KEY, SHARED_SKILLS_LOCK } from '../../../src/core/skills/store/learned/sharedSkillStore';
import type { LearnedSkillInput } from '../../../src/core/skills/store/skillRecords';
import { identityKey } from '../../../src/core/skills/store/skillScope';
import { engine, flipInside, makeService, tempDir } from './helpers';

/**
 * Damage inside a row of shared-skills.db (the tenant and global learned skills every window
 * shares): SQLite's integrity check passes, but a learned skill's record changed. A learned skill
 * is what a person approved: the damaged record is never shown as theirs, and the skill is not
 * lost — a window holding a copy writes it back.
 */

interface Window {
  service: SkillService;
  logger: MemoryLogger;
}

/** A window of tenant team-1 on its own workspace storage and the user's one global storage. */
async function openWindow(globalDir: string, local = new MemoryByteStore()): Promise<Window> {
  const { service, logger } = await makeService({
    bytes: local,
    shared: { bytes: new NodeByteStore(globalDir), lock: new NodeFileLock(globalDir, SHARED_SKILLS_LOCK), tenantId: () => 'team-1' },
  });
  return { service, logger };
}

const SKILLS: LearnedSkillInput[] = [
  { name: 'deploy-app', trigger: 'Deploy the app to staging', steps: ['Build the image.', 'Push it to the staging cluster.'], scope_mode: 'global' },
  { name: 'rotate-keys', trigger: 'Rotate the signing keys', steps: ['Create the new key pair.', 'Retire the old pair.'], scope_mode: 'tenant' },
  { name: 'triage-bug', trigger: 'Triage an incoming bug report', steps: ['Reproduce it.', 'Label its area.'], scope_mode: 'global' },
];

/** What a user reads of a learned skill: name, trigger, steps. */
const shown = (w: Window) =>
  w.service
    .learnedSkills()
    .map((r) => [r.name, r.trigger, r.steps] as const)
    .sort((a, b) => a[0].localeCompare(b[0]));
const ORIGINALS = SKILLS.map((s) => [s.name, s.trigger, s.steps] as const);

/** A global storage holding SKILLS, written by a window whose storage (with its copy of them) is returned. */
async function seeded(): Promise<{ globalDir: string; local: MemoryByteStore }> {
  const globalDir = tempDir('toolshed-global-');
  const local = new MemoryByteStore();
  const a = await openWindow(globalDir, local);
  for (const skill of SKILLS) await a.service.addLearnedSkill(skill, { tenantId: 'team-1' });
  await a.service.dispose();
  return { globalDir, local };
}

const warned = (w: Window, pattern: RegExp) => w.logger.lines.some((l) => l.level === 'warn' && pattern.test(l.message));

describe('shared skill store: damage inside a row (SQLite’s checks pass) is never served, and nothing is lost', () => {
  it('a changed character in a shared skill’s trigger: a window without a copy shows nothing of it and names it; the window with a copy writes it back', async () => {
    const { globalDir, local } = await seeded();
    // "staging" becomes "stagiog" in deploy-app's record.
    flipInside(path.join(globalDir, SHARED_SKILLS_KEY), 'Deploy the app to staging', 23, 0x01);
    const fresh = await openWindow(globalDir);
    assert.deepEqual(
      shown(fresh).map(([name]) => name),
      ['rotate-keys', 'triage-bug'],
      'the damaged skill is not shown as the user’s',
    );
    assert.ok(warned(fresh, /learned skill "deploy-app" \(global\) is damaged \(it changed on disk/), 'the user is told which skill and why');
    const owner = await openWindow(globalDir, local);
    assert.deepEqual(shown(owner), ORIGINALS);
    await fresh.service.syncSharedSkills();
    assert.deepEqual(shown(fresh), ORIGINALS, 'the clean copy reaches every window');
    await Promise.all([fresh.service.dispose(), owner.service.dispose()]);
  });

  it('bytes the store wrote are read as they are (never rewritten by a read); bytes without their digest are checked once and written back', async () => {
    const { globalDir, local } = await seeded();
    const file = path.join(globalDir, SHARED_SKILLS_KEY);
    const before = statSync(file);
    const owner = await openWindow(globalDir, local);
    const other = await openWindow(globalDir);
    for (const w of [owner, other]) await w.service.syncSharedSkills();
    assert.deepEqual(shown(other), ORIGINALS);
    const after = statSync(file);
    assert.deepEqual([after.ino, after.mtimeMs], [before.ino, before.mtimeMs], 'no window rewrote the file');
    // Without its digest (an older build's file, a copy): checked once, and written back with its digest.
    writeFileSync(`${file}.checked`, 'not its digest');
    await other.service.syncSharedSkills();
    const checked = statSync(file);
    assert.notEqual(checked.ino, after.ino, 'the checked file was written back');
    await owner.service.syncSharedSkills();
    assert.equal(statSync(file).ino, checked.ino, 'and is read as it is from then on');
    assert.deepEqual(shown(owner), ORIGINALS);
    await Promise.all([owner.service.dispose(), other.service.dispose()]);
  });

  it('a record damaged so that it no longer reads does not take the skill from the window that holds it', async () => {
    const { globalDir, local } = await seeded();
    // The opening quote of "trigger" in rotate-keys' record: its JSON no longer parses.
    const file = path.join(globalDir, SHARED_SKILLS_KEY);
    const bytes = readFileSync(file);
    const record = bytes.indexOf('"name":"rotate-keys"');
    bytes[bytes.indexOf('"trigger"', record)]! ^= 0x02;
    writeFileSync(file, bytes);
    const owner = await openWindow(globalDir, local);
    assert.deepEqual(shown(owner), ORIGINALS);
    await owner.service.syncSharedSkills();
    assert.deepEqual(shown(owner), ORIGINALS);
    await owner.service.dispose();
    const later = await openWindow(globalDir);
    assert.deepEqual(shown(later), ORIGINALS);
    assert.equal(warned(later, /damaged/), false, 'written back: nothing is set aside any more');
    await later.service.dispose();
  });

  it('a version-2 store (no checksums) keeps every skill, and its rows are checked from then on', async () => {
    const globalDir = tempDir('toolshed-global-');
    const sql = (await engine()).sql;
    const old = new sql.Database();
    old.exec('CREATE TABLE toolshed_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    old.run("INSERT INTO toolshed_meta (key, value) VALUES ('schema_version', 'shared-skills/2')");
    old.exec('CREATE TABLE shared_skills (identity TEXT PRIMARY KEY, record TEXT NOT NULL, updated_at INTEGER NOT NULL)');
    old.exec(`CREATE TABLE shared_counters (name TEXT PRIMARY KEY, helpful INTEGER NOT NULL DEFAULT 0,
      harmful INTEGER NOT NULL DEFAULT 0, use_count INTEGER NOT NULL DEFAULT 0, last_used INTEGER NOT NULL DEFAULT 0, last_validated INTEGER NOT NULL DEFAULT 0)`);
    const source = await seeded();
    const records = (await openWindow(source.globalDir, source.local)).service.learnedSkills();
    for (const record of records)
      old.run('INSERT INTO shared_skills (identity, record, updated_at) VALUES (?, ?, 1)', [identityKey(record), JSON.stringify(record)]);
    writeFileSync(path.join(globalDir, SHARED_SKILLS_KEY), old.export());
    old.close();
    const first = await openWindow(globalDir);
    assert.deepEqual(shown(first), ORIGINALS);
    await first.service.dispose();
    flipInside(path.join(globalDir, SHARED_SKILLS_KEY), 'Triage an incoming bug report', 3, 0x04);
    const second = await openWindow(globalDir);
    assert.deepEqual(
      shown(second).map(([name]) => name),
      ['deploy-app', 'rotate-keys'],
    );
    assert.ok(warned(second, /learned skill "triage-bug" \(global\) is damaged/));
    await second.service.dispose();
  });

  it('a flipped bit anywhere inside a shared skill’s record is never shown, and a window with a copy brings back every skill', async function () {
    this.timeout(60_000);
    const { globalDir, local } = await seeded();
    const file = readFileSync(path.join(globalDir, SHARED_SKILLS_KEY));
    // Where each record's text lies in the file.
    const ranges = SKILLS.map((skill) => {
      const start = file.indexOf(`{"id":`, file.indexOf(`"name":"${skill.name}"`) - 200);
      const end = file.indexOf('}', file.indexOf(`"name":"${skill.name}"`));
      assert.ok(start >= 0 && end > start);
      return [start, end] as const;
    });
    await fc.assert(
      fc.asyncProperty(
        fc.nat(SKILLS.length - 1),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.constantFrom(1, 2, 4, 8, 16, 32, 64, 128),
        async (which, where, mask) => {
          const [start, end] = ranges[which]!;
          const damaged = Buffer.from(file);
          damaged[start + Math.floor(where * (end - start))]! ^= mask;
          const dir = tempDir('toolshed-global-');
          writeFileSync(path.join(dir, SHARED_SKILLS_KEY), damaged);
          const fresh = await openWindow(dir);
          for (const skill of shown(fresh))
            assert.ok(
              ORIGINALS.some((o) => JSON.stringify(o) === JSON.stringify(skill)),
              `shown as damaged: ${skill[0]}`,
            );
          const copy = new MemoryByteStore();
          for (const [key, bytes] of local.entries) await copy.write(key, bytes);
          const owner = await openWindow(dir, copy);
          assert.deepEqual(shown(owner), ORIGINALS);
          await fresh.service.syncSharedSkills();
          assert.deepEqual(shown(fresh), ORIGINALS);
          await Promise.all([fresh.service.dispose(), owner.service.dispose()]);
        },
      ),
      { numRuns: 15 },
    );
  });
});
