import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { LedgerStore } from '../../../src/core/ledger/ledgerStore';
import { nullLogger, systemClock } from '../../../src/core/platform/basicPorts';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import { openDoorSession } from '../../../src/core/runtimes/doorSession';
import type { DoorSession } from '../../../src/core/runtimes/doorSession';
import { PUBLISHED_SKILLS_FILE, publishedSkillsOf, readPublishedSkills, writePublishedSkills } from '../../../src/core/runtimes/doors/publishedSkills';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import type { SkillService } from '../../../src/core/skills/skillService';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import type { SqlEngine } from '../../../src/core/sql/sqlEngine';
import { contextOf, doorFolder, eventFor, makeWorld, PDF_SKILL, runHook, writeSkill } from './hookFixtures';
import type { HookWorld } from './hookFixtures';

/**
 * The doors (hook, MCP server) see the learned skills the extension approved and honour the
 * skills retired in its Ledger view, for the same workspace: the extension's own stores (sql.js
 * skill store, ledger.db) are written as the extension writes them, published into the door folder
 * by the function the extension calls on every change, and read by a door session.
 */

const LEARNED = {
  name: 'release-train-cut',
  trigger: 'cut the weekly release train branch, bump the version and tag the release candidate',
  steps: ['Branch release/<week> from main.', 'Bump the version with `npm version prerelease`.', 'Push the tag MARKER-RELEASE-TRAIN.'],
};
const LEARNED_PROMPT = 'cut this week’s release train branch and tag the release candidate';

/** The extension's side for one window: its skill store and its ledger, in its own storage folder. */
interface ExtensionStores {
  skills: SkillService;
  ledger: LedgerStore;
}

async function extensionStores(engine: SqlEngine, world: HookWorld): Promise<ExtensionStores> {
  const store = new NodeByteStore(path.join(world.root, 'vscode-workspace-storage'));
  const skills = await createHeadlessSkillService({ engine, store });
  const ledger = await LedgerStore.open({ engine, store, logger: nullLogger, clock: systemClock });
  return { skills, ledger };
}

/** What the extension's publisher does after a change: the same two functions. */
function publish(world: HookWorld, ext: ExtensionStores, projectId = world.workspace): void {
  const retired = ext.ledger.report(1).retiredSkills.map((row) => row.skill);
  writePublishedSkills(doorFolder(world), publishedSkillsOf(ext.skills.learnedSkills(), retired, { projectId }));
}

async function found(door: DoorSession, query: string): Promise<string[]> {
  const answer = await door.skills.search({ query, limit: 5 }, door.requestContext());
  return answer.skills.map((skill) => skill.name);
}

