import * as assert from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import type { ResolvedSkillPack } from '../../../src/core/skills/packs/skillPackSources';
import { ctx, engine, flipInside, makeService, pack, stepSkill, tempDir, TestClock, writeTree } from './helpers';

/**
 * Damage inside a row of skills.db: SQLite's integrity check passes (the pages and indexes are
 * sound), but what a row says changed. Such bytes are not the ones the store last wrote (their
 * digest differs), so nothing a load would trust without reading the files again survives them.
 */

const HOUR_AGO = new Date(Date.now() - 3600_000);
const warnings = (logger: MemoryLogger) => logger.lines.filter((l) => l.level === 'warn');

/**
 * A global store with a pack of two skills and one learned skill, loaded once. The pack's files
 * and folder date from an hour ago, so the next load trusts their fingerprints and the folder's
 * listing (a warm start) while the bytes are trusted.
 */
async function seededStore(packExtra: Partial<ResolvedSkillPack> = {}) {
  const folder = tempDir('toolshed-rowdamage-');
  const packRoot = path.join(folder, 'pack');
  writeTree(packRoot, { 'a.skill.yaml': stepSkill('pack.d.alpha', 'Alpha work'), 'b.skill.yaml': stepSkill('pack.d.beta', 'Beta work') });
  for (const file of ['a.skill.yaml', 'b.skill.yaml', '']) utimesSync(path.join(packRoot, file), HOUR_AGO, HOUR_AGO);
  const packs = [pack('d', packRoot, packExtra)];
  const open = () => makeService({ bytes: new NodeByteStore(folder), config: { scopeMode: 'global' } });
  {
    const { service } = await open();
    await service.loadPacks(packs);
    await service.addLearnedSkill({ name: 'restore-archive', trigger: 'Restore the archive after damage', steps: ['Unpack it.'], scope_mode: 'global' });
    await service.addLearnedSkill({ name: 'zebra-care', trigger: 'Feed the zebra at noon', steps: ['Bring hay.'], scope_mode: 'global' });
    await service.dispose();
  }
  const file = path.join(folder, 'skills.db');
  return { folder, file, packs, open };
}

describe('skill store: damage inside a row (SQLite’s checks pass) is never served', () => {
  it('a folder listing whose entry name changed is not reused: the skill of that file still loads, also after an open closed without a save', async () => {
    const { folder, file, packs, open } = await seededStore();
    // "fa.skill.yaml" (a file named a.skill.yaml) becomes "fq.skill.yaml": the listing names a file that is not there.
    flipInside(file, 'fa.skill.yaml', 1, 0x10);
    {
      // Opened and closed without a save (a crash): the damaged bytes must not be recorded as checked.
      const store = await SkillStore.open({ engine: await engine(), store: new NodeByteStore(folder), logger: new MemoryLogger(), clock: new TestClock() });
      assert.equal(store.openInfo.status, 'loaded', 'the damage passes the integrity check');
      store.close();
    }
    const { service, logger } = await open();
    assert.equal(service.openInfo.status, 'loaded');
    await service.loadPacks(packs);
    const listed = (await service.list({ page_size: 50 }, ctx)).skills.map((s) => s.name);
    assert.deepEqual(listed, ['pack.d.alpha', 'pack.d.beta', 'restore-archive', 'zebra-care']);
    assert.deepEqual(warnings(logger), []);
    await service.dispose();
  });

  for (const updates of [true, false])
    it(`a pack skill's trigger changed inside its row comes back from its file on the next load (updates of existing pack skills ${updates ? 'on' : 'off'})`, async () => {
      const { file, packs, open } = await seededStore({ updateExistingPackSkills: updates });
      flipInside(file, 'Alpha work', 9, 0x08);
      const { service } = await open();
      assert.equal(service.openInfo.status, 'loaded', 'the damage passes the integrity check');
      await service.loadPacks(packs);
      const got = await service.get({ names: ['pack.d.alpha', 'pack.d.beta'] }, ctx);
      assert.deepEqual(
        got.skills.map((s) => [s.name, s.trigger]),
        [
          ['pack.d.alpha', 'Alpha work'],
          ['pack.d.beta', 'Beta work'],
        ],
      );
      await service.dispose();
      // Written back whole with its digest: the next start is warm again and reads no file.
      const warm = await open();
      const summary = await warm.service.loadPacks(packs);
      assert.equal(summary.unchangedFiles, 2);
      assert.equal((await warm.service.get({ names: ['pack.d.alpha'] }, ctx)).skills[0]?.trigger, 'Alpha work');
      await warm.service.dispose();
    });

  it("a learned skill's stored terms changed in skills.db are analysed again: search finds it by its own words", async () => {
    const { file, open } = await seededStore();
    const sqlJs = (await engine()).sql;
    // Written by something else: the zebra's terms in the restore skill's row (a well-formed file, not the store's bytes).
    const db = new sqlJs.Database(readFileSync(file));
    db.run(`UPDATE skill_terms SET terms = (SELECT t.terms FROM skill_terms t JOIN skills s USING (doc_id) WHERE s.name = 'zebra-care')
      WHERE doc_id = (SELECT doc_id FROM skills WHERE name = 'restore-archive')`);
    assert.equal(db.getRowsModified(), 1);
    writeFileSync(file, db.export());
    db.close();
    const { service } = await open();
    assert.equal(service.openInfo.status, 'loaded');
    assert.deepEqual(
      (await service.search({ query: 'restore the archive' }, ctx)).skills.map((s) => s.name),
      ['restore-archive'],
    );
    assert.deepEqual(
      (await service.search({ query: 'feed the zebra' }, ctx)).skills.map((s) => s.name),
      ['zebra-care'],
    );
    await service.dispose();
  });

  it("a journal line whose checksum's key name was damaged is not read as an unchecked old line: the database's copy stays", async () => {
    const { folder, open } = await seededStore();
    const journal = path.join(folder, 'skills.db.learned.jsonl');
    // As in a counterexample fast-check found: in one line, "_check" loses its underscore and a byte of the trigger changes.
    const bytes = readFileSync(journal);
    const line = bytes.indexOf('"name":"restore-archive"');
    bytes[bytes.indexOf('"_check":"', line) + 1]! ^= 0x01;
    bytes[bytes.indexOf('Restore the archive', line)]! ^= 0x01;
    writeFileSync(journal, bytes);
    const { service, logger } = await open();
    assert.equal(service.inspect('restore-archive')?.trigger, 'Restore the archive after damage');
    assert.equal(warnings(logger).length, 1);
    assert.match(warnings(logger)[0]?.message ?? '', /1 unreadable or damaged entry skipped/);
    await service.dispose();
  });
});
