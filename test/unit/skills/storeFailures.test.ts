import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';
import { engine, pack, tempDir, writeTree } from './helpers';

/**
 * A load stores the skills of a batch of files together (a few multi-row statements). A skill
 * the store refuses must cost that skill only: not the batch, not the skills before or after it,
 * and a later definition of its name is then the one stored. Here SQLite itself refuses the row
 * (a trigger that aborts the INSERT of any skill whose trigger ends in "v3"), as it would a value
 * it cannot hold.
 */
describe('skills: a skill the store refuses costs only itself', () => {
  const NAMES = ['deploy', 'rotate-keys', 'archive', 'triage', 'release', 'backup'];
  type FileSpec = Array<{ name: string; version: number }>;

  const fileText = (skills: FileSpec) =>
    skills.map(({ name, version }) => `- name: ${name}\n  trigger: ${JSON.stringify(`${name} v${version}`)}\n  steps: ["Do it."]\n`).join('');
  const fileName = (i: number) => `f${String(i).padStart(2, '0')}.skill.yaml`;

  /**
   * The shared engine, and a step that makes SQLite refuse every skill row whose trigger ends in
   * "v3" in each database it opened (a trigger added once the store made its tables).
   */
  async function refusingEngine(): Promise<{ engine: SqlEngine; refuse(): void }> {
    const { sql } = await engine();
    const opened: Array<InstanceType<typeof sql.Database>> = [];
    class Recorded extends sql.Database {
      constructor(...args: ConstructorParameters<typeof sql.Database>) {
        super(...args);
        opened.push(this);
      }
    }
    return {
      engine: { sql: Object.assign(Object.create(sql) as typeof sql, { Database: Recorded }) },
      refuse: () => {
        for (const db of opened.splice(0)) {
          // A database already closed (the empty one a fresh store's file is made from) has nothing to refuse.
          let tables: unknown[];
          try {
            tables = db.exec("SELECT 1 FROM sqlite_master WHERE name = 'skills'");
          } catch {
            continue;
          }
          if (tables.length === 0) continue;
          db.exec("CREATE TRIGGER refuse_v3 BEFORE INSERT ON skills WHEN NEW.trigger LIKE '% v3' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
        }
      },
    };
  }

  /** Walks the definitions in load order: the stored definition of each name, and the refused ones (file:line), as one-by-one writes would leave them. */
  function model(files: FileSpec[]): { rows: string[]; refused: string[] } {
    const stored = new Map<string, string>();
    const refused: string[] = [];
    files.forEach((skills, i) =>
      skills.forEach(({ name, version }, k) => {
        if (stored.has(name)) return;
        const at = `${fileName(i)}:${k * 3 + 1}`;
        if (version === 3) refused.push(`${name} ${at}`);
        else stored.set(name, `${name} ${at} ${name} v${version}`);
      }),
    );
    return { rows: NAMES.map((name) => stored.get(name) ?? `${name} -`), refused: refused.sort() };
  }

  const fileSpec = fc.uniqueArray(fc.record({ name: fc.constantFrom(...NAMES), version: fc.integer({ min: 1, max: 3 }) }), {
    minLength: 1,
    maxLength: 3,
    selector: (s) => s.name,
  });

  it('property: the others load, the refused one is reported, and the next definition of its name is stored, whatever the batch size', async () => {
    const refusing = await refusingEngine();
    await fc.assert(
      fc.asyncProperty(fc.array(fileSpec, { minLength: 1, maxLength: 10 }), fc.constantFrom(1, 3, 16), async (files, batchFiles) => {
        const root = tempDir();
        try {
          writeTree(root, Object.fromEntries(files.map((skills, i) => [fileName(i), fileText(skills)])));
          const service = await createHeadlessSkillService({ engine: refusing.engine, store: new MemoryByteStore(), loadBatchFiles: batchFiles });
          refusing.refuse();
          const summary = await service.loadPacks([pack('p', root)]);
          const rows = NAMES.map((name) => {
            const record = service.inspect(name);
            return record ? `${name} ${path.basename(record.source_file)}:${record.source_line} ${record.trigger}` : `${name} -`;
          });
          const failed = summary.problems.filter((p) => p.code === 'load-failed');
          const expected = model(files);
          assert.deepEqual(rows, expected.rows);
          assert.deepEqual(failed.map((p) => `${p.skillName} ${path.basename(p.file)}:${p.line}`).sort(), expected.refused);
          for (const p of failed) assert.match(p.message, /could not be stored: .*refused by the test/);
          // The Skill Directory lists the stored ones as skills, and each refused one as invalid, with its error.
          const items = service.listPacks().flatMap((p) => p.skills);
          const stored = expected.rows.filter((row) => !row.endsWith(' -')).map((row) => row.split(' ').slice(0, 2).join(' '));
          assert.deepEqual(
            items
              .filter((i) => i.status !== 'invalid')
              .map((i) => `${i.name} ${path.basename(i.file)}:${i.line}`)
              .sort(),
            stored.sort(),
          );
          const invalid = items.filter((i) => i.problems.some((p) => p.code === 'load-failed'));
          assert.deepEqual([...new Set(invalid.map((i) => i.name))].sort(), [...new Set(expected.refused.map((r) => r.split(' ')[0]!))].sort());
          await service.dispose();
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
