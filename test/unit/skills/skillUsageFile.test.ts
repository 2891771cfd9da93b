import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import { engine, skillRecord, TestClock } from './helpers';

/**
 * A skill's use changes only its counters: they are kept in a small file beside the store, and the
 * store (30 MB at 10,000 skills, copied out of sql.js whole on every write) is not rewritten for them.
 */
describe('skill usage counters beside the store', () => {
  const open = async (bytes: MemoryByteStore, logger = new MemoryLogger()) =>
    SkillStore.open({ engine: await engine(), store: bytes, logger, clock: new TestClock() });
  const global = { scope_mode: 'global' as const, scope_tenant_id: '', scope_project_id: '' };
  const counts = (store: SkillStore, name: string) => {
    const record = store.get(name, global);
    return record && { use_count: record.use_count, last_used: record.last_used };
  };

  async function storeWithSkills(): Promise<MemoryByteStore> {
    const bytes = new MemoryByteStore();
    const store = await open(bytes);
    store.upsertMany([skillRecord({ name: 'a', id: 'sk_a' }), skillRecord({ name: 'b', id: 'sk_b' })]);
    await store.save();
    store.close();
    return bytes;
  }

  it('a use is saved without rewriting the store, and counted again after a restart', async () => {
    const bytes = await storeWithSkills();
    const before = bytes.entries.get('skills.db')!.slice();
    const store = await open(bytes);
    store.recordUsage([{ ...global, name: 'a' }], 5_000);
    store.recordUsage([{ ...global, name: 'a' }], 6_000);
    await store.save();
    store.close();
    assert.deepEqual(bytes.entries.get('skills.db'), before, 'the store file was not rewritten for two uses');
    assert.ok(bytes.entries.has('skills.db.usage'), 'the uses are in the usage file');

    const reopened = await open(bytes);
    assert.deepEqual(counts(reopened, 'a'), { use_count: 2, last_used: 6_000 });
    assert.deepEqual(counts(reopened, 'b'), { use_count: 0, last_used: 0 });
    reopened.close();
  });

  it("a use writes nothing into sql.js's database (whose in-memory file a write grows); reads and the directory order see it at once", async () => {
    const bytes = await storeWithSkills();
    const store = await open(bytes);
    const changes = () => store.db.get<{ n: number }>('SELECT total_changes() AS n')!.n;
    const before = changes();
    store.recordUsage([{ ...global, name: 'b' }], 5_000);
    store.recordUsage([{ ...global, name: 'b' }], 6_000);
    assert.equal(changes(), before, 'no row was written for the uses');
    assert.deepEqual(counts(store, 'b'), { use_count: 2, last_used: 6_000 });
    const filter = { includeWorkspacePacks: true, activeOnly: false };
    assert.deepEqual(
      store.top(filter, 'top', 1).map((r) => [r.name, r.use_count]),
      [['b', 2]],
    );
    assert.deepEqual(
      store.top(filter, 'recent', 2).map((r) => r.name),
      ['b', 'a'],
    );
    store.upsert(skillRecord({ name: 'c', id: 'sk_c' }));
    await store.save();
    store.close();
    assert.equal(bytes.entries.has('skills.db.usage'), false, 'the whole write holds the counts');
    const reopened = await open(bytes);
    assert.deepEqual(reopened.db.get('SELECT use_count, last_used FROM skills WHERE name = ?', ['b']), { use_count: 2, last_used: 6_000 });
    reopened.close();
  });

  it('property: the directory order (most used, most recent) with noted counters is the order of the counters every read sees (some in the rows, some noted since the whole write)', async function () {
    this.timeout(60_000);
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const filter = { includeWorkspacePacks: true, activeOnly: false };
    const use = fc.record({ name: fc.constantFrom(...names), at: fc.integer({ min: 1, max: 50 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(use, { maxLength: 20 }), fc.array(use, { maxLength: 20 }), fc.integer({ min: 1, max: 6 }), async (stored, noted, limit) => {
        const bytes = new MemoryByteStore();
        const store = await open(bytes);
        store.upsertMany(names.map((name) => skillRecord({ name, id: `sk_${name}` })));
        for (const u of stored) store.recordUsage([{ ...global, name: u.name }], u.at);
        store.upsert(skillRecord({ name: 'g', id: 'sk_g' }));
        await store.save(); // whole: the first uses are in the rows now
        for (const u of noted) store.recordUsage([{ ...global, name: u.name }], u.at);
        for (const order of ['top', 'recent'] as const) {
          const keys = (r: { use_count: number; last_used: number }) => (order === 'top' ? [r.use_count, r.last_used] : [r.last_used, r.use_count]);
          const expected = store
            .all()
            .sort((x, y) => keys(y)[0]! - keys(x)[0]! || keys(y)[1]! - keys(x)[1]! || (x.name < y.name ? -1 : 1))
            .slice(0, limit)
            .map((r) => [r.name, r.use_count, r.last_used]);
          assert.deepEqual(
            store.top(filter, order, limit).map((r) => [r.name, r.use_count, r.last_used]),
            expected,
          );
        }
        store.close();
      }),
      { numRuns: 40 },
    );
  });

  it('a change of content writes the store whole, with the counts, and the usage file is removed', async () => {
    const bytes = await storeWithSkills();
    const store = await open(bytes);
    store.recordUsage([{ ...global, name: 'a' }], 5_000);
    await store.save();
    assert.ok(bytes.entries.has('skills.db.usage'));
    store.upsert(skillRecord({ name: 'c', id: 'sk_c' }));
    await store.save();
    store.close();
    assert.equal(bytes.entries.has('skills.db.usage'), false, 'nothing left to keep beside the store');
    const reopened = await open(bytes);
    assert.deepEqual(counts(reopened, 'a'), { use_count: 1, last_used: 5_000 });
    assert.ok(reopened.has('c'));
    reopened.close();
  });

  it('a usage file left over from before the store was written whole (a crash between the two) counts nothing twice and lowers nothing', async () => {
    const bytes = await storeWithSkills();
    const store = await open(bytes);
    store.recordUsage([{ ...global, name: 'a' }], 5_000);
    store.recordUsage([{ ...global, name: 'a' }], 6_000);
    await store.save();
    const leftOver = bytes.entries.get('skills.db.usage')!.slice();
    store.recordUsage([{ ...global, name: 'a' }], 7_000);
    store.upsert(skillRecord({ name: 'c', id: 'sk_c' }));
    await store.save();
    store.close();
    await bytes.write('skills.db.usage', leftOver);

    const reopened = await open(bytes);
    assert.deepEqual(counts(reopened, 'a'), { use_count: 3, last_used: 7_000 });
    reopened.close();
  });

  it('a usage file that is not one is ignored with a warning; the store opens with its own counts', async () => {
    const bytes = await storeWithSkills();
    for (const damaged of ['{', '{"format":"toolshed-skill-usage/1","usage":[["global","","","a","many",1]]}', '[]', '{"format":"other"}']) {
      await bytes.write('skills.db.usage', new TextEncoder().encode(damaged));
      const logger = new MemoryLogger();
      const store = await open(bytes, logger);
      assert.deepEqual(counts(store, 'a'), { use_count: 0, last_used: 0 }, damaged);
      assert.ok(
        logger.lines.some((line) => line.level === 'warn' && line.message.includes('skills.db.usage')),
        `warned for ${damaged}`,
      );
      store.close();
    }
  });

  it('a skill removed after its uses: the whole write keeps the counts of the others, and nothing is left beside it', async () => {
    const bytes = await storeWithSkills();
    const store = await open(bytes);
    store.recordUsage([{ ...global, name: 'a' }], 5_000);
    store.recordUsage([{ ...global, name: 'b' }], 5_000);
    await store.save();
    store.delete({ ...global, name: 'b' });
    store.recordUsage([{ ...global, name: 'a' }], 6_000);
    await store.save();
    store.close();
    assert.equal(bytes.entries.has('skills.db.usage'), false);
    const reopened = await open(bytes);
    assert.deepEqual(counts(reopened, 'a'), { use_count: 2, last_used: 6_000 });
    assert.equal(reopened.has('b'), false);
    reopened.close();
  });
});
