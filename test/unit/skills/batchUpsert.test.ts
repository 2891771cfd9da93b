import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { toRecord } from '../../../src/core/skills/store/skillRecords';
import { rowToRecord } from '../../../src/core/skills/store/skillRows';
import { makeScope } from '../../../src/core/skills/store/skillScope';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import { decodeTerms, encodeTerms, TermVocabulary } from '../../../src/core/search/termStore';
import { SKILL_FIELDS } from '../../../src/core/skills/store/skillSearchIndex';
import { engine, TestClock } from './helpers';
import { parsedSkillOf } from '../../../src/core/skills/packs/document/parsedSkill';

/**
 * `SkillStore.upsertMany` (the batched write an import uses) must leave exactly the rows, stored terms,
 * ids and search results that upserting the same records one by one leaves; and the
 * store's in-memory learned records (what the journal is written from) must always equal what
 * the table holds — after batches, deletes, status and usage updates and rolled-back work. So
 * must every record `get` hands out from its read cache.
 */

const NAMES = ['alpha', 'beta', 'gamma', 'delta'];
const SCOPES = [makeScope('global'), makeScope('tenant', 't1'), makeScope('project', undefined, 'p1')];
const WORDS = ['deploy', 'invoice', 'rotate', 'certificate', 'archive', 'webhook'];

function record(name: string, scopeIndex: number, word: string, learned: boolean, sharedId: boolean): SkillRecord {
  const scope = SCOPES[scopeIndex]!;
  const base = toRecord(
    parsedSkillOf({
      name,
      title: `${word} ${name}`,
      trigger: `When you ${word} the ${name}`,
      task_type: 'api',
      tags: [word],
      steps: [`${word} it.`],
      format: learned ? ('learned' as never) : 'yaml',
    }),
    {
      origin: learned ? 'learned' : 'pack',
      originRef: 't',
      scopeMode: scope.scope_mode,
      tenantId: scope.scope_tenant_id,
      projectId: scope.scope_project_id,
      packName: learned ? '' : 't',
      workspace: false,
      sourceFile: learned ? '' : `/p/${name}.skill.yaml`,
      now: 1,
      env: {},
    },
  );
  // Records sharing one id exercise the id-collision rule (`<id>_<doc id>`).
  return { ...base, ...(learned ? { format: 'learned' as const } : {}), ...(sharedId ? { id: 'sk_shared' } : {}) };
}

const recordArb = fc
  .record({
    name: fc.constantFrom(...NAMES),
    scope: fc.nat({ max: SCOPES.length - 1 }),
    word: fc.constantFrom(...WORDS),
    learned: fc.boolean(),
    sharedId: fc.nat({ max: 3 }).map((n) => n === 0),
  })
  .map((r) => record(r.name, r.scope, r.word, r.learned, r.sharedId));

type Op =
  | { kind: 'batch'; records: SkillRecord[] }
  | { kind: 'delete'; name: string; scope: number }
  | { kind: 'status'; name: string; scope: number }
  | { kind: 'usage'; name: string; scope: number }
  | { kind: 'rolledBack'; records: SkillRecord[] };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.array(recordArb, { minLength: 1, maxLength: 8 }).map((records) => ({ kind: 'batch' as const, records })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), name: fc.constantFrom(...NAMES), scope: fc.nat({ max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('status' as const), name: fc.constantFrom(...NAMES), scope: fc.nat({ max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('usage' as const), name: fc.constantFrom(...NAMES), scope: fc.nat({ max: 2 }) }) },
  { weight: 1, arbitrary: fc.array(recordArb, { minLength: 1, maxLength: 4 }).map((records) => ({ kind: 'rolledBack' as const, records })) },
);

async function openStore(): Promise<SkillStore> {
  return SkillStore.open({ engine: await engine(), store: new MemoryByteStore(), logger: nullLogger, clock: new TestClock() });
}

function apply(store: SkillStore, op: Op, batched: boolean): void {
  const write = (records: readonly SkillRecord[]) => (batched ? store.upsertMany(records) : records.forEach((r) => store.upsert(r)));
  const identity = (o: { name: string; scope: number }) => ({ ...SCOPES[o.scope]!, name: o.name });
  if (op.kind === 'batch') write(op.records);
  else if (op.kind === 'delete') store.delete(identity(op));
  else if (op.kind === 'status') store.setStatus(identity(op), 'inactive', 'missing environment variable: X');
  else if (op.kind === 'usage') store.recordUsage([identity(op)], 42);
  else
    assert.throws(
      () =>
        store.transaction(() => {
          write(op.records);
          throw new Error('rolled back');
        }),
      /rolled back/,
    );
}

/** `get` of every name in every scope beside the same rows read from the table right now. */
function withoutUses(record: SkillRecord | undefined) {
  if (!record) return undefined;
  const { use_count: _count, last_used: _used, ...rest } = record;
  return rest;
}

function readsVersusTable(store: SkillStore) {
  const reads = [];
  const table = [];
  for (const name of NAMES) {
    for (const scope of SCOPES) {
      // A use's counters are noted beside the rows until the next whole write (skillUsageFile.ts):
      // reads carry them, the table does not; `state` compares them between the two stores.
      reads.push(withoutUses(store.get(name, scope)));
      const row = store.db.get('SELECT * FROM skills WHERE name = ? AND scope_mode = ? AND scope_tenant_id = ? AND scope_project_id = ?', [
        name,
        scope.scope_mode,
        scope.scope_tenant_id,
        scope.scope_project_id,
      ]);
      table.push(withoutUses(row ? rowToRecord(row) : undefined));
    }
  }
  return { reads, table };
}

