import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { type MemoryLogger } from '../../../src/core/platform/basicPorts';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import { NodeFileLock } from '../../../src/core/platform/nodeFileLock';
import type { SkillRequestContext, SkillService } from '../../../src/core/skills/skillService';
import type { LearnedSkillInput } from '../../../src/core/skills/store/skillRecords';
import { SHARED_SKILLS_KEY, SHARED_SKILLS_LOCK } from '../../../src/core/skills/store/learned/sharedSkillStore';
import { makeScope } from '../../../src/core/skills/store/skillScope';
import { makeService, tempDir } from './helpers';
import { cli } from '../cli/helpers';

/** One VS Code window: its own workspace storage, the user's one global storage, its project and tenant. */
interface Window {
  service: SkillService;
  logger: MemoryLogger;
  ctx: SkillRequestContext;
  local: string;
}

async function openWindow(globalDir: string, projectId: string, tenantId = '', local = tempDir('toolshed-window-')): Promise<Window> {
  const { service, logger } = await makeService({
    bytes: new NodeByteStore(local),
    shared: { bytes: new NodeByteStore(globalDir), lock: new NodeFileLock(globalDir, SHARED_SKILLS_LOCK), tenantId: () => tenantId },
  });
  return { service, logger, local, ctx: { scope: { projectId, ...(tenantId ? { tenantId } : {}) }, includeWorkspacePacks: true } };
}

function learned(name: string, extra: Partial<LearnedSkillInput> = {}): LearnedSkillInput {
  return { name, trigger: `When ${name} is needed`, steps: [`Do ${name}.`], ...extra };
}

async function visibleLearned(window: Window): Promise<string[]> {
  const page = await window.service.list({ page_size: 50, origin: 'learned' }, window.ctx);
  return page.skills.map((s) => s.name).sort();
}

