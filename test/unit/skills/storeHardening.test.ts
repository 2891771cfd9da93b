import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { MemoryLogger, nullLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import type { ByteStore } from '../../../src/core/platform/ports';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import { createToolSearchService } from '../../../src/core/tools/toolSearchService';
import { SAMPLE_TOOLS } from '../tools/helpers';
import type { SqlJsStatic } from 'sql.js';
import type { LearnedSkillInput } from '../../../src/core/skills/store/skillRecords';
import { ctx, engine, makeService, pack, stepSkill, tempDir, TestClock, writeTree } from './helpers';

const FIXTURES = path.join(__dirname, 'fixtures');

function learned(name: string, extra: Partial<LearnedSkillInput> = {}): LearnedSkillInput {
  return { name, trigger: `When ${name} is needed`, steps: [`Do ${name}.`], scope_mode: 'global', ...extra };
}

const warnings = (logger: MemoryLogger) => logger.lines.filter((l) => l.level === 'warn');

/** A skill service persisted through `bytes` (a real folder, in these tests). */
function serviceOn(bytes: ByteStore, forceRebuild = false) {
  return makeService({ bytes, forceRebuild, config: { scopeMode: 'global' } });
}

describe('skill store: names are unique per scope', () => {
  it("tenant B's learned skill neither overwrites nor sees tenant A's of the same name", async () => {
    const { service } = await makeService();
    await service.addLearnedSkill(learned('deploy', { scope_mode: 'tenant', tenant_id: 'a', trigger: 'Deploy for A' }));
    await service.addLearnedSkill(learned('deploy', { scope_mode: 'tenant', tenant_id: 'b', trigger: 'Deploy for B' }));
    const forA = await service.get({ names: ['deploy'] }, { ...ctx, scope: { tenantId: 'a' } });
    const forB = await service.get({ names: ['deploy'] }, { ...ctx, scope: { tenantId: 'b' } });
    assert.equal(forA.skills[0]?.trigger, 'Deploy for A');
    assert.equal(forB.skills[0]?.trigger, 'Deploy for B');
    assert.equal((await service.get({ names: ['deploy'] }, { ...ctx, scope: { tenantId: 'c' } })).skills.length, 0);
  });

  it("a learned skill in tenant B does not delete tenant A's pack skill of that name; two tenant packs with one name both load", async () => {
    const rootA = tempDir();
    const rootB = tempDir();
    writeTree(rootA, { 's.skill.yaml': stepSkill('shared-name', 'Pack of A') });
    writeTree(rootB, { 's.skill.yaml': stepSkill('shared-name', 'Pack of B') });
    const { service } = await makeService();
    const summary = await service.loadPacks([
      pack('a', rootA, { scopeMode: 'tenant', tenantId: 'a' }),
      pack('b', rootB, { scopeMode: 'tenant', tenantId: 'b' }),
    ]);
    assert.deepEqual(summary.problems, []);
    await service.addLearnedSkill(learned('shared-name', { scope_mode: 'tenant', tenant_id: 'b', trigger: 'Learned by B' }));
    const trigger = async (tenantId: string) => (await service.get({ names: ['shared-name'] }, { ...ctx, scope: { tenantId } })).skills[0]?.trigger;
    assert.equal(await trigger('a'), 'Pack of A');
    assert.equal(await trigger('b'), 'Learned by B');
    // B's pack skill gave way to B's learned skill (same scope) and is reported as shadowed on reload.
    const reloaded = await service.loadPacks([
      pack('a', rootA, { scopeMode: 'tenant', tenantId: 'a' }),
      pack('b', rootB, { scopeMode: 'tenant', tenantId: 'b' }),
    ]);
    assert.deepEqual(
      reloaded.problems.map((p) => [p.code, path.dirname(p.file)]),
      [['shadowed-by-learned', rootB]],
    );
    assert.equal(await trigger('a'), 'Pack of A');
  });

  it('a request sees one skill per name: the most specific scope (project over tenant over global)', async () => {
    const { service } = await makeService();
    await service.addLearnedSkill(learned('lint', { trigger: 'Global lint' }));
    await service.addLearnedSkill(learned('lint', { scope_mode: 'tenant', tenant_id: 't', trigger: 'Tenant lint' }));
    await service.addLearnedSkill(learned('lint', { scope_mode: 'project', project_id: 'p', trigger: 'Project lint' }));
    const names = async (scope: { tenantId?: string; projectId?: string }) => {
      const listed = await service.list({ page_size: 50 }, { ...ctx, scope });
      const got = await service.get({ names: ['lint'] }, { ...ctx, scope });
      return [listed.total, got.skills[0]?.trigger];
    };
    assert.deepEqual(await names({}), [1, 'Global lint']);
    assert.deepEqual(await names({ tenantId: 't' }), [1, 'Tenant lint']);
    assert.deepEqual(await names({ tenantId: 't', projectId: 'p' }), [1, 'Project lint']);
    assert.deepEqual(
      (await service.search({ query: 'lint' }, { ...ctx, scope: { projectId: 'p' } })).skills.map((s) => s.trigger),
      ['Project lint'],
    );
    await assert.rejects(service.removeLearnedSkill('lint'), /Several learned skills are named "lint"/);
    assert.ok(await service.removeLearnedSkill('lint', { scope_mode: 'project', scope_tenant_id: '', scope_project_id: 'p' }));
    assert.deepEqual(await names({ projectId: 'p' }), [1, 'Global lint']);
  });

  it('property: random learned skills across scopes and tenants never leak or overwrite', async () => {
    const scopeArb = fc.constantFrom(
      { scope_mode: 'global' as const },
      { scope_mode: 'tenant' as const, tenant_id: 't1' },
      { scope_mode: 'tenant' as const, tenant_id: 't2' },
      { scope_mode: 'project' as const, project_id: 'p1' },
      { scope_mode: 'project' as const, project_id: 'p2' },
      { scope_mode: 'project' as const, project_id: 'p1', tenant_id: 't1' },
    );
    const op = fc.record({ name: fc.constantFrom('alpha', 'beta', 'gamma'), scope: scopeArb, version: fc.nat({ max: 9 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const { service } = await makeService();
        const model = new Map<string, { trigger: string; mode: string; tenant: string; project: string; name: string }>();
        for (const { name, scope, version } of ops) {
          const trigger = `${name} v${version} ${JSON.stringify(scope)}`;
          await service.addLearnedSkill(learned(name, { ...scope, trigger }));
          const tenant = scope.scope_mode === 'global' ? '' : 'tenant_id' in scope ? (scope.tenant_id ?? '') : '';
          const project = scope.scope_mode === 'project' ? scope.project_id : '';
          model.set(`${scope.scope_mode}|${tenant}|${project}|${name}`, { trigger, mode: scope.scope_mode, tenant, project, name });
        }
        const rank = (m: { mode: string; tenant: string }) => (m.mode === 'project' ? (m.tenant ? 4 : 3) : m.mode === 'tenant' ? 2 : 1);
        for (const request of [
          {},
          { tenantId: 't1' },
          { tenantId: 't2' },
          { projectId: 'p1' },
          { projectId: 'p2' },
          { tenantId: 't1', projectId: 'p1' },
          { tenantId: 't2', projectId: 'p1' },
        ]) {
          const sees = (m: { mode: string; tenant: string; project: string }) =>
            m.mode === 'global' ||
            (m.mode === 'tenant' && m.tenant === (request as { tenantId?: string }).tenantId) ||
            (m.mode === 'project' &&
              m.project === (request as { projectId?: string }).projectId &&
              (m.tenant === '' || m.tenant === (request as { tenantId?: string }).tenantId));
          const expected = new Map<string, string>();
          for (const name of ['alpha', 'beta', 'gamma']) {
            const best = [...model.values()].filter((m) => m.name === name && sees(m)).sort((a, b) => rank(b) - rank(a))[0];
            if (best) expected.set(name, best.trigger);
          }
          const requestCtx = { ...ctx, scope: request };
          const got = await service.get({ names: ['alpha', 'beta', 'gamma'] }, requestCtx);
          assert.deepEqual(new Map(got.skills.map((s) => [s.name, s.trigger])), expected, JSON.stringify(request));
          assert.equal((await service.list({ page_size: 50 }, requestCtx)).total, expected.size);
          assert.deepEqual(
            (await service.search({ query: 'alpha beta gamma', limit: 20 }, requestCtx)).skills.map((s) => s.name).sort(),
            [...expected.keys()].sort(),
          );
        }
        await service.dispose();
      }),
      { numRuns: 25 },
    );
  });
});

/**
 * Fixtures: `skills-v1-*.db` were written by the version 1 store; `skills-v2-*.db` by the version 2
 * store (commit e30d2e8, with its FTS table of analysed text) opening the version 1 files;
 * `skills-v3-*.db` by the version 3 store (commit c910ddb, whose schema version named sql.js's
 * full-text engine and which kept no terms without one) opening the version 2 files; `skills-v5.db`
 * by the version 5 store (commit 83d2188, before folder listings were kept) opening
 * `skills-v3-fts4.db`. `none`: written where sql.js had no full-text engine.
 */
describe('skill store: migration from schema versions 1, 2, 3 and 5 keeps every row', () => {
  for (const [version, fts] of [
    [1, 'fts4'],
    [1, 'none'],
    [2, 'fts4'],
    [2, 'none'],
    [3, 'fts4'],
    [3, 'none'],
    [5, undefined],
  ] as const) {
    it(`a version ${version}${fts ? ` (${fts})` : ''} database file with rows migrates with nothing lost, every skill ranked`, async () => {
      const bytes = new MemoryByteStore();
      await bytes.write('skills.db', readFileSync(path.join(FIXTURES, fts ? `skills-v${version}-${fts}.db` : `skills-v${version}.db`)));
      const logger = new MemoryLogger();
      const store = await SkillStore.open({ engine: await engine(), store: bytes, logger, clock: new TestClock() });
      assert.equal(store.openInfo.status, 'migrated');
      assert.deepEqual(warnings(logger), []);
      assert.deepEqual(store.db.all("SELECT name FROM sqlite_master WHERE name LIKE 'skills_fts%'"), [], 'the full-text table is gone');
      assert.equal(store.db.get<{ n: number }>('SELECT count(*) AS n FROM skill_folders')?.n, 0, 'folder listings are kept from the next load on');
      const rows = store.all().map((r) => [r.name, r.origin, r.scope_mode, r.scope_tenant_id, r.scope_project_id, r.use_count, r.trigger]);
      assert.deepEqual(rows, [
        ['deploy-service', 'pack', 'global', '', '', 7, 'Deploy the payment service'],
        ['fix-flaky-test', 'learned', 'project', '', 'proj-1', 3, 'Fix a flaky integration test'],
        ['rotate-keys', 'pack', 'tenant', 'acme', '', 0, 'Rotate the signing keys'],
        ['write-release-notes', 'learned', 'global', '', '', 0, 'Write release notes from merged pull requests'],
      ]);
      const everyone = { includeWorkspacePacks: true, tenantId: 'acme', projectId: 'proj-1' };
      // Every skill has stored terms (analysed on open where the old store kept none) and is ranked.
      assert.equal(store.db.get<{ n: number }>('SELECT count(*) AS n FROM skill_terms')?.n, 4);
      assert.deepEqual(
        store.searchRanked('flaky integration', everyone, 5).map((h) => h.name),
        ['fix-flaky-test'],
      );
      assert.deepEqual(
        store.searchRanked('signing keys', everyone, 5).map((h) => h.name),
        ['rotate-keys'],
      );
      // The migrated database now takes the same name in another scope.
      const copy = { ...store.get('rotate-keys')!, scope_tenant_id: 'other', id: 'sk_other' };
      store.upsert(copy);
      assert.equal(store.named('rotate-keys').length, 2);
      await store.save();
      store.close();
      const reopened = await SkillStore.open({ engine: await engine(), store: bytes, logger, clock: new TestClock() });
      assert.equal(reopened.openInfo.status, 'loaded');
      assert.equal(reopened.count(), 5);
      assert.deepEqual(
        reopened.searchRanked('release notes', everyone, 5).map((h) => h.name),
        ['write-release-notes'],
      );
      reopened.close();
    });
  }
});

describe('learned skills: scope that no request could see is refused', () => {
  it('project scope without a project id, or tenant scope without a tenant id, throws a clear error and stores nothing', async () => {
    const { service } = await makeService({ config: { scopeMode: 'project' } });
    await assert.rejects(service.addLearnedSkill({ name: 'x', trigger: 't', steps: ['s'] }), /scope "project" needs a project id \(project_id\)/);
    await assert.rejects(service.addLearnedSkill({ name: 'x', trigger: 't', steps: ['s'], scope_mode: 'tenant' }), /scope "tenant" needs a tenant id/);
    assert.equal(service.inspect('x'), undefined);
    const stored = await service.addLearnedSkill({ name: 'x', trigger: 't', steps: ['s'], project_id: 'p9' });
    assert.deepEqual([stored.scope_mode, stored.scope_project_id], ['project', 'p9']);
    assert.equal((await service.get({ names: ['x'] }, { ...ctx, scope: { projectId: 'p9' } })).skills.length, 1);
  });

  it("ids the input leaves out are filled from the caller's request scope", async () => {
    const { service } = await makeService({ config: { scopeMode: 'project' } });
    const stored = await service.addLearnedSkill({ name: 'from-request', trigger: 't', steps: ['s'] }, { tenantId: 'acme', projectId: 'web' });
    assert.deepEqual([stored.scope_mode, stored.scope_tenant_id, stored.scope_project_id], ['project', 'acme', 'web']);
    const tenantOnly = await service.addLearnedSkill(
      { name: 'tenant-wide', trigger: 't', steps: ['s'], scope_mode: 'tenant' },
      { tenantId: 'acme', projectId: 'web' },
    );
    assert.deepEqual([tenantOnly.scope_tenant_id, tenantOnly.scope_project_id], ['acme', '']);
    assert.equal((await service.get({ names: ['from-request', 'tenant-wide'] }, { ...ctx, scope: { tenantId: 'acme', projectId: 'web' } })).skills.length, 2);
    assert.equal((await service.get({ names: ['from-request'] }, { ...ctx, scope: { tenantId: 'acme', projectId: 'api' } })).skills.length, 0);
  });
});

describe('learned skills: parallel writers lose nothing', () => {
  it('100 parallel addLearnedSkill calls all succeed, and the journal alone restores all 100', async () => {
    const folder = tempDir('toolshed-parallel-');
    const open = (forceRebuild = false) => serviceOn(new NodeByteStore(folder), forceRebuild);
    const { service } = await open();
    const names = Array.from({ length: 100 }, (_, i) => `learned-${i}`);
    const results = await Promise.allSettled(names.map((name) => service.addLearnedSkill(learned(name))));
    assert.deepEqual(
      results.filter((r) => r.status === 'rejected'),
      [],
    );
    await service.dispose();
    assert.deepEqual(
      readdirSync(folder).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp file left behind',
    );
    const restored = await open(true);
    assert.ok(
      restored.logger.lines.some((l) => l.message.includes('Restored 100 learned skill(s)')),
      JSON.stringify(restored.logger.lines),
    );
    const pages = await Promise.all([1, 2].map((page) => restored.service.list({ page, page_size: 50, origin: 'learned' }, ctx)));
    assert.deepEqual(pages.flatMap((p) => p.skills.map((s) => s.name)).sort(), [...names].sort());
    await restored.service.dispose();
  });

  it('property: N parallel writers (adds and removes across scopes) leave a journal that restores exactly the store', async () => {
    const op = fc.record({
      remove: fc.boolean(),
      name: fc.constantFrom('one', 'two', 'three', 'four'),
      tenant: fc.constantFrom(undefined, 'ta', 'tb'),
      version: fc.nat({ max: 5 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const folder = tempDir('toolshed-writers-');
        const { service } = await serviceOn(new NodeByteStore(folder));
        const scopeOf = (tenant?: string) =>
          tenant
            ? { scope_mode: 'tenant' as const, scope_tenant_id: tenant, scope_project_id: '' }
            : { scope_mode: 'global' as const, scope_tenant_id: '', scope_project_id: '' };
        const results = await Promise.allSettled(
          ops.map(({ remove, name, tenant, version }) =>
            remove
              ? service.removeLearnedSkill(name, scopeOf(tenant))
              : service.addLearnedSkill(learned(name, { scope_mode: tenant ? 'tenant' : 'global', tenant_id: tenant, trigger: `${name} v${version}` })),
          ),
        );
        assert.deepEqual(
          results.filter((r) => r.status === 'rejected'),
          [],
        );
        const snapshot = async (s: typeof service) => {
          const rows: string[] = [];
          for (const scope of [{}, { tenantId: 'ta' }, { tenantId: 'tb' }]) {
            const got = await s.get({ names: ['one', 'two', 'three', 'four'] }, { ...ctx, scope });
            rows.push(...got.skills.map((k) => `${JSON.stringify(scope)} ${k.name}: ${k.trigger}`));
          }
          return rows.sort();
        };
        const before = await snapshot(service);
        await service.dispose();
        assert.deepEqual(
          readdirSync(folder).filter((f) => f.endsWith('.tmp')),
          [],
        );
        const { service: restored } = await serviceOn(new NodeByteStore(folder), true);
        assert.deepEqual(await snapshot(restored), before);
        await restored.dispose();
      }),
      { numRuns: 15 },
    );
  });

  it('a journal line altered on disk is skipped by its checksum (the database copy stays); old lines without one are read', async () => {
    const bytes = new MemoryByteStore();
    const first = await makeService({ bytes });
    await first.service.addLearnedSkill(learned('kept', { trigger: 'Original trigger' }));
    await first.service.dispose();
    const key = 'skills.db.learned.jsonl';
    const journal = new TextDecoder().decode(await bytes.read(key));
    assert.match(journal, /"_check":"[0-9a-f]{32}"/);
    await bytes.write(key, new TextEncoder().encode(journal.replace('Original trigger', 'Tampered trigger')));
    const second = await makeService({ bytes });
    assert.equal(second.service.inspect('kept')?.trigger, 'Original trigger');
    assert.equal(warnings(second.logger).length, 1);
    assert.match(warnings(second.logger)[0]?.message ?? '', /1 unreadable or damaged entry skipped \(line 1\)/);
    await second.service.dispose();
    // A line from before checksums (no `_check`) is trusted: it restores into a fresh database.
    const old = JSON.parse(journal.trim()) as Record<string, unknown>;
    delete old._check;
    const third = new MemoryByteStore();
    await third.write(key, new TextEncoder().encode(`${JSON.stringify({ ...old, trigger: 'From an old journal' })}\n`));
    const restored = await makeService({ bytes: third });
    assert.equal(restored.service.inspect('kept')?.trigger, 'From an old journal');
    await restored.service.dispose();
  });

  it("temp files left by a writer killed mid-write are removed when the store is opened; a live writer's are kept", async () => {
    const folder = tempDir('toolshed-tmp-');
    const dead = path.join(folder, 'skills.db.999999999.0a1b2c.tmp');
    const live = path.join(folder, `skills.db.${process.pid}.0a1b2c.tmp`);
    const old = path.join(folder, `skills.db.learned.jsonl.${process.pid}.ffee00.tmp`);
    for (const file of [dead, live, old]) writeFileSync(file, new Uint8Array(4096));
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(old, hourAgo, hourAgo);
    const store = await SkillStore.open({ engine: await engine(), store: new NodeByteStore(folder), logger: nullLogger, clock: new TestClock() });
    assert.deepEqual([existsSync(dead), existsSync(live), existsSync(old)], [false, true, false]);
    store.close();
  });
});

/** A ByteStore whose reads of one key fail like an unreadable file (tests run as root, so chmod does not). */
class UnreadableKey implements ByteStore {
  constructor(
    private readonly inner: ByteStore,
    private readonly key: string,
    private broken = true,
  ) {}
  async read(key: string) {
    if (this.broken && key === this.key) throw Object.assign(new Error(`EACCES: permission denied, open '${key}'`), { code: 'EACCES' });
    return this.inner.read(key);
  }
  write(key: string, bytes: Uint8Array | readonly Uint8Array[]) {
    return this.inner.write(key, bytes);
  }
  async rename(from: string, to: string) {
    if (from === this.key) this.broken = false;
    return this.inner.rename(from, to);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
}

type Damage = { label: string; apply(folder: string, file: string): void; unreadable?: boolean; target?: string };

/** Damage to a file on disk: flipped bytes, truncation, garbage (up to `garbageMax` bytes), a folder, a FIFO, unreadable. */
function fileDamages(garbageMax: number): Array<fc.Arbitrary<Damage>> {
  return [
    byteFlips(),
    fc
      .nat()
      .map((n): Damage => ({ label: 'truncated', apply: (_f, file) => writeFileSync(file, readFileSync(file).subarray(0, n % readFileSync(file).length)) })),
    fc.uint8Array({ minLength: 1, maxLength: garbageMax }).map((garbage): Damage => ({ label: 'garbage', apply: (_f, file) => writeFileSync(file, garbage) })),
    fc.constant<Damage>({
      label: 'a directory',
      apply: (_f, file) => {
        rmSync(file);
        mkdirSync(file);
        writeFileSync(path.join(file, 'inside'), 'x');
      },
    }),
    fc.constant<Damage>({
      label: 'a FIFO',
      apply: (_f, file) => {
        rmSync(file);
        execFileSync('mkfifo', [file]);
      },
    }),
    fc.constant<Damage>({ label: 'unreadable', apply: () => undefined, unreadable: true }),
  ];
}

/** Damage to the journal file. */
function journalDamage(target: string): fc.Arbitrary<Damage> {
  return fc.oneof(...fileDamages(2000)).map((damage) => ({ ...damage, label: `journal: ${damage.label}`, target }));
}

function byteFlips(): fc.Arbitrary<Damage> {
  return fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 8 }).map((flips): Damage => ({
    label: `flip ${flips.length} byte(s) at ${flips.map(([at]) => at).join(',')}`,
    apply: (_folder, file) => {
      const bytes = readFileSync(file);
      for (const [at, mask] of flips) bytes[at % bytes.length] ^= mask;
      writeFileSync(file, bytes);
    },
  }));
}

/** Ways the database file can be damaged on disk: a file's damage, or a schema statement. */
function damageArbitrary(makeSchemaDamage: (sql: string) => Damage): fc.Arbitrary<Damage> {
  return fc.oneof(
    ...fileDamages(5000),
    fc.constantFrom('DROP TABLE skill_terms', 'ALTER TABLE skills DROP COLUMN body', 'DROP TABLE skills', 'DELETE FROM toolshed_meta').map(makeSchemaDamage),
  );
}

describe('damaged stores are rebuilt with learned skills restored', () => {
  let sqlJs: SqlJsStatic;
  before(async () => {
    sqlJs = (await engine()).sql;
  });
  /** Same version stamp, but the statement removes a table or column (or the stamp itself). */
  const schemaDamage = (statement: string): Damage => ({
    label: statement,
    apply: (_folder, file) => {
      const db = new sqlJs.Database(readFileSync(file));
      db.run(statement);
      writeFileSync(file, db.export());
      db.close();
    },
  });

  const JOURNAL = 'skills.db.learned.jsonl';
  const cases: Array<[string, () => fc.Arbitrary<Damage>, number]> = [
    ['any damage to skills.db', () => damageArbitrary(schemaDamage), 40],
    ['byte flips alone (some pass the integrity check)', () => byteFlips(), 30],
    ['any damage to the learned-skill journal (the database intact)', () => journalDamage(JOURNAL), 30],
  ];
  for (const [what, arbitrary, numRuns] of cases)
    it(`property: ${what} ends in a working store with every learned skill back and at most one warning`, async function () {
      if (process.platform === 'win32') this.skip();
      const folder = tempDir('toolshed-damage-');
      // One healthy store with packs + learned skills, copied for every run.
      const seed = path.join(folder, 'seed');
      const packRoot = path.join(folder, 'pack');
      writeTree(packRoot, { 'a.skill.yaml': stepSkill('pack.d.alpha', 'Alpha work'), 'b.skill.yaml': stepSkill('pack.d.beta', 'Beta work') });
      const names = ['restore-one', 'restore-two', 'restore-three'];
      const openService = (dir: string, bytes?: ByteStore) => serviceOn(bytes ?? new NodeByteStore(dir));
      {
        const { service } = await openService(seed);
        await service.loadPacks([pack('d', packRoot)]);
        for (const name of names) await service.addLearnedSkill(learned(name, { trigger: `Restore ${name} after damage` }));
        await service.dispose();
      }
      let run = 0;
      const statuses = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(arbitrary(), async (damage) => {
          const dir = path.join(folder, `run-${run++}`);
          mkdirSync(dir);
          for (const file of readdirSync(seed)) writeFileSync(path.join(dir, file), readFileSync(path.join(seed, file)));
          const target = damage.target ?? 'skills.db';
          damage.apply(dir, path.join(dir, target));
          const bytes = damage.unreadable ? new UnreadableKey(new NodeByteStore(dir), target) : undefined;
          const { service, logger } = await openService(dir, bytes);
          const warned = warnings(logger);
          statuses.set(
            `${damage.label.replace(/\d+/g, 'N')}: ${service.openInfo.status}`,
            (statuses.get(`${damage.label.replace(/\d+/g, 'N')}: ${service.openInfo.status}`) ?? 0) + 1,
          );
          assert.ok(warned.length <= 1, `${damage.label}: ${JSON.stringify(warned)}`);
          if (service.openInfo.status === 'rebuilt') assert.equal(warned.length, 1, damage.label);
          await service.loadPacks([pack('d', packRoot)]);
          const listed = await service.list({ page_size: 50 }, ctx);
          for (const name of [...names, 'pack.d.alpha', 'pack.d.beta'])
            assert.ok(
              listed.skills.some((s) => s.name === name),
              `${damage.label}: ${name} missing`,
            );
          for (const name of names) {
            const got = await service.get({ names: [name] }, ctx);
            assert.equal(got.skills[0]?.trigger, `Restore ${name} after damage`, damage.label);
          }
          assert.ok((await service.search({ query: 'restore damage' }, ctx)).skills.length >= 1, damage.label);
          await service.addLearnedSkill(learned('after-damage'));
          await service.dispose();
        }),
        { numRuns },
      );
      if (process.env.TOOLSHED_DAMAGE_STATS) console.log(statuses);
    });

  it('a page count and change counter flipped beside a damaged page are found on open, not by the store’s first read', async () => {
    // fast-check found it: SQLite's checks passed, and the write that proves the file takes writes
    // then rewrote the header so that the store's next read failed ("database disk image is malformed").
    const folder = tempDir('toolshed-header-');
    const packRoot = path.join(folder, 'pack');
    writeTree(packRoot, { 'a.skill.yaml': stepSkill('pack.d.alpha', 'Alpha work'), 'b.skill.yaml': stepSkill('pack.d.beta', 'Beta work') });
    const names = ['restore-one', 'restore-two', 'restore-three'];
    {
      const { service } = await serviceOn(new NodeByteStore(folder));
      await service.loadPacks([pack('d', packRoot)]);
      for (const name of names) await service.addLearnedSkill(learned(name, { trigger: `Restore ${name} after damage` }));
      await service.dispose();
    }
    const file = path.join(folder, 'skills.db');
    const bytes = readFileSync(file);
    for (const at of [28, 24, 6897676]) bytes[at % bytes.length]! ^= 1;
    writeFileSync(file, bytes);
    const { service, logger } = await serviceOn(new NodeByteStore(folder));
    assert.ok(warnings(logger).length <= 1, JSON.stringify(warnings(logger)));
    await service.loadPacks([pack('d', packRoot)]);
    const listed = (await service.list({ page_size: 50 }, ctx)).skills.map((s) => s.name);
    for (const name of [...names, 'pack.d.alpha', 'pack.d.beta']) assert.ok(listed.includes(name), `${name} missing: ${listed.join(', ')}`);
    await service.dispose();
  });

  it('property: byte flips in tools.db end in a tool index that opens, indexes and searches (≤ 1 warning)', async () => {
    const seed = tempDir('toolshed-toolflip-');
    const first = await createToolSearchService({ engine: await engine(), store: new NodeByteStore(seed), logger: nullLogger, saveDelayMs: 0 });
    first.setTools(SAMPLE_TOOLS);
    await first.flush();
    await first.dispose();
    const healthy = readFileSync(path.join(seed, 'tools.db'));
    await fc.assert(
      fc.asyncProperty(byteFlips(), async (damage) => {
        const dir = tempDir('toolshed-toolflip-');
        writeFileSync(path.join(dir, 'tools.db'), healthy);
        damage.apply(dir, path.join(dir, 'tools.db'));
        const logger = new MemoryLogger();
        const service = await createToolSearchService({ engine: await engine(), store: new NodeByteStore(dir), logger, saveDelayMs: 0 });
        assert.ok(warnings(logger).length <= 1, damage.label);
        service.setTools(SAMPLE_TOOLS);
        const run = await service.startRun({ sessionId: 'flip', isVisible: () => false });
        const found = run.search({ query: 'weather forecast for a city' });
        assert.ok(found.ok, damage.label);
        run.end();
        await service.dispose();
      }),
      { numRuns: 30 },
    );
  });

  for (const label of ['a directory', 'a FIFO', 'garbage'] as const) {
    it(`the tool index database (same persistence code) is rebuilt when it is ${label}, with one warning`, async () => {
      const dir = tempDir('toolshed-tooldb-');
      const file = path.join(dir, 'tools.db');
      if (label === 'a directory') mkdirSync(file);
      else if (label === 'a FIFO') execFileSync('mkfifo', [file]);
      else writeFileSync(file, 'not a database '.repeat(100));
      const logger = new MemoryLogger();
      const service = await createToolSearchService({ engine: await engine(), store: new NodeByteStore(dir), logger, saveDelayMs: 0 });
      assert.equal(service.indexStatus.status, 'rebuilt');
      assert.equal(warnings(logger).length, 1);
      service.setTools([{ name: 'weather_forecast', description: 'Get the weather forecast for a city.', inputSchema: { type: 'object' } }]);
      await service.flush();
      await service.dispose();
      const reopened = await createToolSearchService({ engine: await engine(), store: new NodeByteStore(dir), logger: new MemoryLogger(), saveDelayMs: 0 });
      assert.equal(reopened.indexStatus.status, 'loaded');
      await reopened.dispose();
    });
  }
});

describe('skill store: a renamed vocabulary term is damage', () => {
  it('a term whose bytes changed in skills.db (every skill using it would silently lose it) rebuilds the store, and search finds the skill again', async () => {
    const sqlJs = (await engine()).sql;
    const dir = tempDir('toolshed-vocab-');
    {
      const { service } = await serviceOn(new NodeByteStore(dir));
      await service.addLearnedSkill(learned('restore-one', { trigger: 'Restore the archive after damage' }));
      await service.dispose();
    }
    const file = path.join(dir, 'skills.db');
    const db = new sqlJs.Database(readFileSync(file));
    db.run("UPDATE skill_vocab SET term = 'rextor' WHERE term = 'restor'");
    assert.equal(db.getRowsModified(), 1, 'the stored vocabulary holds the analysed term');
    writeFileSync(file, db.export());
    db.close();
    const { service, logger } = await serviceOn(new NodeByteStore(dir));
    assert.equal(service.openInfo.status, 'rebuilt');
    assert.match(warnings(logger)[0]?.message ?? '', /vocabulary is damaged/);
    const found = await service.search({ query: 'restore the archive' }, ctx);
    assert.equal(found.skills[0]?.name, 'restore-one');
    await service.dispose();
  });
});
