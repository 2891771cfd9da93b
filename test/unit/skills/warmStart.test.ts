import * as assert from 'node:assert/strict';
import { rmSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import type { FileSystemPort } from '../../../src/core/platform/ports';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import { ctx, engine, pack, stepSkill, tempDir, writeAsWritten, writeTree } from './helpers';

/**
 * A warm start (a new session over the saved store) reads only the skill files that changed
 * since the last load: the others' skills are already in the store, with what was known of them.
 */
describe('skills: warm start reads only changed files', () => {
  /** Sets a file's modification time `secondsAgo` in the past (a file saved a while before the load). */
  const age = (file: string, secondsAgo: number) => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(file, when, when);
  };

  async function session(bytes: MemoryByteStore) {
    const read: string[] = [];
    const fs: FileSystemPort = {
      ...nodeFileSystem,
      readFile: (file) => {
        read.push(path.basename(file));
        return nodeFileSystem.readFile(file);
      },
      // A load reads regular files synchronously (between pauses for the host).
      readRegularFileSync: (file, maxBytes) => {
        read.push(path.basename(file));
        return nodeFileSystem.readRegularFileSync!(file, maxBytes);
      },
    };
    const service = await createHeadlessSkillService({ engine: await engine(), store: bytes, fs });
    return { service, read };
  }

  /** One pack of one aged skill file in `root`, loaded cold once: the store's bytes, for a warm start. */
  async function loadedOnce(root: string): Promise<MemoryByteStore> {
    writeTree(root, { 'a.skill.yaml': stepSkill('rotate-keys', 'rotate the signing keys') });
    age(path.join(root, 'a.skill.yaml'), 3600);
    const bytes = new MemoryByteStore();
    const cold = await session(bytes);
    await cold.service.loadPacks([pack('p', root)]);
    await cold.service.dispose();
    return bytes;
  }

  it('reads no unchanged file, reads an edited or new one, and forgets a deleted one', async () => {
    const root = tempDir();
    writeTree(root, {
      'a.skill.yaml': stepSkill('rotate-keys', 'rotate the signing keys'),
      'b.skill.yaml': stepSkill('archive-invoices', 'archive old invoices'),
      'c.skill.yaml': stepSkill('deploy-service', 'deploy the payment service'),
    });
    for (const f of ['a', 'b', 'c']) age(path.join(root, `${f}.skill.yaml`), 3600);
    const bytes = new MemoryByteStore();
    const packs = [pack('p', root)];

    const cold = await session(bytes);
    await cold.service.loadPacks(packs);
    assert.deepEqual(cold.read.sort(), ['a.skill.yaml', 'b.skill.yaml', 'c.skill.yaml']);
    await cold.service.dispose();

    const savedBytes = bytes.entries.get('skills.db');
    const warm = await session(bytes);
    const summary = await warm.service.loadPacks(packs);
    assert.deepEqual(warm.read, [], 'nothing read again');
    assert.equal(summary.packs[0]?.skillCount, 3);
    assert.equal(summary.removedCount, 0);
    assert.deepEqual(
      (await warm.service.search({ query: 'invoices', limit: 3 }, ctx)).skills.map((s) => s.name),
      ['archive-invoices'],
    );
    assert.deepEqual(
      warm.service
        .listPacks()
        .flatMap((p) => p.skills.map((s) => s.name))
        .sort(),
      ['archive-invoices', 'deploy-service', 'rotate-keys'],
    );
    await warm.service.dispose();
    assert.equal(bytes.entries.get('skills.db'), savedBytes, 'nothing changed, so the store file was not rewritten');

    writeTree(root, {
      'b.skill.yaml': stepSkill('archive-invoices', 'archive old invoices and receipts'),
      'd.skill.yaml': stepSkill('tag-release', 'tag a release'),
    });
    age(path.join(root, 'b.skill.yaml'), 60);
    age(path.join(root, 'd.skill.yaml'), 60);
    const edited = await session(bytes);
    await edited.service.loadPacks(packs);
    assert.deepEqual(edited.read.sort(), ['b.skill.yaml', 'd.skill.yaml'], 'only the edited and the new file');
    assert.deepEqual(
      (await edited.service.search({ query: 'receipts', limit: 3 }, ctx)).skills.map((s) => s.name),
      ['archive-invoices'],
    );
    await edited.service.dispose();

    rmSync(path.join(root, 'c.skill.yaml'));
    const removed = await session(bytes);
    const after = await removed.service.loadPacks(packs);
    assert.deepEqual(removed.read, []);
    assert.equal(after.removedCount, 1);
    assert.deepEqual((await removed.service.search({ query: 'deploy payment service', limit: 3 }, ctx)).skills, []);
    await removed.service.dispose();
  });

  it('reads a file modified just before the last load; a file whose text has an error is not read and its error is reported again; a duplicate only with the file it lost to', async () => {
    const root = tempDir();
    writeTree(root, {
      'a.skill.yaml': stepSkill('deploy', 'deploy the service'),
      'b.skill.yaml': stepSkill('deploy', 'deploy it again'),
      'broken.skill.yaml': 'name: broken\nsteps: [unterminated',
      'fresh.skill.yaml': stepSkill('fresh', 'saved a moment ago'),
    });
    for (const f of ['a', 'b', 'broken']) age(path.join(root, `${f}.skill.yaml`), 3600);
    const bytes = new MemoryByteStore();
    const packs = [pack('p', root)];
    const cold = await session(bytes);
    const coldSummary = await cold.service.loadPacks(packs);
    await cold.service.dispose();

    const warm = await session(bytes);
    const summary = await warm.service.loadPacks(packs);
    // b.skill.yaml defines `deploy` again (a duplicate): a.skill.yaml is unchanged, so b is too.
    // broken.skill.yaml's syntax error is its text's: the same bytes give the same error.
    assert.deepEqual(warm.read.sort(), ['fresh.skill.yaml']);
    const broken = (summary: { problems: ReadonlyArray<{ file: string; severity: string; code: string; line: number; message: string }> }) =>
      summary.problems
        .filter((p) => path.basename(p.file) === 'broken.skill.yaml')
        .map(({ severity, code, line, message }) => ({ severity, code, line, message }));
    assert.deepEqual(broken(summary), broken(coldSummary));
    assert.ok(
      broken(summary).some((p) => p.severity === 'error'),
      'the error is reported again',
    );
    const duplicate = summary.problems.find((p) => p.code === 'duplicate-name');
    assert.ok(duplicate, 'the duplicate is still reported');
    assert.equal(path.basename(duplicate.file), 'b.skill.yaml');
    assert.equal(duplicate.severity, 'error');
    await warm.service.dispose();

    // The file it lost to is edited: both are read, and the first definition still wins.
    rmSync(path.join(root, 'fresh.skill.yaml'));
    writeTree(root, { 'a.skill.yaml': stepSkill('deploy', 'deploy the whole service') });
    age(path.join(root, 'a.skill.yaml'), 60);
    const edited = await session(bytes);
    await edited.service.loadPacks(packs);
    assert.deepEqual(edited.read.sort(), ['a.skill.yaml', 'b.skill.yaml']);
    assert.equal(edited.service.inspect('deploy')?.trigger, 'deploy the whole service');
    await edited.service.dispose();

    // The file it lost to is deleted: the duplicate is read and loads.
    rmSync(path.join(root, 'a.skill.yaml'));
    const removed = await session(bytes);
    const after = await removed.service.loadPacks(packs);
    assert.deepEqual(removed.read.sort(), ['b.skill.yaml']);
    assert.equal(removed.service.inspect('deploy')?.trigger, 'deploy it again');
    assert.equal(after.problems.filter((p) => p.code === 'duplicate-name').length, 0);
    await removed.service.dispose();
  });

  it('reads a duplicate again when the packs change order, and the first definition in the new order wins', async () => {
    const [first, second] = [tempDir(), tempDir()];
    writeTree(first, { 'a.skill.yaml': stepSkill('deploy', 'deploy from the first pack') });
    writeTree(second, { 'b.skill.yaml': stepSkill('deploy', 'deploy from the second pack') });
    age(path.join(first, 'a.skill.yaml'), 3600);
    age(path.join(second, 'b.skill.yaml'), 3600);
    const bytes = new MemoryByteStore();
    const cold = await session(bytes);
    await cold.service.loadPacks([pack('one', first), pack('two', second)]);
    assert.equal(cold.service.inspect('deploy')?.trigger, 'deploy from the first pack');
    await cold.service.dispose();

    const swapped = await session(bytes);
    await swapped.service.loadPacks([pack('two', second), pack('one', first)]);
    assert.deepEqual(swapped.read.sort(), ['a.skill.yaml', 'b.skill.yaml']);
    assert.equal(swapped.service.inspect('deploy')?.trigger, 'deploy from the second pack');
    await swapped.service.dispose();
  });

  it('reads no file that loaded with warnings only, and reports its warnings as the cold load did', async () => {
    // Most real SKILL.md files have a warning (an unknown front-matter field, a name off the rule):
    // a warm start that read every such file again read nearly the whole library.
    const root = tempDir();
    writeTree(root, {
      'pdf-tools/SKILL.md': '---\nname: pdf-tools\ndescription: Fill PDF forms\nversion: 1.2\nauthor: someone\n---\n# PDF\nUse pypdf.\n',
      'Odd Name/SKILL.md': '---\nname: Odd Name\ndescription: Rotate signing keys\n---\n# Keys\nRotate them.\n',
      'clean/SKILL.md': '---\nname: clean\ndescription: Archive old invoices\n---\n# Invoices\nArchive them.\n',
    });
    for (const f of ['pdf-tools', 'Odd Name', 'clean']) age(path.join(root, f, 'SKILL.md'), 3600);
    const bytes = new MemoryByteStore();
    const packs = [pack('p', root)];
    const problems = (summary: { problems: ReadonlyArray<{ file: string; severity: string; code: string; line: number; message: string }> }) =>
      summary.problems.map((p) => [path.basename(path.dirname(p.file)), p.severity, p.code, p.line, p.message]).sort();

    const cold = await session(bytes);
    const coldSummary = await cold.service.loadPacks(packs);
    await cold.service.dispose();
    assert.ok(problems(coldSummary).length >= 3, 'the cold load reports the warnings');
    assert.ok(coldSummary.problems.every((p) => p.severity === 'warning'));

    const warm = await session(bytes);
    const warmSummary = await warm.service.loadPacks(packs);
    assert.deepEqual(warm.read, [], 'nothing read again');
    assert.equal(warmSummary.unchangedFiles, 3);
    assert.deepEqual(problems(warmSummary), problems(coldSummary), 'the same warnings, where they were');
    assert.deepEqual(
      (await warm.service.search({ query: 'fill pdf forms', limit: 1 }, ctx)).skills.map((s) => s.name),
      ['pdf-tools'],
    );
    await warm.service.dispose();
  });

  for (const digest of [true, false])
    it(`a store of the previous schema (fingerprints without warnings) upgrades on open, and a warm start ${digest ? 'still reads nothing' : 'reads every file again when the bytes are not the ones last written (no digest beside them)'}`, async () => {
      const root = tempDir();
      const bytes = await loadedOnce(root);
      // The file as the previous version wrote it (with its digest, or as if damaged or written by something else): no warnings column, schema 4.
      const sql = (await engine()).sql;
      const db = new sql.Database(bytes.entries.get('skills.db'));
      db.run('ALTER TABLE skill_files DROP COLUMN problems');
      db.run('ALTER TABLE skill_files DROP COLUMN errors');
      db.run('DROP TABLE skill_folders');
      db.run("UPDATE toolshed_meta SET value = 'skills/4' WHERE key = 'schema_version'");
      if (digest) await writeAsWritten(bytes, 'skills.db', db.export());
      else await bytes.write('skills.db', db.export());
      db.close();

      const warm = await session(bytes);
      assert.equal(warm.service.openInfo.status, 'migrated');
      await warm.service.loadPacks([pack('p', root)]);
      assert.deepEqual(warm.read, digest ? [] : ['a.skill.yaml'], 'the fingerprints survived the upgrade only with the digest');
      assert.deepEqual(
        (await warm.service.search({ query: 'signing keys', limit: 3 }, ctx)).skills.map((s) => s.name),
        ['rotate-keys'],
      );
      await warm.service.dispose();
    });

  it('reads every file of a pack whose settings changed', async () => {
    const root = tempDir();
    const bytes = await loadedOnce(root);
    const warm = await session(bytes);
    await warm.service.loadPacks([pack('p', root, { workspace: true })]);
    assert.deepEqual(warm.read, ['a.skill.yaml']);
    assert.equal((await warm.service.search({ query: 'signing keys', limit: 3 }, { includeWorkspacePacks: false })).skills.length, 0, 'now a workspace skill');
    await warm.service.dispose();
  });
});