describe('the doors see the extension’s learned and retired skills', function () {
  this.timeout(120_000);
  let engine: SqlEngine;
  const worlds: HookWorld[] = [];
  const closers: Array<() => Promise<void> | void> = [];
  before(async () => {
    engine = await loadSqlEngine();
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  after(() => worlds.forEach((w) => rmSync(w.root, { recursive: true, force: true })));

  async function setUp() {
    const world = makeWorld();
    worlds.push(world);
    writeSkill(path.join(world.home, '.claude', 'skills'), PDF_SKILL.name, PDF_SKILL.description, PDF_SKILL.body);
    const ext = await extensionStores(engine, world);
    closers.push(
      () => ext.skills.dispose(),
      () => ext.ledger.close(),
    );
    const open = async () => {
      const door = await openDoorSession({
        runtime: 'claude',
        workspaceFolder: world.workspace,
        home: world.home,
        env: {},
        toolshedHome: world.toolshedHome,
        engine,
      });
      closers.push(() => door.dispose());
      return door;
    };
    return { world, ext, open };
  }

  it('a skill approved in the extension is found by a new door; one retired there is not (search, pre-flight, read)', async () => {
    const { world, ext, open } = await setUp();
    const before = await open();
    assert.deepEqual(await found(before, LEARNED_PROMPT), [], 'nothing learned yet');
    assert.ok((await found(before, PDF_SKILL.prompt)).includes(PDF_SKILL.name));

    await ext.skills.addLearnedSkill({ ...LEARNED, scope_mode: 'project' }, { projectId: world.workspace });
    assert.equal(ext.ledger.retireSkill(PDF_SKILL.name), true);
    publish(world, ext);

    const door = await open();
    assert.deepEqual((await found(door, LEARNED_PROMPT))[0], LEARNED.name);
    assert.match((await door.preflight(LEARNED_PROMPT)).context, /MARKER-RELEASE-TRAIN/, 'its steps reach the hook’s answer');
    assert.ok(!(await found(door, PDF_SKILL.prompt)).includes(PDF_SKILL.name), 'the retired skill is not found');
    assert.doesNotMatch((await door.preflight(PDF_SKILL.prompt)).context, /pdftk/, 'nor injected');
    const read = await door.skills.get({ names: [PDF_SKILL.name] }, door.requestContext());
    assert.equal(read.skills.length, 0);
    assert.match(read.message ?? '', /retired/);
  });

  it('a long-lived door (MCP server, resident hook) follows later approvals, removals and restores', async () => {
    const { world, ext, open } = await setUp();
    const door = await open();
    await ext.skills.addLearnedSkill({ ...LEARNED, scope_mode: 'project' }, { projectId: world.workspace });
    ext.ledger.retireSkill(PDF_SKILL.name);
    publish(world, ext);
    // Retirements apply to the next request at once; learned skills after the sync each answer makes.
    assert.ok(!(await found(door, PDF_SKILL.prompt)).includes(PDF_SKILL.name));
    await door.syncExtensionSkills();
    assert.equal((await found(door, LEARNED_PROMPT))[0], LEARNED.name);

    await ext.skills.removeLearnedSkill(LEARNED.name);
    ext.ledger.restoreSkill(PDF_SKILL.name);
    publish(world, ext);
    await door.refresh();
    assert.ok(!(await found(door, LEARNED_PROMPT)).includes(LEARNED.name), 'a learned skill removed in the extension goes');
    assert.ok((await found(door, PDF_SKILL.prompt)).includes(PDF_SKILL.name), 'a restored skill comes back');
  });

  it('a project skill of a window with several folders (its .code-workspace file) is the folder’s own in its door', async () => {
    const { world, ext, open } = await setUp();
    const workspaceFile = path.join(world.root, 'team.code-workspace');
    await ext.skills.addLearnedSkill({ ...LEARNED, scope_mode: 'project' }, { projectId: workspaceFile });
    publish(world, ext, workspaceFile);
    assert.equal((await found(await open(), LEARNED_PROMPT))[0], LEARNED.name);
  });

  it('a damaged or hostile file never breaks a door: a new door opens and answers, a running one keeps what it read', async () => {
    const { world, ext, open } = await setUp();
    await ext.skills.addLearnedSkill({ ...LEARNED, scope_mode: 'project' }, { projectId: world.workspace });
    ext.ledger.retireSkill(PDF_SKILL.name);
    publish(world, ext);
    const door = await open();
    const file = path.join(doorFolder(world), PUBLISHED_SKILLS_FILE);
    const hostile = fc.oneof(
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .record({ version: fc.constant(1), learned: fc.array(fc.jsonValue(), { maxLength: 3 }), retired: fc.jsonValue() })
        .map((value) => JSON.stringify(value)),
    );
    await fc.assert(
      fc.asyncProperty(hostile, async (text) => {
        writeFileSync(file, text);
        // A well-formed file (say, nothing learned and nothing retired) is a real publication, not damage.
        fc.pre(readPublishedSkills(doorFolder(world)).status !== 'read');
        await door.syncExtensionSkills();
        assert.equal((await found(door, LEARNED_PROMPT))[0], LEARNED.name);
        assert.ok(!(await found(door, PDF_SKILL.prompt)).includes(PDF_SKILL.name));
      }),
      { numRuns: 40 },
    );
    writeFileSync(file, '{"version": 1, "learned": [');
    const fresh = await open();
    assert.equal((await found(fresh, LEARNED_PROMPT))[0], LEARNED.name, 'the door store keeps the last learned skills it read');
  });

  it('the hook (the built CLI, a new process per prompt) injects the approved skill and not the retired one', async () => {
    const { world, ext } = await setUp();
    await ext.skills.addLearnedSkill({ ...LEARNED, scope_mode: 'project' }, { projectId: world.workspace });
    ext.ledger.retireSkill(PDF_SKILL.name);
    publish(world, ext);
    // A cold start indexes everything: no time budget, so a loaded machine cannot turn the answer into none.
    const budget = { args: ['--budget-ms', '600000'] };
    const learned = await runHook(world, 'claude', eventFor('claude', world, LEARNED_PROMPT), budget);
    assert.equal(learned.code, 0, learned.stderr);
    assert.match(contextOf('claude', learned.stdout), /MARKER-RELEASE-TRAIN/);
    const retired = await runHook(world, 'claude', eventFor('claude', world, PDF_SKILL.prompt), budget);
    assert.equal(retired.code, 0, retired.stderr);
    assert.equal(retired.stderr, '', 'the hook decided (a failure or timeout would say so on stderr)');
    assert.doesNotMatch(contextOf('claude', retired.stdout), /pdftk/);
  });
});
