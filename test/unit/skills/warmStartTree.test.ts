import * as assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import * as path from 'node:path';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import { engine, pack, tempDir, writeTree } from './helpers';
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';

/** The module object itself (an import gives a read-only namespace), so the calls through it can be counted. */
const zlib = createRequire(__filename)('node:zlib') as typeof Zlib;

/**
 * After a warm start the skill list (what the Skill Directory's header counts at every load) shows
 * what it showed after the cold load, and reads back the kept problems only of files whose
 * problems hold an error (they make "invalid" entries); a skill's warnings are read when asked for.
 */
describe('skills: the skill list after a warm start', () => {
  it('is the cold load’s, reading back only the problems of files with an error until a skill’s problems are asked for', async () => {
    const root = tempDir();
    writeTree(root, {
      'clean/SKILL.md': '---\nname: clean\ndescription: Archive old invoices\n---\n# Invoices\nArchive them.\n',
      'odd/SKILL.md': '---\nname: odd\ndescription: Fill PDF forms\ncolour: blue\n---\n# PDF\nFill them.\n',
      'broken/SKILL.md': '---\nname: broken\n---\n# No description\n',
      'copy/SKILL.md': '---\nname: clean\ndescription: Archive old invoices again\n---\n# Again\n',
    });
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const f of ['clean', 'odd', 'broken', 'copy']) utimesSync(path.join(root, f, 'SKILL.md'), hourAgo, hourAgo);
    const bytes = new MemoryByteStore();
    const packs = [pack('p', root)];
    const shown = (tree: ReturnType<Awaited<ReturnType<typeof createHeadlessSkillService>>['listPacks']>) =>
      tree.flatMap((p) =>
        p.skills.map((s) => ({ name: s.name, status: s.status, file: path.basename(path.dirname(s.file)), problems: s.problems.map((x) => x.code) })),
      );

    const cold = await createHeadlessSkillService({ engine: await engine(), store: bytes });
    await cold.loadPacks(packs);
    const coldTree = shown(cold.listPacks());
    await cold.dispose();
    assert.deepEqual(
      coldTree.map((s) => [s.name, s.status, s.file]),
      [
        ['broken', 'invalid', 'broken'],
        ['clean', 'active', 'clean'],
        ['clean', 'invalid', 'copy'],
        ['odd', 'active', 'odd'],
      ],
    );
    assert.deepEqual(coldTree.find((s) => s.name === 'odd')?.problems, ['unknown-field']);

    const warm = await createHeadlessSkillService({ engine: await engine(), store: bytes });
    const summary = await warm.loadPacks(packs);
    assert.equal(summary.unchangedFiles, 4);
    const inflate = zlib.inflateRawSync;
    let readBack = 0;
    zlib.inflateRawSync = ((...args: Parameters<typeof inflate>) => {
      readBack++;
      return inflate(...args);
    }) as typeof inflate;
    try {
      const tree = warm.listPacks();
      const statuses = tree.flatMap((p) => p.skills.map((s) => [s.name, s.status]));
      assert.deepEqual(
        statuses,
        coldTree.map((s) => [s.name, s.status]),
      );
      assert.equal(readBack, 0, 'the files with an error were read back by the load already; the warnings of the others are not read');
      assert.deepEqual(shown(tree), coldTree, 'and each skill’s problems, when asked for, are the cold load’s');
      assert.equal(readBack, 1, 'read back once asked for: the one file with warnings');
    } finally {
      zlib.inflateRawSync = inflate;
    }
    await warm.dispose();
  });

  it('the statuses the header counts (packStatuses, from memory) are the skill list’s, before a load, cold, warm and after a learned skill', async () => {
    const root = tempDir();
    writeTree(root, {
      'clean/SKILL.md': '---\nname: clean\ndescription: Archive old invoices\n---\n# Invoices\nArchive them.\n',

      'broken/SKILL.md': '---\nname: broken\n---\n# No description\n',
      'copy/SKILL.md': '---\nname: clean\ndescription: Archive old invoices again\n---\n# Again\n',
    });
    const team = tempDir();
    writeTree(team, {
      'needs.skill.md': '---\nname: needs\ntrigger: Deploy with a token\nrequires: [TOOLSHED_TEST_ABSENT_TOKEN]\nsteps:\n  - Deploy.\n---\n',
      'a.skill.md': '---\nname: team-a\ntrigger: Review a pull request\nsteps:\n  - Read the diff.\n---\n',
    });
    const bytes = new MemoryByteStore();
    const packs = [pack('p', root), pack('w', team, { workspace: true })];
    type Service = Awaited<ReturnType<typeof createHeadlessSkillService>>;
    type Packs = Array<{ workspace: boolean; skills: Array<{ name: string; status: string }> }>;
    // The header counts: the order of a pack's skills does not matter.
    const sorted = (packs: Packs) => packs.map((p) => ({ workspace: p.workspace, skills: p.skills.map((s) => `${s.name}:${s.status}`).sort() }));
    const reduced = (service: Service) => sorted(service.listPacks());
    const counted = (service: Service) => sorted(service.packStatuses());

    const cold = await createHeadlessSkillService({ engine: await engine(), store: bytes });
    await cold.addLearnedSkill({ name: 'learned-archive', trigger: 'When invoices pile up', steps: ['Archive them.'], scope_mode: 'global' });
    assert.deepEqual(counted(cold), reduced(cold), 'before any load: the learned skills');
    await cold.loadPacks(packs);
    const statuses = cold.packStatuses();
    assert.deepEqual(counted(cold), reduced(cold), 'cold');
    assert.deepEqual(
      statuses.flatMap((p) => p.skills.map((s) => s.status)).sort(),
      ['active', 'active', 'active', 'inactive', 'invalid', 'invalid'],
      `the fixture covers every status: ${JSON.stringify(statuses)}`,
    );
    await cold.dispose();

    const warm = await createHeadlessSkillService({ engine: await engine(), store: bytes });
    await warm.loadPacks(packs);
    assert.deepEqual(counted(warm), reduced(warm), 'warm');
    await warm.removeLearnedSkill('learned-archive');
    assert.deepEqual(counted(warm), reduced(warm), 'after a write');
    await warm.dispose();
  });
});