/** Each stored skill's analysed terms, decoded with the stored vocabulary (each field's terms sorted). */
function storedTerms(store: SkillStore) {
  const vocabulary = new TermVocabulary();
  vocabulary.load(store.db.arrays('SELECT id, term FROM skill_vocab').map((r) => [Number(r[0]), String(r[1])] as const));
  return store.db
    .arrays('SELECT doc_id, terms FROM skill_terms ORDER BY doc_id')
    .map(([docId, blob]) => [
      docId,
      Object.entries(decodeTerms(blob as Uint8Array, vocabulary, SKILL_FIELDS)).map(([field, terms]) => [field, [...terms].sort()]),
    ]);
}

/** Everything a reader can see: rows with doc ids, stored terms, search and the learned records. */
function state(store: SkillStore) {
  return {
    rows: store.db.all('SELECT * FROM skills ORDER BY doc_id'),
    uses: store.all().map((r) => [r.scope_mode, r.scope_tenant_id, r.scope_project_id, r.name, r.use_count, r.last_used]),
    terms: storedTerms(store),
    search: WORDS.map((w) => store.searchRanked(w, { includeWorkspacePacks: true, tenantId: 't1', projectId: 'p1', activeOnly: false }, 20)),
  };
}

describe('skills: batched upserts (snapshot import at scale)', () => {
  it('property: upsertMany leaves the same rows, stored terms, ids and search results as one-by-one upserts; the learned records in memory and every read record always equal the table', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        const [one, many] = [await openStore(), await openStore()];
        // Prime the learned and read caches early so every later write has to keep them in step.
        many.learnedRecords();
        readsVersusTable(many);
        for (const op of ops) {
          apply(one, op, false);
          apply(many, op, true);
          assert.deepEqual(state(many), state(one), JSON.stringify(op));
          assert.deepEqual(
            many.learnedRecords(),
            many.all().filter((r) => r.origin === 'learned'),
          );
          const { reads, table } = readsVersusTable(many);
          assert.deepEqual(reads, table, 'get (read cache) equals the table');
        }
        one.close();
        many.close();
      }),
      { numRuns: 60 },
    );
  });

  it('after a rolled-back write, an id the rolled-back row took is free again (stored as it is, not renamed)', async () => {
    const store = await openStore();
    assert.throws(() =>
      store.transaction(() => {
        store.upsert(record('alpha', 0, 'deploy', false, true));
        throw new Error('the work around it failed');
      }),
    );
    assert.equal(store.has('alpha', SCOPES[0]), false);
    store.upsert(record('beta', 1, 'invoice', false, true));
    assert.equal(store.get('beta', SCOPES[1])?.id, 'sk_shared');
    store.upsert(record('gamma', 2, 'rotate', false, true));
    assert.match(store.get('gamma', SCOPES[2])?.id ?? '', /^sk_shared_\d+$/);
    store.delete({ ...SCOPES[1]!, name: 'beta' });
    store.upsert(record('delta', 0, 'archive', false, true));
    assert.equal(store.get('delta', SCOPES[0])?.id, 'sk_shared', 'a deleted row gives its id up');
  });

  it('a batch with one record that cannot be stored writes nothing at all', async () => {
    const store = await openStore();
    store.upsertMany([record('alpha', 0, 'deploy', true, false)]);
    const before = state(store);
    const learnedBefore = store.learnedRecords();
    const bad = { ...record('beta', 0, 'invoice', true, false), meta: { size: 10n } as never };
    assert.throws(() => store.upsertMany([record('gamma', 1, 'rotate', true, false), bad]), /BigInt/);
    assert.deepEqual(state(store), before);
    assert.deepEqual(store.learnedRecords(), learnedBefore);
    assert.equal(store.has('gamma', SCOPES[1]), false);
  });
});

describe('skills: stored term blobs', () => {
  it('property: a damaged blob throws (the store is then rebuilt) and never hangs or allocates without bound', () => {
    const vocabulary = new TermVocabulary();
    const blob = encodeTerms(
      { name: ['deploy'], title: ['deploy', 'servic'], trigger: [], description: ['payment'], tags: [], content: ['step', 'step'] },
      SKILL_FIELDS,
      vocabulary,
    );
    assert.deepEqual(decodeTerms(blob, vocabulary, SKILL_FIELDS).content, ['step', 'step']);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        try {
          const terms = decodeTerms(bytes, vocabulary, SKILL_FIELDS);
          for (const list of Object.values(terms)) assert.ok(list.length <= 1 << 20);
        } catch (error) {
          assert.match(String(error), /term blob/);
        }
      }),
    );
    // A count of 2^34 in an otherwise well-formed blob.
    assert.throws(() => decodeTerms(Uint8Array.from([1, 0, 0x80, 0x80, 0x80, 0x80, 0x40, 0, 0, 0, 0, 0]), vocabulary, SKILL_FIELDS), /term blob/);
  });
});
