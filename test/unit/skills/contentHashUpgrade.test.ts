import * as assert from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import { parseSkillDocument } from '../../../src/core/skills/packs/document/skillDocumentParser';
import { contentHash, isCurrentContentHash, legacyContentHash } from '../../../src/core/skills/store/skillRecords';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import { engine, pack, stepSkill, tempDir, TestClock, writeTree } from './helpers';

/**
 * A store written before the content hash's current definition (docs/contracts.md#hashes) holds
 * hashes of the first one. Reading such a skill's file again must not count it as changed when its
 * content is the same (the hash is simply stored anew), and must when the content changed.
 */
describe('skills: a store of the first content hash definition', () => {
  const age = (file: string, secondsAgo: number) => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(file, when, when);
  };

  /** The first definition's hash of the one skill in `file`, as a store written before held it. */
  function firstDefinition(file: string): string {
    const parsed = parseSkillDocument(readFileSync(file, 'utf8'), file, { format: 'yaml', packName: 'p', relativePath: path.basename(file) });
    return legacyContentHash({ ...parsed.skills[0]!, resources: [] });
  }

  it('reads its skills again as unchanged (an edited one as updated) and stores them with the current hash', async () => {
    const root = tempDir();
    writeTree(root, {
      'a.skill.yaml': stepSkill('rotate-keys', 'rotate the signing keys'),
      'b.skill.yaml': stepSkill('archive-invoices', 'archive old invoices'),
    });
    const files = ['a', 'b'].map((f) => path.join(root, `${f}.skill.yaml`));
    for (const file of files) age(file, 3600);
    const bytes = new MemoryByteStore();
    const packs = [pack('p', root)];
    const cold = await createHeadlessSkillService({ engine: await engine(), store: bytes });
    await cold.loadPacks(packs);
    await cold.dispose();

    // The store as the version before wrote it: the same rows, hashes of the first definition.
    const old = await SkillStore.open({ engine: await engine(), store: bytes, logger: nullLogger, clock: new TestClock() });
    old.db.run('UPDATE skills SET content_hash = ? WHERE name = ?', [firstDefinition(files[0]!), 'rotate-keys']);
    old.db.run('UPDATE skills SET content_hash = ? WHERE name = ?', [firstDefinition(files[1]!), 'archive-invoices']);
    await old.save();
    old.close();

    // Both files read again: one saved unchanged, one edited.
    age(files[0]!, 1800);
    writeFileSync(files[1]!, stepSkill('archive-invoices', 'archive invoices older than a year'));
    age(files[1]!, 1800);
    const warm = await createHeadlessSkillService({ engine: await engine(), store: bytes });
    const summary = await warm.loadPacks(packs);
    assert.equal(summary.unchangedFiles, 0, 'both files were read');
    assert.deepEqual([summary.packs[0]?.insertedCount, summary.packs[0]?.updatedCount], [0, 1], 'only the edited skill counts as updated');
    const rotate = warm.inspect('rotate-keys')!;
    const archive = warm.inspect('archive-invoices')!;
    assert.ok(isCurrentContentHash(rotate.content_hash) && isCurrentContentHash(archive.content_hash));
    const parsed = parseSkillDocument(readFileSync(files[0]!, 'utf8'), files[0]!, { format: 'yaml', packName: 'p', relativePath: 'a.skill.yaml' });
    assert.equal(rotate.content_hash, contentHash({ ...parsed.skills[0]!, resources: [] }));
    assert.equal(archive.trigger, 'archive invoices older than a year');
    await warm.dispose();

    // And the next start trusts both files again.
    const next = await createHeadlessSkillService({ engine: await engine(), store: bytes });
    const again = await next.loadPacks(packs);
    assert.equal(again.unchangedFiles, 2);
    await next.dispose();
  });
});