describe('real scopes: project, tenant and global across windows', () => {
  it('learned skills default to project scope: another workspace never sees them, even in the same tenant', async () => {
    const globalDir = tempDir('toolshed-global-');
    const a = await openWindow(globalDir, 'project-a', 'team-1');
    const b = await openWindow(globalDir, 'project-b', 'team-1');
    const stored = await a.service.addLearnedSkill(learned('deploy-a'), a.ctx.scope);
    assert.equal(stored.scope_mode, 'project');
    assert.equal(stored.scope_project_id, 'project-a');
    await b.service.syncSharedSkills();
    assert.deepEqual(await visibleLearned(a), ['deploy-a']);
    assert.deepEqual(await visibleLearned(b), []);
    const sharedFile = path.join(globalDir, SHARED_SKILLS_KEY);
    assert.equal(existsSync(sharedFile) && readFileSync(sharedFile).includes('deploy-a'), false, 'a project skill never enters the shared store');
    await Promise.all([a.service.dispose(), b.service.dispose()]);
  });

  it('promotion project → tenant → global: each step widens who sees it, and only the same tenant sees a tenant skill', async () => {
    const globalDir = tempDir('toolshed-global-');
    const a = await openWindow(globalDir, 'project-a', 'team-1');
    const b = await openWindow(globalDir, 'project-b', 'team-1');
    const c = await openWindow(globalDir, 'project-c', 'team-2');
    const none = await openWindow(globalDir, 'project-d');
    const all = [a, b, c, none];
    const sync = () => Promise.all(all.map((w) => w.service.syncSharedSkills()));
    await a.service.addLearnedSkill(learned('release-notes'), a.ctx.scope);

    // Without a tenant id given, the window's own (toolshed.scope.tenantId) is the target.
    const tenant = await a.service.promoteLearnedSkill('release-notes', 'tenant');
    assert.equal(tenant.scope_mode, 'tenant');
    assert.equal(tenant.scope_tenant_id, 'team-1');
    await sync();
    assert.deepEqual(await Promise.all(all.map(visibleLearned)), [['release-notes'], ['release-notes'], [], []]);
    // Another tenant's window does not even hold it, so no surface (the sidebar included) can show it.
    assert.equal(c.service.inspect('release-notes'), undefined);
    assert.equal(
      c.service.listPacks().some((p) => p.skills.some((k) => k.name === 'release-notes')),
      false,
    );

    // The tenant skill is promoted from another window of the same tenant.
    const global = await b.service.promoteLearnedSkill('release-notes', 'global');
    assert.equal(global.scope_mode, 'global');
    await sync();
    assert.deepEqual(await Promise.all(all.map(visibleLearned)), [['release-notes'], ['release-notes'], ['release-notes'], ['release-notes']]);
    const inA = a.service.inspect('release-notes');
    assert.equal(inA?.scope_mode, 'global', 'one copy, now global (the project and tenant copies are gone)');
    assert.deepEqual(inA?.steps, ['Do release-notes.'], 'content travels unchanged');
    await Promise.all(all.map((w) => w.service.dispose()));
  });

  it('a promotion that cannot be done says why and changes nothing', async () => {
    const globalDir = tempDir('toolshed-global-');
    const a = await openWindow(globalDir, 'project-a');
    await a.service.addLearnedSkill(learned('lint'), a.ctx.scope);
    await assert.rejects(a.service.promoteLearnedSkill('lint', 'tenant'), /toolshed\.scope\.tenantId/);
    await assert.rejects(a.service.promoteLearnedSkill('missing', 'global'), /No learned skill named "missing"/);
    assert.equal(existsSync(path.join(globalDir, SHARED_SKILLS_KEY)), false, 'nothing was written to the shared store');
    assert.equal(a.service.inspect('lint')?.scope_mode, 'project');
    await a.service.promoteLearnedSkill('lint', 'global');
    await assert.rejects(a.service.promoteLearnedSkill('lint', 'tenant', { tenantId: 'team-1' }), /only be promoted to a wider scope/);
    await a.service.addLearnedSkill(learned('lint', { trigger: 'project copy' }), a.ctx.scope);
    await assert.rejects(
      a.service.promoteLearnedSkill('lint', 'global', { from: makeScope('project', '', 'project-a') }),
      /global already has a learned skill/,
    );
    assert.equal((await a.service.get({ names: ['lint'] }, a.ctx)).skills[0]?.trigger, 'project copy', 'the refused promotion left the project copy in place');
    await a.service.dispose();
  });

  it('two windows writing global skills in parallel into one shared store lose nothing', async () => {
    const globalDir = tempDir('toolshed-global-');
    const a = await openWindow(globalDir, 'project-a');
    const b = await openWindow(globalDir, 'project-b');
    const names = (prefix: string) => Array.from({ length: 25 }, (_, i) => `${prefix}-${i}`);
    const results = await Promise.allSettled([
      ...names('from-a').map((name) => a.service.addLearnedSkill(learned(name, { scope_mode: 'global' }))),
      ...names('from-b').map((name) => b.service.addLearnedSkill(learned(name, { scope_mode: 'global' }))),
    ]);
    assert.deepEqual(
      results.filter((r) => r.status === 'rejected'),
      [],
    );
    await Promise.all([a.service.syncSharedSkills(), b.service.syncSharedSkills()]);
    const expected = [...names('from-a'), ...names('from-b')].sort();
    assert.deepEqual(await visibleLearned(a), expected);
    assert.deepEqual(await visibleLearned(b), expected);
    // A third window opened afterwards reads them all from the shared store alone.
    const c = await openWindow(globalDir, 'project-c');
    assert.deepEqual(await visibleLearned(c), expected);
    assert.deepEqual(
      readdirSync(globalDir).filter((f) => f.endsWith('.tmp') || f.includes('.lock')),
      [],
      'no temp or lock file left behind',
    );
    await Promise.all([a, b, c].map((w) => w.service.dispose()));
  });

  it('property: parallel adds, removes and promotions from three windows never leak across three scopes and two tenants, and every window agrees on the shared ones', async function () {
    this.timeout(120_000);
    const NAMES = ['alpha', 'beta', 'gamma'];
    const op = fc.record({
      window: fc.nat({ max: 2 }),
      kind: fc.constantFrom('add', 'add', 'remove', 'promote'),
      name: fc.constantFrom(...NAMES),
      scope: fc.constantFrom('project' as const, 'tenant' as const, 'global' as const),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const globalDir = tempDir('toolshed-global-');
        // Windows 0 and 1: tenant t1, different projects; window 2: tenant t2.
        const windows = [await openWindow(globalDir, 'p0', 't1'), await openWindow(globalDir, 'p1', 't1'), await openWindow(globalDir, 'p2', 't2')];
        const tenantOf = (w: Window) => w.ctx.scope?.tenantId ?? '';
        const projectOf = (w: Window) => w.ctx.scope?.projectId ?? '';
        // The trigger records who wrote a skill: "<name> by <project> of <tenant>".
        await Promise.allSettled(
          ops.map(({ window, kind, name, scope }) => {
            const w = windows[window] as Window;
            if (kind === 'add')
              return w.service.addLearnedSkill(learned(name, { scope_mode: scope, trigger: `${name} by ${projectOf(w)} of ${tenantOf(w)}` }), w.ctx.scope);
            if (kind === 'remove') return w.service.removeLearnedSkill(name, makeScope(scope, tenantOf(w), projectOf(w)));
            return scope === 'project' ? Promise.resolve() : w.service.promoteLearnedSkill(name, scope, { tenantId: tenantOf(w) });
          }),
        );
        await Promise.all(windows.map((w) => w.service.syncSharedSkills()));
        const byScope = async (w: Window, scope: 'project' | 'tenant' | 'global', asScope = w.ctx.scope) =>
          (await w.service.list({ page_size: 50, origin: 'learned', scope }, { ...w.ctx, scope: asScope })).skills.map((s) => s.trigger).sort();
        const views = await Promise.all(
          windows.map(async (w) => ({ project: await byScope(w, 'project'), tenant: await byScope(w, 'tenant'), global: await byScope(w, 'global') })),
        );
        for (const [i, w] of windows.entries()) {
          const view = views[i] as { project: string[]; tenant: string[]; global: string[] };
          // No leak: a project skill was written in this very project; a tenant skill by this tenant.
          for (const trigger of view.project) assert.match(trigger, new RegExp(` by ${projectOf(w)} of `), `window ${i} sees a foreign project skill`);
          for (const trigger of view.tenant) assert.match(trigger, new RegExp(` of ${tenantOf(w)}$`), `window ${i} sees another tenant's skill`);
          // A window's store does not even hold another workspace's project skills.
          for (const other of windows.filter((_, j) => j !== i)) assert.deepEqual(await byScope(w, 'project', other.ctx.scope), []);
          // The most specific scope answers to a name (project over tenant over global).
          for (const name of NAMES) {
            const answer = (await w.service.get({ names: [name] }, w.ctx)).skills[0]?.trigger;
            const own = (list: string[]) => list.find((t) => t.startsWith(`${name} `));
            assert.equal(answer, own(view.project) ?? own(view.tenant) ?? own(view.global));
          }
        }
        // Nothing lost or torn: every window agrees on the global skills, windows of one tenant on
        // its tenant skills, and a window opened afterwards reads the very same from the shared file.
        assert.deepEqual(views[1]?.global, views[0]?.global);
        assert.deepEqual(views[2]?.global, views[0]?.global);
        assert.deepEqual(views[1]?.tenant, views[0]?.tenant);
        const fresh = await openWindow(globalDir, 'p9', 't1');
        assert.deepEqual(await byScope(fresh, 'global'), views[0]?.global);
        assert.deepEqual(await byScope(fresh, 'tenant'), views[0]?.tenant);
        for (const w of [...windows, fresh]) await w.service.dispose();
      }),
      { numRuns: 12 },
    );
  });

  it("a damaged shared store is set aside and filled again from a window's copy; nothing is lost", async () => {
    const globalDir = tempDir('toolshed-global-');
    const a = await openWindow(globalDir, 'project-a', 'team-1');
    await a.service.addLearnedSkill(learned('shared-one', { scope_mode: 'global' }));
    await a.service.addLearnedSkill(learned('tenant-one', { scope_mode: 'tenant' }), a.ctx.scope);
    writeFileSync(path.join(globalDir, SHARED_SKILLS_KEY), 'not a database at all');
    await a.service.syncSharedSkills();
    assert.deepEqual(await visibleLearned(a), ['shared-one', 'tenant-one']);
    assert.ok(
      readdirSync(globalDir).some((f) => f.startsWith(`${SHARED_SKILLS_KEY}.corrupt-`)),
      'the damaged file is kept aside',
    );
    const b = await openWindow(globalDir, 'project-b', 'team-1');
    assert.deepEqual(await visibleLearned(b), ['shared-one', 'tenant-one'], 'a new window reads them from the refilled store');
    await Promise.all([a.service.dispose(), b.service.dispose()]);
  });
});

