import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { toRecord } from '../../../src/core/skills/store/skillRecords';
import { packRow } from '../../../src/core/skills/store/skillRowCells';
import { recordParams } from '../../../src/core/skills/store/skillRows';
import { SKILL_COLUMNS } from '../../../src/core/skills/store/skillStoreSchema';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import { parsedSkillOf } from '../../../src/core/skills/packs/document/parsedSkill';
import { engine, TestClock } from './helpers';

/**
 * The row writer binds a row's texts as one blob and each text cell as a number the statement turns
 * back into the text: a common value (empty text, `[]`, an enum's value) as its code, any other as
 * its place in the blob (skillRowCells.ts). Whatever a skill's fields hold — those values, texts
 * that look like the numbers ('0', '-1'), NUL characters, characters outside the BMP, a surrogate
 * without its pair, even a number where a text belongs — every stored cell must be exactly what
 * binding the record's values one by one stores: the same value and the same SQLite type.
 */

const TEXTS = [
  '',
  '[]',
  '{}',
  '0',
  '-1',
  '16777216',
  ' ',
  'active',
  'inactive',
  'pack',
  'learned',
  'global',
  'api',
  "it's",
  'NULL',
  'a\u0000b',
  '\u{1F600}é',
  'x\uD800',
];
const textArb = fc.oneof(fc.constantFrom(...TEXTS), fc.string({ unit: 'binary', maxLength: 12 }));

/** Text fields a skill file sets (the rest come from the load). */
const FIELDS = ['title', 'description', 'domain', 'origin_ref', 'status_reason', 'pack_name', 'source_file', 'scope_tenant_id', 'scope_project_id'] as const;

function recordOf(i: number, texts: readonly string[], lists: boolean, numberIn?: number): SkillRecord {
  const base = toRecord(parsedSkillOf({ name: `skill-${i}`, trigger: texts[0] ?? '', task_type: 'api', format: 'yaml' }), {
    origin: 'learned',
    originRef: '',
    scopeMode: 'global',
    packName: '',
    workspace: false,
    sourceFile: '',
    now: 1,
    env: {},
  });
  const record: Record<string, unknown> = { ...base, tags: lists ? texts.slice(0, 2) : [], frames: [] };
  FIELDS.forEach((field, k) => {
    record[field] = texts[k + 1] ?? '';
  });
  // A number where a text belongs (never from a parsed file): stored as SQLite stores it, not read as a code.
  if (numberIn !== undefined) record[FIELDS[numberIn % FIELDS.length]!] = numberIn % 3;
  return record as unknown as SkillRecord;
}

describe('skills: rows stored with packed texts', () => {
  // The writer keeps its own list of the table's INTEGER columns; a column added to the table but
  // not to that list would make every row fall back to plain binding: still right, silently slower.
  it("an ordinary skill's row is packed, for every INTEGER column the table has", async () => {
    const store = await SkillStore.open({ engine: await engine(), store: new MemoryByteStore(), logger: nullLogger, clock: new TestClock() });
    const integers = store.db
      .arrays('PRAGMA table_info(skills)')
      .filter((column) => column[2] === 'INTEGER')
      .map((column) => String(column[1]));
    assert.ok(integers.includes('use_count') && integers.includes('model_invocable'));
    const params = recordParams(recordOf(1, ['Rotate the keys', 'Keys', 'Rotates the signing keys'], true), 7);
    for (const column of integers) assert.equal(typeof params[SKILL_COLUMNS.indexOf(column as (typeof SKILL_COLUMNS)[number])], 'number', column);
    assert.ok(packRow(params), 'the row is packed');
    store.close();
  });

  it('property: every stored cell (value and type) equals what binding each value on its own stores', async () => {
    const sql = await engine();
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            texts: fc.array(textArb, { minLength: 10, maxLength: 10 }),
            lists: fc.boolean(),
            numberIn: fc.option(fc.nat({ max: 20 }), { nil: undefined }),
          }),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
        async (specs) => {
          const store = await SkillStore.open({ engine: sql, store: new MemoryByteStore(), logger: nullLogger, clock: new TestClock() });
          const records = specs.map((s, i) => recordOf(i, s.texts, s.lists, s.numberIn));
          store.upsertMany(records);
          const typed = SKILL_COLUMNS.map((c) => `${c}, typeof(${c})`).join(', ');
          const stored = store.db.arrays(`SELECT ${typed} FROM skills ORDER BY doc_id`);
          // The reference: the same records' values, each bound on its own, into a copy of the table.
          store.db.exec('CREATE TEMP TABLE reference AS SELECT * FROM skills WHERE 0');
          const docIds = store.db.arrays('SELECT doc_id FROM skills ORDER BY doc_id').map((r) => Number(r[0]));
          records.forEach((record, i) => {
            store.db.run(
              `INSERT INTO reference (${SKILL_COLUMNS.join(', ')}) VALUES (${SKILL_COLUMNS.map(() => '?').join(', ')})`,
              recordParams(record, docIds[i]!),
            );
          });
          const expected = store.db.arrays(`SELECT ${typed} FROM reference ORDER BY doc_id`);
          assert.deepEqual(stored, expected);
          store.close();
        },
      ),
      { numRuns: 60 },
    );
  });
});
