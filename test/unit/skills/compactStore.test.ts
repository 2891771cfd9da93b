import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { MemoryLogger, nullLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { parsedSkillOf } from '../../../src/core/skills/packs/document/parsedSkill';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { toRecord } from '../../../src/core/skills/store/skillRecords';
import { recordParams } from '../../../src/core/skills/store/skillRows';
import { createSkillSchema, SKILL_COLUMNS, SKILL_PAGE_SIZE, SKILL_SCHEMA_VERSION } from '../../../src/core/skills/store/skillStoreSchema';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import { storedAsCreated } from '../../../src/core/sql/schemaShape';
import { engine, TestClock, writeAsWritten } from './helpers';

/**
 * Schema version 7 keeps the same rows in a smaller file (sql.js holds the file whole in memory):
 * a trigger that repeats its description is stored as NULL, file fingerprints keep each path once,
 * and pages are 8 KB. What a user relies on: every skill, learned skill, fingerprint and folder
 * listing a version 6 store held reads back the same after the upgrade, and every trigger reads
 * back as written, whether it repeats the description, is empty, or is its own text.
 *
 * `fixtures/skills-v6.db` was written by the version 6 store (main at 2887c30) opening
 * `skills-v5.db` and adding three pack skills (a trigger that repeats its description, an empty
 * trigger, both empty), two fingerprints and a folder listing; `skills-v6.json` is what that store
 * read back (`all()`, the fingerprints, the listings).
 */

const FIXTURES = path.join(__dirname, 'fixtures');

interface Expected {
  records: SkillRecord[];
  files: Array<Record<string, unknown> & { problems: number[] }>;
  folders: Array<[string, Record<string, unknown>]>;
}

async function openOn(bytes: MemoryByteStore, logger = new MemoryLogger()): Promise<SkillStore> {
  return SkillStore.open({ engine: await engine(), store: bytes, logger, clock: new TestClock() });
}

/** The fingerprints by path (a map: its order is not part of what is kept). */
function fileRows(store: SkillStore) {
  return [...store.files.all().values()].map((f) => ({ ...f, problems: [...f.problems] })).sort((a, b) => a.file.localeCompare(b.file));
}

describe('skill store: version 7 keeps every row of a version 6 store in a smaller file', () => {
  it('a version 6 file migrates with every skill, learned skill, fingerprint and folder listing read back as version 6 read them', async () => {
    const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'skills-v6.json'), 'utf8')) as Expected;
    const bytes = new MemoryByteStore();
    // With its digest, as the version 6 build left it (without one, every file is read again: warmStart.test.ts).
    await writeAsWritten(bytes, 'skills.db', readFileSync(path.join(FIXTURES, 'skills-v6.db')));
    const logger = new MemoryLogger();
    const store = await openOn(bytes, logger);
    assert.equal(store.openInfo.status, 'migrated');
    assert.deepEqual(
      logger.lines.filter((e) => e.level === 'warn'),
      [],
    );
    assert.deepEqual(store.all(), expected.records);
    assert.ok(store.learnedRecords().length > 0, 'the fixture holds learned skills');
    const files = [...expected.files].sort((a, b) => String(a.file).localeCompare(String(b.file)));
    assert.deepEqual(fileRows(store), files);
    assert.deepEqual([...store.folders.memory().previous], expected.folders);
    // The compact form, and a file rewritten whole at the new page size with no page left free.
    assert.deepEqual(
      store.db.arrays('SELECT name FROM skills WHERE trigger IS NULL ORDER BY name').flat(),
      ['empty-texts', 'review-security'],
      'the triggers that repeat their description (an empty one beside an empty description too)',
    );
    assert.equal(store.db.get<{ page_size: number }>('PRAGMA page_size')?.page_size, SKILL_PAGE_SIZE);
    assert.equal(store.db.get<{ freelist_count: number }>('PRAGMA freelist_count')?.freelist_count, 0);
    assert.ok(storedAsCreated(store.db, createSkillSchema), 'the tables are stored as a fresh store creates them (the next open skips the shape comparison)');
    // Search sees the same skills through the mirror built from the migrated rows.
    const everyone = { includeWorkspacePacks: true, tenantId: 'acme', projectId: 'proj-1' };
    assert.deepEqual(
      store.searchRanked('security pull request', everyone, 1).map((h) => [h.name, h.trigger]),
      [['review-security', 'Review a pull request for security issues']],
    );
    await store.save();
    store.close();
    const reopened = await openOn(bytes, logger);
    assert.equal(reopened.openInfo.status, 'loaded');
    assert.equal(reopened.db.get<{ value: string }>("SELECT value FROM toolshed_meta WHERE key = 'schema_version'")?.value, SKILL_SCHEMA_VERSION);
    assert.deepEqual(reopened.all(), expected.records);
    assert.deepEqual(fileRows(reopened), files);
    reopened.close();
  });

  // What a trigger may be beside its description: the same text, empty, or its own text.
  const texts = fc.oneof(fc.constantFrom('', ' ', 'Deploy the service', 'NULL', "it's", 'a\u0000b', '\u{1F600}é'), fc.string({ maxLength: 12 }));
  const pairs = fc.array(
    fc.oneof(
      texts.map((t) => ({ description: t, trigger: t })),
      fc.record({ description: texts, trigger: texts }),
    ),
    { minLength: 1, maxLength: 6 },
  );

  function recordOf(i: number, pair: { description: string; trigger: string }): SkillRecord {
    return toRecord(parsedSkillOf({ name: `skill-${i}`, title: `Skill ${i}`, ...pair, task_type: 'code', format: 'yaml' }), {
      origin: 'pack',
      originRef: `pack:${i}`,
      scopeMode: 'global',
      packName: 'p',
      workspace: false,
      sourceFile: `/lib/${i}/SKILL.md`,
      now: 1,
      env: {},
    });
  }

  it('property: every trigger reads back as written — from the record, the mirror and a reopened store', async () => {
    await fc.assert(
      fc.asyncProperty(pairs, async (drawn) => {
        const bytes = new MemoryByteStore();
        const store = await openOn(bytes);
        const records = drawn.map((pair, i) => recordOf(i, pair));
        store.upsertMany(records);
        const check = (s: SkillStore) => {
          for (const record of records) {
            const stored = s.get(record.name)!;
            assert.deepEqual([stored.trigger, stored.description], [record.trigger, record.description]);
            const entry = s.scan({ includeWorkspacePacks: true }).find((e) => e.name === record.name)!;
            assert.deepEqual([entry.trigger, entry.description], [record.trigger, record.description]);
          }
        };
        check(store);
        await store.save();
        store.close();
        const reopened = await openOn(bytes);
        assert.equal(reopened.openInfo.status, 'loaded');
        check(reopened);
        reopened.close();
      }),
      { numRuns: 20 },
    );
  });

  it('property: rows a version 6 store wrote (its trigger always stored) migrate with every trigger and description as they were', async () => {
    const sql = (await engine()).sql;
    const v6 = readFileSync(path.join(FIXTURES, 'skills-v6.db'));
    const triggerAt = SKILL_COLUMNS.indexOf('trigger');
    await fc.assert(
      fc.asyncProperty(pairs, async (drawn) => {
        // A copy each run: sql.js keeps a Buffer's `slice` (a view) as its file, and would write into the fixture's bytes.
        const db = new sql.Database(new Uint8Array(v6));
        const records = drawn.map((pair, i) => recordOf(i, pair));
        records.forEach((record, i) => {
          const params = recordParams(record, 1000 + i);
          params[triggerAt] = record.trigger;
          db.run(`INSERT INTO skills (${SKILL_COLUMNS.join(', ')}) VALUES (${SKILL_COLUMNS.map(() => '?').join(', ')})`, params);
        });
        const bytes = new MemoryByteStore();
        await bytes.write('skills.db', db.export());
        db.close();
        const store = await SkillStore.open({ engine: await engine(), store: bytes, logger: nullLogger, clock: new TestClock() });
        assert.equal(store.openInfo.status, 'migrated');
        for (const record of records) {
          const stored = store.get(record.name)!;
          assert.deepEqual([stored.trigger, stored.description, stored.source_file], [record.trigger, record.description, record.source_file]);
        }
        assert.equal(store.count(), records.length + 7);
        store.close();
      }),
      { numRuns: 15 },
    );
  });
});
