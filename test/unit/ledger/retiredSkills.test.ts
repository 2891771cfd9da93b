import * as assert from 'node:assert/strict';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { LEDGER_DB_KEY, LedgerStore, retireRefusal } from '../../../src/core/ledger/ledgerStore';
import { ledgerTableText } from '../../../src/core/ledger/ledgerTable';
import { plannerSkillsFrom } from '../../../src/core/planner/plannerSkills';
import type { SkillService } from '../../../src/core/skills/skillService';
import type { SkillRequestContext } from '../../../src/core/skills/skillRequestContext';
import { loadSqlEngine, type SqlEngine } from '../../../src/core/sql/sqlEngine';
import { makeService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';

/**
 * Retiring a skill (the Ledger view's Retire) keeps it out of use in this workspace — never
 * injected (pinned or relevant), never found — for pack and learned skills alike; Restore brings
 * it back, and both survive a reload of the ledger.
 */

const NOW = Date.UTC(2026, 10, 27, 12);
const countTokens = async (text: string) => Math.ceil(text.length / 4);
const DEPLOY = 'pack.ops.deploy_service';
const ROLLBACK = 'rollback-learned';
const DEPLOY_REQUEST = 'deploy the service to production';
const ROLLBACK_REQUEST = 'roll back the failed production deploy';

async function skillsFixture(): Promise<SkillService> {
  const root = tempDir();
  writeTree(root, {
    'deploy.skill.yaml': stepSkill(DEPLOY, 'Deploy the service to production', ['Build the release.', 'Deploy the service to production.']),
  });
  const { service } = await makeService();
  await service.loadPacks([pack('ops', root)]);
  await service.addLearnedSkill({
    name: ROLLBACK,
    trigger: 'Roll back a failed production deploy',
    steps: ['Find the last good release.', 'Roll back the production deploy to it.'],
    scope_mode: 'global',
  });
  return service;
}

/** What the turn's pre-flight injects for `prompt` (pinned and relevant), with the ledger's retired names. */
async function injected(service: SkillService, ledger: LedgerStore, prompt: string, pinnedNames: string[] = []): Promise<string[]> {
  const ctx: SkillRequestContext = { includeWorkspacePacks: true, retiredNames: retiredNames(ledger) };
  const out = await plannerSkillsFrom(service, ctx, { maxTokens: 2000, topK: 3, pinnedNames, countTokens }).preflight(prompt);
  return out.used.map((use) => use.name);
}

const retiredNames = (ledger: LedgerStore) => new Set(ledger.report(1).retiredSkills.map((row) => row.skill));

describe('retired skills', () => {
  let engine: SqlEngine;
  before(async () => {
    engine = await loadSqlEngine();
  });
  const open = (store: MemoryByteStore) => LedgerStore.open({ engine, store, logger: new MemoryLogger(), clock: { now: () => NOW } });

  it('a retired skill, pack or learned, is never injected (pinned or relevant) nor found; Restore brings it back', async () => {
    const service = await skillsFixture();
    const ledger = await open(new MemoryByteStore());
    assert.deepEqual(await injected(service, ledger, DEPLOY_REQUEST), [DEPLOY], 'injected before it is retired');
    assert.deepEqual(await injected(service, ledger, ROLLBACK_REQUEST), [ROLLBACK]);

    assert.equal(ledger.retireSkill(DEPLOY), true);
    assert.equal(ledger.retireSkill(ROLLBACK), true);
    for (const prompt of [DEPLOY_REQUEST, ROLLBACK_REQUEST, `${DEPLOY_REQUEST}, and ${ROLLBACK_REQUEST} if it fails`]) {
      assert.deepEqual(await injected(service, ledger, prompt), [], `nothing injected for "${prompt}"`);
      assert.deepEqual(await injected(service, ledger, prompt, [DEPLOY, ROLLBACK]), [], 'not even when pinned');
    }
    const ctx: SkillRequestContext = { includeWorkspacePacks: true, retiredNames: retiredNames(ledger) };
    const search = await service.search({ query: 'production deploy roll back' }, ctx);
    assert.deepEqual(
      search.skills.map((hit) => hit.name),
      [],
      'skill_search leaves retired skills out',
    );
    assert.equal((await service.list({}, ctx)).total, 0, 'skill_list too');
    const get = await service.get({ names: [DEPLOY] }, ctx);
    assert.equal(get.skills.length, 0);
    assert.match(get.message ?? '', /retired in this workspace/, 'skill_get says why');

    assert.equal(ledger.restoreSkill(DEPLOY), true);
    assert.equal(ledger.restoreSkill(DEPLOY), false, 'restoring twice changes nothing');
    assert.deepEqual(await injected(service, ledger, DEPLOY_REQUEST), [DEPLOY], 'restored: injected again');
    assert.ok(!(await injected(service, ledger, ROLLBACK_REQUEST)).includes(ROLLBACK), 'the other stays retired');
  });

  it('retirement survives a reload; a ledger of an earlier version keeps its rows and can retire', async () => {
    const store = new MemoryByteStore();
    const first = await open(store);
    first.retireSkill(DEPLOY);
    await first.save();
    first.close();
    const reopened = await open(store);
    assert.deepEqual([...retiredNames(reopened)], [DEPLOY]);
    const report = reopened.report(7);
    assert.match(ledgerTableText(report), /Retired skills .*pack\.ops\.deploy_service/);
    const service = await skillsFixture();
    assert.ok(!(await injected(service, reopened, DEPLOY_REQUEST)).includes(DEPLOY), 'still retired after the reload');
    reopened.restoreSkill(DEPLOY);
    await reopened.save();
    assert.deepEqual([...retiredNames(await open(store))], [], 'the restore survives too');

    // A ledger.db of an earlier version (1: no retirement; 2: no record of tools round 1 missed; 3: no door rows; 4: no door offers) is upgraded, not rebuilt.
    const current = store.entries.get(LEDGER_DB_KEY)!;
    const noDoors = 'DROP TABLE door_days; DROP TABLE door_journals;';
    for (const [version, lacks] of [
      ['ledger/1', `DROP TABLE retired_skills; ALTER TABLE recent_turns DROP COLUMN missed; ${noDoors}`],
      ['ledger/2', `ALTER TABLE recent_turns DROP COLUMN missed; ${noDoors}`],
      ['ledger/3', noDoors],
      ['ledger/4', 'ALTER TABLE door_days DROP COLUMN with_offers; ALTER TABLE door_days DROP COLUMN offers;'],
    ]) {
      const old = new engine.sql.Database(current);
      old.exec(`${lacks} UPDATE toolshed_meta SET value = '${version}' WHERE key = 'schema_version';`);
      old.run('INSERT INTO turn_days (day, turns) VALUES (?, 3)', ['2026-11-27']);
      await store.write(LEDGER_DB_KEY, old.export());
      old.close();
      const upgraded = await open(store);
      assert.equal(upgraded.openStatus.status, 'migrated', version);
      assert.equal(upgraded.report(1).totals.turns, 3, `${version}: its rows are kept`);
      assert.equal(upgraded.retireSkill(ROLLBACK), true);
      upgraded.importDoorEntries(
        'journal',
        [{ at: Date.now(), door: 'hook', runtime: 'claude', action: 'inject', skills: [], offered: ['x'], searches: 1, tokens: 0 }],
        10,
      );
      assert.equal(upgraded.report(1).doors.length, 1, `${version}: door decisions are counted after the upgrade`);
      assert.equal(upgraded.report(1).doors[0]?.offers, 1, `${version}: and their offers`);
      upgraded.close();
    }
  });

  it('a name that reads like a secret is not retired (it could never match once redacted)', async () => {
    const ledger = await open(new MemoryByteStore());
    assert.equal(ledger.retireSkill(`deploy-${'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`), false);
    assert.deepEqual(ledger.report(1).retiredSkills, []);
  });

  it('Retire on a Ledger row whose name was redacted is refused with the reason the Skill Directory gives; nothing is retired', async () => {
    const secretName = `deploy-${'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`;
    const ledger = await open(new MemoryByteStore());
    ledger.record({
      at: NOW,
      rounds: 1,
      modelRequests: 1,
      toolsSent: 0,
      toolDefinitionTokens: 0,
      tools: [],
      skills: [{ name: secretName, injected: true, followed: false, selectionTokens: 0 }],
    });
    const row = ledger.report(1).skills[0]!;
    assert.match(row.skill, /\[REDACTED/, 'the Ledger row shows the name redacted');
    const fromDirectory = retireRefusal(secretName);
    assert.match(fromDirectory ?? '', /reads like a secret/);
    assert.equal(retireRefusal(row.skill), fromDirectory, 'the row gets the same reason');
    assert.ok(!(fromDirectory ?? '').includes('ghp_'), 'the reason never shows the secret');
    assert.equal(ledger.retireSkill(row.skill), false, 'the redacted row is not retired');
    assert.deepEqual(ledger.report(1).retiredSkills, [], 'no retired entry that could never match');
    assert.equal(retireRefusal(DEPLOY), undefined);
  });
});
