import * as assert from 'node:assert/strict';
import { renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import type { DirectoryEntry, FileSystemPort } from '../../../src/core/platform/ports';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import { decodeEntries, encodeEntries } from '../../../src/core/skills/store/skillFolderListings';
import { ctx, engine, pack, stepSkill, tempDir, writeAsWritten, writeTree } from './helpers';

/**
 * A warm start lists again only the folders whose modification time changed since the last load
 * (skill_folders); every change a user makes to a library is still seen at the next start.
 */
describe('skills: warm start lists only changed folders', () => {
  /** Sets a file's or folder's modification time `secondsAgo` in the past (saved a while before the load). */
  const age = (file: string, secondsAgo: number) => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(file, when, when);
  };

  /** A session over the saved store that records the folders it lists and the files it reads. */
  async function session(bytes: MemoryByteStore, root: string) {
    const listed: string[] = [];
    const read: string[] = [];
    const relative = (file: string) => path.relative(root, file).replace(/\\/g, '/') || '.';
    const fs: FileSystemPort = {
      ...nodeFileSystem,
      readDirectorySync: (folder) => {
        listed.push(relative(folder));
        return nodeFileSystem.readDirectorySync!(folder);
      },
      readRegularFileSync: (file, maxBytes) => {
        read.push(relative(file));
        return nodeFileSystem.readRegularFileSync!(file, maxBytes);
      },
    };
    const service = await createHeadlessSkillService({ engine: await engine(), store: bytes, fs });
    const summary = await service.loadPacks([pack('p', root)]);
    const names = service
      .listPacks()
      .flatMap((p) => p.skills.map((s) => s.name))
      .sort();
    const search = async (query: string) => (await service.search({ query, limit: 3 }, ctx)).skills.map((s) => s.name);
    return { service, listed: listed.sort(), read: read.sort(), names, summary, search };
  }

  const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${description}.\n`;

  /** A library written an hour ago: every folder and file aged. */
  function library(): string {
    const root = tempDir();
    writeTree(root, {
      'alpha/SKILL.md': skillMd('alpha', 'Rotate the signing keys'),
      'beta/SKILL.md': skillMd('beta', 'Archive old invoices'),
      'gamma/SKILL.md': skillMd('gamma', 'Deploy the payment service'),
    });
    for (const f of ['alpha/SKILL.md', 'beta/SKILL.md', 'gamma/SKILL.md', 'alpha', 'beta', 'gamma', '.']) age(path.join(root, f), 3600);
    return root;
  }

  it('lists no unchanged folder and reads no unchanged file', async () => {
    const root = library();
    const bytes = new MemoryByteStore();
    const cold = await session(bytes, root);
    assert.deepEqual(cold.listed, ['.', 'alpha', 'beta', 'gamma']);
    await cold.service.dispose();

    const warm = await session(bytes, root);
    assert.deepEqual(warm.listed, [], 'no folder listed again');
    assert.deepEqual(warm.read, []);
    assert.deepEqual(warm.names, ['alpha', 'beta', 'gamma']);
    assert.deepEqual(await warm.search('invoices'), ['beta']);
    await warm.service.dispose();
  });

  it('sees a skill edited in place (its folder keeps its time), a file added, a folder added and removed, and a file renamed', async () => {
    const root = library();
    const bytes = new MemoryByteStore();
    await (await session(bytes, root)).service.dispose();

    // An editor saves in place: the file's time changes, its folder's does not.
    const folderTime = statSync(path.join(root, 'alpha')).mtime;
    writeFileSync(path.join(root, 'alpha/SKILL.md'), skillMd('alpha', 'Rotate the signing keys and revoke the old certificates'));
    age(path.join(root, 'alpha/SKILL.md'), 60);
    assert.equal(statSync(path.join(root, 'alpha')).mtime.getTime(), folderTime.getTime());
    const edited = await session(bytes, root);
    assert.deepEqual(edited.listed, [], 'the folder was not listed again');
    assert.deepEqual(edited.read, ['alpha/SKILL.md'], 'the file was stat-ed and read again');
    assert.deepEqual(await edited.search('revoke certificates'), ['alpha']);
    await edited.service.dispose();

    // A file added to a skill folder, and a new skill folder: their folders' times change.
    writeTree(root, { 'beta/receipts.skill.yaml': stepSkill('file-receipts', 'file the receipts'), 'delta/SKILL.md': skillMd('delta', 'Tag a release') });
    for (const f of ['beta/receipts.skill.yaml', 'delta/SKILL.md', 'delta', 'beta', '.']) age(path.join(root, f), 60);
    const added = await session(bytes, root);
    assert.deepEqual(added.listed, ['.', 'beta', 'delta']);
    assert.deepEqual(added.read, ['beta/receipts.skill.yaml', 'delta/SKILL.md']);
    assert.deepEqual(added.names, ['alpha', 'beta', 'delta', 'file-receipts', 'gamma']);
    await added.service.dispose();

    // A skill folder removed.
    rmSync(path.join(root, 'gamma'), { recursive: true });
    age(root, 30);
    const removed = await session(bytes, root);
    assert.deepEqual(removed.listed, ['.']);
    assert.deepEqual(removed.names, ['alpha', 'beta', 'delta', 'file-receipts']);
    assert.deepEqual(await removed.search('deploy payment service'), []);
    assert.equal(removed.summary.removedCount, 1);
    await removed.service.dispose();

    // A file renamed inside a folder: the folder's time changes; the skill now comes from the new file.
    renameSync(path.join(root, 'beta/receipts.skill.yaml'), path.join(root, 'beta/expenses.skill.yaml'));
    age(path.join(root, 'beta'), 20);
    const renamed = await session(bytes, root);
    assert.deepEqual(renamed.listed, ['beta']);
    assert.equal(renamed.service.inspect('file-receipts')?.source_file, path.join(root, 'beta/expenses.skill.yaml'));
    await renamed.service.dispose();

    // Nothing changed since: nothing listed or read.
    const settled = await session(bytes, root);
    assert.deepEqual([settled.listed, settled.read], [[], []]);
    assert.deepEqual(settled.names, ['alpha', 'beta', 'delta', 'file-receipts']);
    await settled.service.dispose();
  });

  it('lists again a folder changed just before it was listed (a change within the time resolution could keep its time)', async () => {
    const root = library();
    writeTree(root, { 'fresh/SKILL.md': skillMd('fresh', 'Saved a moment ago') });
    age(root, 3600);
    const bytes = new MemoryByteStore();
    await (await session(bytes, root)).service.dispose();
    const warm = await session(bytes, root);
    assert.deepEqual(warm.listed, ['fresh']);
    assert.deepEqual(warm.names, ['alpha', 'beta', 'fresh', 'gamma']);
    await warm.service.dispose();
  });

  for (const digest of [false, true])
    it(`a damaged stored listing lists the folder again${digest ? ' (bytes with their digest: the listing does not decode)' : ' (bytes without their digest: every folder is listed again)'}`, async () => {
      const root = library();
      const bytes = new MemoryByteStore();
      await (await session(bytes, root)).service.dispose();
      const db = new (await engine()).sql.Database(bytes.entries.get('skills.db'));
      db.run("UPDATE skill_folders SET entries = 'x' WHERE folder = ?", [path.join(root, 'beta')]);
      if (digest) await writeAsWritten(bytes, 'skills.db', db.export());
      else await bytes.write('skills.db', db.export());
      db.close();
      const warm = await session(bytes, root);
      assert.deepEqual(warm.listed, digest ? ['beta'] : ['.', 'alpha', 'beta', 'gamma']);
      assert.deepEqual(warm.names, ['alpha', 'beta', 'gamma']);
      await warm.service.dispose();
    });

  it('a store of the previous schema (no folder listings) upgrades on open: the next start lists every folder and reads no file, the one after lists none', async () => {
    const root = library();
    const bytes = new MemoryByteStore();
    await (await session(bytes, root)).service.dispose();
    // The file as the previous version wrote it: no folder listings, no error flags, schema 5.
    const db = new (await engine()).sql.Database(bytes.entries.get('skills.db'));
    db.run('DROP TABLE skill_folders');
    db.run('ALTER TABLE skill_files DROP COLUMN errors');
    db.run("UPDATE toolshed_meta SET value = 'skills/5' WHERE key = 'schema_version'");
    await writeAsWritten(bytes, 'skills.db', db.export());
    db.close();

    const upgraded = await session(bytes, root);
    assert.equal(upgraded.service.openInfo.status, 'migrated');
    assert.deepEqual(upgraded.listed, ['.', 'alpha', 'beta', 'gamma']);
    assert.deepEqual(upgraded.read, [], 'the file fingerprints survived the upgrade');
    assert.deepEqual(upgraded.names, ['alpha', 'beta', 'gamma']);
    await upgraded.service.dispose();
    const next = await session(bytes, root);
    assert.deepEqual([next.listed, next.read], [[], []]);
    await next.service.dispose();
    // The upgraded fingerprints were marked "may hold an error"; the first load cleared the mark of those without one.
    const upgradedDb = new (await engine()).sql.Database(bytes.entries.get('skills.db'));
    assert.deepEqual(upgradedDb.exec('SELECT count(*), sum(errors) FROM skill_files')[0]?.values, [[3, 0]]);
    upgradedDb.close();
  });

  it('a stored listing reads back as the entries it was written from', () => {
    const entry = fc.record({
      name: fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }).filter((name) => !name.includes('/')),
      kind: fc.constantFrom<DirectoryEntry['kind']>('file', 'directory', 'symlink', 'other'),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) =>
        assert.deepEqual(
          decodeEntries(encodeEntries(entries)),
          entries.map((e) => ({ ...e })),
        ),
      ),
    );
  });
});