describe('seeding the shared store keeps the tenant rule of import', () => {
  /** A storage folder where `toolshed import` (without --tenant) kept a tenant skill of acme, plus a global one. */
  async function importedFolder(): Promise<string> {
    const source = await openWindow(tempDir('toolshed-source-global-'), 'p0', 'acme');
    await source.service.addLearnedSkill(learned('deploy-theirs', { scope_mode: 'tenant', tenant_id: 'acme' }), source.ctx.scope);
    await source.service.addLearnedSkill(learned('deploy-everywhere', { scope_mode: 'global' }), source.ctx.scope);
    const exported = await cli('export', '--storage', source.local);
    const dir = tempDir('toolshed-imported-');
    const snapshot = path.join(dir, 'learned.jsonl');
    writeFileSync(snapshot, exported.out);
    const local = tempDir('toolshed-window-');
    const imported = await cli('import', snapshot, '--storage', local);
    assert.equal(imported.code, 0, imported.all);
    return local;
  }

  for (const opener of ['beta', ''] as const) {
    it(`a window of ${opener ? 'another tenant' : 'no tenant'} opening that folder never seeds acme's skill where acme's windows load it`, async () => {
      const globalDir = tempDir('toolshed-global-');
      const first = await openWindow(globalDir, 'p1', opener, await importedFolder());
      const acme = await openWindow(globalDir, 'p2', 'acme');
      assert.deepEqual(await visibleLearned(acme), ['deploy-everywhere'], "acme's windows do not load the skill another tenant's window seeded");
      const shared = readFileSync(path.join(globalDir, SHARED_SKILLS_KEY), 'utf8');
      assert.ok(!shared.includes('"acme"'), 'no record of tenant acme in the shared store');
      // As import: moved into the opening window's tenant, or left out when it has none.
      assert.deepEqual(await visibleLearned(first), opener ? ['deploy-everywhere', 'deploy-theirs'] : ['deploy-everywhere']);
    });
  }
});

