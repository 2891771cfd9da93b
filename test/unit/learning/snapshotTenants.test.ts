import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { makeLearning } from './helpers';
import { cli } from '../cli/helpers';
import { tempFolder } from '../../tempFolder';

const encode = (text: string) => new TextEncoder().encode(text);
const tenantId = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);

/** A snapshot holding one tenant skill of `tenant`, one global and one project skill. */
async function snapshotOf(tenant: string): Promise<string> {
  const source = await makeLearning({ tenantId: tenant });
  await source.service.addLearnedSkill({
    name: 'deploy-tenant',
    trigger: 'Deploy for the tenant',
    steps: ['Deploy.'],
    scope_mode: 'tenant',
    tenant_id: tenant,
  });
  await source.service.addLearnedSkill({ name: 'deploy-global', trigger: 'Deploy anywhere', steps: ['Deploy.'], scope_mode: 'global' });
  await source.service.addLearnedSkill({ name: 'deploy-project', trigger: 'Deploy this project', steps: ['Deploy.'], scope_mode: 'project', project_id: 'p9' });
  return source.learning.exportSnapshot('9.9.9').text;
}

describe('learned-skill snapshots: other tenants', () => {
  it("property: another tenant's skill is moved into this window's tenant (or left out without one), and the summary says so", async () => {
    await fc.assert(
      fc.asyncProperty(tenantId, fc.option(tenantId, { nil: undefined }), async (theirs, mine) => {
        fc.pre(theirs !== mine);
        const target = await makeLearning({ tenantId: mine });
        const report = await target.learning.importSnapshot(encode(await snapshotOf(theirs)));
        const tenants = target.service
          .learnedSkills()
          .filter((r) => r.scope_mode === 'tenant')
          .map((r) => r.scope_tenant_id);
        assert.ok(!tenants.includes(theirs), `a skill of tenant ${theirs} was written`);
        if (mine) {
          assert.deepEqual(tenants, [mine]);
          assert.deepEqual(report.movedToTenant, [{ name: 'deploy-tenant', from: theirs }]);
        } else {
          assert.deepEqual(tenants, []);
          assert.deepEqual(report.otherTenant, ['deploy-tenant']);
        }
        assert.deepEqual([...report.added].sort(), mine ? ['deploy-global', 'deploy-project', 'deploy-tenant'] : ['deploy-global', 'deploy-project']);
      }),
      { numRuns: 15 },
    );
  });

  it("a skill of this window's own tenant is imported as it is", async () => {
    const target = await makeLearning({ tenantId: 'acme' });
    const report = await target.learning.importSnapshot(encode(await snapshotOf('acme')));
    assert.deepEqual(report.movedToTenant, []);
    assert.deepEqual(
      target.service
        .learnedSkills()
        .filter((r) => r.scope_mode === 'tenant')
        .map((r) => r.scope_tenant_id),
      ['acme'],
    );
  });

  it('toolshed import --tenant moves another tenant\'s skill and says so; --tenant "" leaves it out', async () => {
    const dir = tempFolder('toolshed-tenant-cli-');
    try {
      const snapshot = path.join(dir, 'learned.jsonl');
      writeFileSync(snapshot, await snapshotOf('acme'));
      const run = async (...argv: string[]) => {
        const { code, all } = await cli(...argv);
        return { code, out: all };
      };
      for (const [folder, tenant, expected] of [
        ['mine', 'mine', /1 tenant skill\(s\) of another tenant moved into this tenant: deploy-tenant \(from acme\)/],
        ['none', '', /1 tenant skill\(s\) of another tenant not imported .*: deploy-tenant/],
      ] as const) {
        mkdirSync(path.join(dir, folder));
        const imported = await run('import', snapshot, '--storage', path.join(dir, folder), '--tenant', tenant);
        assert.equal(imported.code, 0, imported.out);
        assert.match(imported.out, expected);
        const exported = await run('export', '--storage', path.join(dir, folder));
        assert.ok(!exported.out.includes('"scope_tenant_id":"acme"'), exported.out);
        assert.equal(exported.out.includes('"scope_tenant_id":"mine"'), tenant === 'mine', exported.out);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
