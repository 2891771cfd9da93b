import { strict as assert } from 'node:assert';
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