describe("the shared store's lock file", () => {
  it('runs holders one at a time, breaks the lock of a process that died, and times out with a message naming the holder', async () => {
    const dir = tempDir('toolshed-lock-');
    const lockA = new NodeFileLock(dir, 'x.lock');
    const lockB = new NodeFileLock(dir, 'x.lock');
    let inside = 0;
    let most = 0;
    const hold = (lock: NodeFileLock) =>
      lock.withLock(async () => {
        inside++;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inside--;
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => hold(i % 2 ? lockA : lockB)));
    assert.equal(most, 1, 'never two holders at once');
    // A lock left by a process that no longer exists (pid far beyond any live one on this host).
    writeFileSync(path.join(dir, 'x.lock'), JSON.stringify({ pid: 2 ** 22 + 17, host: os.hostname(), token: 'dead', at: Date.now() }));
    assert.equal(await lockA.withLock(async () => 'ran'), 'ran');
    // A lock held by a live process (this one, another instance) and never released.
    writeFileSync(path.join(dir, 'x.lock'), JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'live', at: Date.now() }));
    await assert.rejects(
      new NodeFileLock(dir, 'x.lock', { timeoutMs: 200 }).withLock(async () => 'never'),
      new RegExp(`locked by another window \\(process ${process.pid}\\)`),
    );
    // …until it is older than the stale limit.
    assert.equal(await new NodeFileLock(dir, 'x.lock', { staleMs: 0 }).withLock(async () => 'ran'), 'ran');
    assert.deepEqual(readdirSync(dir), [], 'released locks leave no file');
  });
});
