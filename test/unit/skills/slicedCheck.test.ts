import * as assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { nodeFileSystem } from '../../../src/core/platform/nodeFileSystem';
import type { FileSystemPort } from '../../../src/core/platform/ports';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import { scanPack } from '../../../src/core/skills/packs/skillPackScanner';
import { findUnchangedFiles } from '../../../src/core/skills/packs/unchangedFiles';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import type { FileFingerprint } from '../../../src/core/skills/store/skillFileFingerprints';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import { engine, pack, skillRecord, stepSkill, tempDir, TestClock, writeTree } from './helpers';

/**
 * A warm start's check reads every file fingerprint and every pack skill's row on the extension
 * host's thread, which the workbench's crossings of the first tool call share: it reads them in
 * chunks and gives the host turns between them. What it reads is exactly what one statement over
 * each table reads, and a save of the store during one of those turns (which frees every
 * prepared statement of sql.js) does not break it.
 */

/**
 * A pause for the host that saves the store each time it is asked (after a change, so the save
 * exports the database, which frees every prepared statement), counting the exports.
 */
function savingPauses(store: SkillStore) {
  const state = { pauses: 0, exports: 0, saving: true };
  const { db } = store;
  const exportWhole = db.export.bind(db);
  db.export = () => {
    state.exports++;
    return exportWhole();
  };
  const pause = async (): Promise<void> => {
    state.pauses++;
    if (!state.saving) return;
    store.upsert(skillRecord({ id: `sk_turn_${state.pauses}`, name: `learned-during-turn-${state.pauses}` }));
    await store.save();
  };
  return { state, slices: { pause } };
}

/** A map's entries with each fingerprint's bytes as a list, so deepEqual compares them as values. */
function fingerprintEntries(map: ReadonlyMap<string, FileFingerprint>): Array<[string, unknown]> {
  return [...map].map(([file, f]) => [file, { ...f, problems: [...f.problems] }]);
}

const SCOPES = [
  { scope_mode: 'global', scope_tenant_id: '', scope_project_id: '' },
  { scope_mode: 'tenant', scope_tenant_id: 't1', scope_project_id: '' },
  { scope_mode: 'project', scope_tenant_id: '', scope_project_id: 'p1' },
] as const;

/** Path text: separators, accents, NUL, astral characters and lone surrogates (stored as bytes that are not UTF-8, read back as other text). */
const pathText = fc.string({ unit: fc.constantFrom('a', 'b', '/', '\\', ' ', 'é', '東', '😀', '\ud800', '\u0000'), minLength: 0, maxLength: 6 });

/** A store's rows: fingerprints and skills (pack ones by file, learned ones between), some skills deleted after (rowids with gaps). */
const storeRows = fc.record({
  files: fc.oneof(
    fc.uniqueArray(pathText, { maxLength: 700, size: 'max' }),
    fc.constantFrom(256, 512).map((n) => Array.from({ length: n }, (_, i) => `/p/${i}`)),
  ),
  skills: fc.oneof(
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), fc.boolean(), fc.boolean()), { maxLength: 700, size: 'max' }),
    fc.constantFrom(256, 512).map((n) => Array.from({ length: n }, (_, i) => [i, 0, false, false] as [number, number, boolean, boolean])),
  ),
  deleted: fc.uniqueArray(fc.nat({ max: 699 }), { maxLength: 60 }),
});

