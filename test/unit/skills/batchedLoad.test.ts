import * as assert from 'node:assert/strict';
import { rmSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import type { FileSystemPort } from '../../../src/core/platform/ports';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import type { SkillService } from '../../../src/core/skills/skillService';
import type { ResolvedSkillPack } from '../../../src/core/skills/packs/skillPackSources';
import { engine, pack, stepSkill, tempDir, writeTree } from './helpers';

/**
 * A load writes its files a few at a time, in load order, and drops each batch's parses
 * (loadBatches.ts). What it loads must not depend on the batching: the first definition of a
 * name in load order wins, a warm start after any edits loads what a cold load of the same files
 * does, and a cancelled load keeps what it wrote for the next load to complete.
 */
describe('skills: a load in batches', () => {
  const NAMES = ['deploy', 'rotate-keys', 'archive', 'triage', 'release', 'backup'];
  /** A file: the skills it defines, each a name and a version of its text. */
  type FileSpec = Array<{ name: string; version: number }>;
  type Library = FileSpec[][];

  const fileText = (skills: FileSpec) =>
    skills.map(({ name, version }) => `- name: ${name}\n  trigger: ${JSON.stringify(`${name} v${version}`)}\n  steps: ["Do it."]\n`).join('');
  const fileName = (i: number) => `f${String(i).padStart(2, '0')}.skill.yaml`;

  const age = (file: string, secondsAgo: number) => {
    const when = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(file, when, when);
  };

  /** Writes `library` (packs of files) under fresh folders; files aged `secondsAgo`. */
  function writeLibrary(roots: readonly string[], library: Library, secondsAgo: number, only?: ReadonlySet<string>): void {
    library.forEach((files, p) =>
      files.forEach((skills, i) => {
        const file = path.join(roots[p]!, fileName(i));
        if (only && !only.has(file)) return;
        writeTree(roots[p]!, { [fileName(i)]: fileText(skills) });
        age(file, secondsAgo);
      }),
    );
  }

  async function session(bytes: MemoryByteStore, batchFiles: number) {
    const read: string[] = [];
    const fs: FileSystemPort = {
      ...nodeFileSystem,
      readFile: (file) => {
        read.push(file);
        return nodeFileSystem.readFile(file);
      },
      readRegularFileSync: (file, maxBytes) => {
        read.push(file);
        return nodeFileSystem.readRegularFileSync!(file, maxBytes);
      },
    };
    const service = await createHeadlessSkillService({ engine: await engine(), store: bytes, fs, loadBatchFiles: batchFiles });
    return { service, read };
  }

  /** What a user sees of a load: each name's stored definition, and every problem. */
  async function outcome(service: SkillService, packs: readonly ResolvedSkillPack[], roots: readonly string[], loaded?: () => void) {
    const summary = await service.loadPacks(packs);
    // (Reading a record below may read its body from its file.)
    loaded?.();
    const rel = (file: string) => {
      const p = roots.findIndex((root) => file.startsWith(root + path.sep));
      return p < 0 ? file : `${p}/${path.basename(file)}`;
    };
    const rows = NAMES.map((name) => {
      const record = service.inspect(name);
      return record ? `${name} ${rel(record.source_file)}:${record.source_line} ${record.trigger}` : `${name} -`;
    });
    const problems = summary.problems
      .map((p) => `${p.severity} ${p.code} ${rel(p.file)}:${p.line} ${p.message.split(roots[0]!).join('<0>').split(roots[1]!).join('<1>')}`)
      .sort();
    return { rows, problems, skillCount: summary.packs.reduce((n, p) => n + p.skillCount, 0) };
  }

  /** The first definition of each name in load order (packs in order, files by name). */
  function firstDefinitions(library: Library): string[] {
    return NAMES.map((name) => {
      for (const [p, files] of library.entries())
        for (const [i, skills] of files.entries()) {
          const line = skills.findIndex((s) => s.name === name);
          if (line >= 0) return `${name} ${p}/${fileName(i)}:${line * 3 + 1} ${name} v${skills[line]!.version}`;
        }
      return `${name} -`;
    });
  }

  const fileSpec = fc.uniqueArray(fc.record({ name: fc.constantFrom(...NAMES), version: fc.integer({ min: 1, max: 3 }) }), {
    minLength: 1,
    maxLength: 2,
    selector: (s) => s.name,
  });
  const library = fc.array(fc.array(fileSpec, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 2 });

  it('property: the first definition in load order wins, whatever the batch size, as in one batch', async () => {
    await fc.assert(
      fc.asyncProperty(library, fc.integer({ min: 1, max: 4 }), async (lib, batchFiles) => {
        const roots = [tempDir(), tempDir()];
        try {
          writeLibrary(roots, lib, 7200);
          const packs = roots.map((root, p) => pack(`p${p}`, root));
          const batched = await session(new MemoryByteStore(), batchFiles);
          const whole = await session(new MemoryByteStore(), 1000);
          const got = await outcome(batched.service, packs, roots);
          assert.deepEqual(got.rows, firstDefinitions(lib));
          assert.deepEqual(got, await outcome(whole.service, packs, roots));
          await batched.service.dispose();
          await whole.service.dispose();
        } finally {
          for (const root of roots) rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 25 },
    );
  });

  /** Per file of the library: keep it, write it again with other skills, or delete it; and files added at the end of each pack. */
  const edits = fc.record({
    changes: fc.array(fc.oneof(fc.constant<'keep'>('keep'), fc.constant<'delete'>('delete'), fileSpec), { minLength: 12, maxLength: 12 }),
    added: fc.array(fc.array(fileSpec, { maxLength: 2 }), { minLength: 2, maxLength: 2 }),
  });

  it('property: a warm start after edits loads what a cold load of the edited files does (unchanged files read with a file they collide with)', async () => {
    await fc.assert(
      fc.asyncProperty(library, edits, fc.integer({ min: 1, max: 3 }), async (lib, { changes, added }, batchFiles) => {
        const roots = [tempDir(), tempDir()];
        try {
          writeLibrary(roots, lib, 7200);
          const packs = roots.map((root, p) => pack(`p${p}`, root));
          const bytes = new MemoryByteStore();
          const cold = await session(bytes, batchFiles);
          await outcome(cold.service, packs, roots);
          await cold.service.dispose();

          // The edited library: files kept keep their place (a deleted one leaves a gap in the names).
          let k = 0;
          const touched = new Set<string>();
          const edited: Library = lib.map((files, p) =>
            files.map((skills, i) => {
              const change = changes[k++ % changes.length]!;
              const file = path.join(roots[p]!, fileName(i));
              if (change === 'keep') return skills;
              touched.add(file);
              if (change === 'delete') {
                rmSync(file);
                return [];
              }
              return change;
            }),
          );
          added.forEach((files, p) => {
            for (const skills of files) {
              edited[p]!.push(skills);
              touched.add(path.join(roots[p]!, fileName(edited[p]!.length - 1)));
            }
          });
          const exists = (file: string) =>
            edited.some((files, p) => files.some((skills, i) => skills.length > 0 && path.join(roots[p]!, fileName(i)) === file));
          const written = new Set([...touched].filter(exists));
          writeLibrary(roots, edited, 3600, written);

          const warm = await session(bytes, batchFiles);
          const fresh = await session(new MemoryByteStore(), 1000);
          let readByLoad: string[] = [];
          const got = await outcome(warm.service, packs, roots, () => (readByLoad = [...warm.read]));
          assert.deepEqual(got, await outcome(fresh.service, packs, roots));
          assert.deepEqual(got.rows, firstDefinitions(edited));
          for (const file of written) assert.ok(readByLoad.includes(file), `${file} was written again: read`);
          await warm.service.dispose();
          await fresh.service.dispose();
        } finally {
          for (const root of roots) rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a cancelled load keeps the batches it wrote, saved, and the next start reads only the files it did not write', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[fileName(i)] = stepSkill(`s${i}`, `Skill ${i}`);
    writeTree(root, files);
    for (const name of Object.keys(files)) age(path.join(root, name), 3600);
    const packs = [pack('t', root)];
    const bytes = new MemoryByteStore();

    const first = await session(bytes, 4);
    const cancelled = await first.service.loadPacks(packs, {
      cancellation: {
        get isCancellationRequested() {
          return first.read.length >= 10;
        },
      },
    });
    assert.equal(cancelled.cancelled, true);
    const kept = Array.from({ length: 40 }, (_, i) => `s${i}`).filter((name) => first.service.inspect(name) !== undefined);
    // Read in batches of 4: the batch being read when cancelled is not written.
    assert.deepEqual(kept, ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7']);
    // No dispose: what the next start finds is what the cancelled load saved.
    const next = await session(bytes, 4);
    const summary = await next.service.loadPacks(packs);
    assert.equal(summary.unchangedFiles, 8);
    assert.equal(next.read.length, 32, 'only the files the cancelled load did not write are read');
    assert.ok(!next.read.some((file) => ['f00', 'f07'].some((name) => path.basename(file).startsWith(name))));
    assert.equal(summary.packs[0]?.skillCount, 40);
    assert.equal(next.service.inspect('s39')?.trigger, 'Skill 39');
    await next.service.dispose();
    await first.service.dispose();
    rmSync(root, { recursive: true, force: true });
  });
});