describe('skills: the warm load reads its check in slices', () => {
  it('reads the same fingerprints and pack skills as one statement, in the same order, with a save in every turn (property)', async () => {
    const sql = await engine();
    await fc.assert(
      fc.asyncProperty(storeRows, async ({ files, skills, deleted }) => {
        const store = await SkillStore.open({ engine: sql, store: new MemoryByteStore(), logger: nullLogger, clock: new TestClock() });
        try {
          store.files.replaceAll(
            files.map((file, i) => ({
              file,
              packKey: `k${i}`,
              size: i,
              mtimeMs: i * 1.5,
              recordedAt: i,
              skillCount: i % 3,
              problems: i % 4 === 0 ? new Uint8Array([i % 256, 0, 7]) : new Uint8Array(0),
              errors: i % 2 === 0,
            })),
            new Map(),
          );
          const records: SkillRecord[] = skills.map(([at, scope, learned, withLists], i) =>
            skillRecord({
              id: `sk_${i}`,
              name: `skill-${i}`,
              ...SCOPES[scope],
              origin: learned ? 'learned' : 'pack',
              format: learned ? 'learned' : 'skill-md',
              source_file: files.length > 0 ? (files[at % files.length] as string) : `/gone/${at}`,
              source_line: at % 50,
              content_hash: `h${at}`,
              requires: withLists ? ['git'] : [],
              resources: withLists ? ['scripts/a.sh'] : [],
            }),
          );
          store.upsertMany(records);
          for (const i of deleted) if (records[i]) store.delete(records[i]);

          const { state, slices } = savingPauses(store);
          const fingerprints = await store.files.allInSlices(slices);
          const bySource = await store.files.packSkillsByFileInSlices(slices);
          assert.deepEqual(fingerprintEntries(fingerprints), fingerprintEntries(store.files.all()));
          assert.deepEqual([...bySource], [...store.files.packSkillsByFile()]);
          // A turn between every two chunks of 256 rows, each with a save.
          const packRows = records.filter((r, i) => r.origin === 'pack' && !deleted.includes(i)).length;
          assert.ok(state.exports >= Math.floor(packRows / 256), `${state.exports} saves over ${packRows} pack skills`);
        } finally {
          store.close();
        }
      }),
      { numRuns: 12 },
    );
  });

  it('reads every fingerprint when damage left paths that are not text (a key that does not advance)', async () => {
    const store = await SkillStore.open({ engine: await engine(), store: new MemoryByteStore(), logger: nullLogger, clock: new TestClock() });
    const row = (file: string | Uint8Array, i: number) => [file, `k${i}`, i, i, i, 1, new Uint8Array(0), 0];
    const insert = 'INSERT INTO skill_files (file, pack_key, size, mtime_ms, recorded_at, skill_count, problems, errors) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
    for (let i = 0; i < 300; i++) store.db.run(insert, row(`/p/${i}`, i));
    // A BLOB sorts after every text: a chunk ending in one starts the next before it again.
    for (let i = 0; i < 300; i++) store.db.run(insert, row(new Uint8Array([i % 256, Math.floor(i / 256)]), i));
    const { slices } = savingPauses(store);
    const whole = store.files.all();
    assert.equal(whole.size, 600);
    assert.deepEqual(fingerprintEntries(await store.files.allInSlices(slices)), fingerprintEntries(whole));
    store.close();
  });

  it("a warm start's check trusts every unchanged file while the host saves the store in its turns, and gives the host turns before its first stat", async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    const COUNT = 560;
    const DUPLICATES = 40;
    for (let i = 0; i < COUNT; i++) files[`f${String(i).padStart(4, '0')}.skill.yaml`] = stepSkill(`skill-${i}`, `do thing ${i}`);
    // Later files defining an earlier file's name: trusted while the file they lost to is (the duplicate rule).
    for (let i = 0; i < DUPLICATES; i++) files[`g${String(i).padStart(4, '0')}.skill.yaml`] = stepSkill(`skill-${i * 7}`, `do it again ${i}`);
    writeTree(root, files);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of Object.keys(files)) utimesSync(path.join(root, name), hourAgo, hourAgo);
    const bytes = new MemoryByteStore();
    const cold = await createHeadlessSkillService({ engine: await engine(), store: bytes, fs: nodeFileSystem });
    const loaded = await cold.loadPacks([pack('p', root)]);
    assert.equal(loaded.packs[0]?.skillCount, COUNT);
    await cold.dispose();

    const store = await SkillStore.open({ engine: await engine(), store: bytes, logger: nullLogger, clock: new TestClock() });
    const scanned = pack('p', root);
    const scan = await scanPack(nodeFileSystem, root, scanned.format);
    const work = scan.files.map((ref) => ({ pack: scanned, ref }));
    assert.equal(work.length, COUNT + DUPLICATES);
    const { state, slices } = savingPauses(store);
    let pausesBeforeStat: number | undefined;
    const fs: FileSystemPort = {
      ...nodeFileSystem,
      statSync: (file) => {
        // The saves are for the reads of the rows: the stats pause once a file.
        pausesBeforeStat ??= state.pauses;
        state.saving = false;
        return nodeFileSystem.statSync!(file);
      },
    };
    const check = await findUnchangedFiles(fs, store, work, slices);
    // The rows are read in chunks of 256, a turn between two (and one before the first stat).
    assert.ok((pausesBeforeStat ?? 0) >= 5, `${pausesBeforeStat} turns before the first stat`);
    assert.ok(state.exports >= 4, `${state.exports} saves during the reads`);
    assert.equal(check.unchanged.size, COUNT + DUPLICATES, 'every file trusted');
    assert.equal(check.winners.size, DUPLICATES);
    assert.equal(check.fingerprints.size, COUNT + DUPLICATES);

    // The same result as a check that saves nothing meanwhile, on its own slice clock.
    const plain = await findUnchangedFiles(nodeFileSystem, store, work);
    assert.deepEqual([...check.unchanged], [...plain.unchanged]);
    assert.deepEqual([...check.winners], [...plain.winners]);
    assert.deepEqual(fingerprintEntries(check.fingerprints), fingerprintEntries(plain.fingerprints));
    assert.deepEqual(check.stats, plain.stats);
    store.close();
  });
});
