import * as assert from 'node:assert/strict';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { HostSlices, SLICE_MS } from '../../../src/core/platform/hostSlices';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { requestTerms } from '../../../src/core/search/requestTerms';
import { TermVocabulary } from '../../../src/core/search/termStore';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { fillMirror, fillMirrorInSlices } from '../../../src/core/skills/store/skillRows';
import { SkillSearchIndex } from '../../../src/core/skills/store/skillSearchIndex';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import { SqlDatabase } from '../../../src/core/sql/sqlDatabase';
import { engine, skillRecord, TestClock } from './helpers';

/**
 * A warm start opens the skill store on the extension host's thread, which the workbench's calls
 * (another extension's tool, the crossings of Toolshed's own first tool call) need too: the open
 * reads the store's rows into the search mirror in slices, giving the event loop a turn between
 * them, and what it builds answers exactly as a mirror filled in one stretch.
 */

const AREAS = ['git', 'review', 'testing', 'api', 'browser', 'database', 'deploy', 'docs', 'security', 'cloud'];
const VERBS = ['create', 'update', 'delete', 'list', 'sync', 'migrate', 'validate', 'export'];
const OBJECTS = ['issue', 'branch', 'record', 'table', 'bucket', 'invoice', 'token', 'report', 'webhook'];

function corpus(count: number): SkillRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const area = AREAS[i % AREAS.length]!;
    const verb = VERBS[Math.floor(i / AREAS.length) % VERBS.length]!;
    const object = OBJECTS[(i * 7) % OBJECTS.length]!;
    return skillRecord({
      id: `sk_${i}`,
      name: `${area}-${verb}-${object}-${i}`,
      trigger: `${verb} a ${object} in ${area}`,
      description: i % 3 === 0 ? `How to ${verb} the ${object} of a ${area} project safely` : `${verb} a ${object} in ${area}`,
      tags: [area, object],
      steps: [`Find the ${object}.`, `${verb} it with the ${area} tools.`],
    });
  });
}

const QUERIES = ['create an issue in git', 'review the security of a webhook', 'migrate a database table', 'export the invoice report to the cloud'];
const SKILLS = 400;

/** The saved bytes of a store holding `SKILLS` skills. */
async function savedStore(): Promise<MemoryByteStore> {
  const bytes = new MemoryByteStore();
  const store = await SkillStore.open({ engine: await engine(), store: bytes, logger: nullLogger, clock: new TestClock() });
  store.upsertMany(corpus(SKILLS));
  await store.save();
  store.close();
  return bytes;
}

/** Every query's top ten (name and relevance) over a mirror. */
function answers(index: SkillSearchIndex): Array<Array<[string, number]>> {
  return QUERIES.map((query) =>
    index
      .search(
        requestTerms(query).filter((t) => index.df(t.term) > 0),
        () => true,
        10,
      )
      .map(({ entry, relevance }) => [entry.name, relevance]),
  );
}

describe('skills: the warm open fills the search mirror in slices', () => {
  it('gives the event loop turns while it reads the rows, and the mirror answers as one filled in one stretch', async () => {
    const bytes = await savedStore();
    const stored = await bytes.read('skills.db');
    assert.ok(stored);
    const sql = (await engine()).sql;
    const db = new SqlDatabase(new sql.Database(stored));
    // A slice clock whose every look finds the slice over: each look gives the event loop its turn.
    let now = 0;
    const slices = new HostSlices(() => (now += SLICE_MS));
    let turns = 0;
    let filling = true;
    const count = () => {
      if (!filling) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const sliced = new SkillSearchIndex();
    const withoutTerms = await fillMirrorInSlices(sliced, db, new TermVocabulary(), slices);
    filling = false;
    // One look every 16 rows: the skills' rows and their term rows alone give 50 looks.
    assert.ok(turns >= (2 * SKILLS) / 16 - 1, `the event loop had ${turns} turns during the fill`);
    assert.deepEqual(withoutTerms, []);

    const whole = new SkillSearchIndex();
    assert.deepEqual(fillMirror(whole, db, new TermVocabulary()), []);
    db.close();
    assert.equal(sliced.size, SKILLS);
    assert.deepEqual(
      [...sliced.entries()].map((e) => [e.docId, e.name, e.trigger]),
      [...whole.entries()].map((e) => [e.docId, e.name, e.trigger]),
    );
    const expected = answers(whole);
    assert.ok(expected.every((top) => top.length > 0));
    assert.deepEqual(answers(sliced), expected);
  });

  it('a store opened warm answers the same skills as after its mirror is rebuilt in one stretch', async () => {
    const bytes = await savedStore();
    const store = await SkillStore.open({ engine: await engine(), store: bytes, logger: nullLogger, clock: new TestClock() });
    assert.equal(store.openInfo.status, 'loaded');
    const filter = { includeWorkspacePacks: true };
    const opened = QUERIES.map((query) => store.searchRanked(query, filter, 10));
    assert.ok(opened.every((hits) => hits.length > 0));
    // A rolled-back transaction rebuilds the mirror from the database in one stretch (fillMirror).
    assert.throws(() =>
      store.transaction(() => {
        throw new Error('rolled back');
      }),
    );
    assert.deepEqual(
      QUERIES.map((query) => store.searchRanked(query, filter, 10)),
      opened,
    );
    store.close();
  });

  it('reads every kind of a row as stored, a value this build does not know included', async () => {
    const bytes = new MemoryByteStore();
    const first = await SkillStore.open({ engine: await engine(), store: bytes, logger: nullLogger, clock: new TestClock() });
    const [a, b, c] = corpus(3);
    first.upsertMany([
      {
        ...a!,
        scope_mode: 'project',
        scope_project_id: 'p1',
        workspace: true,
        model_invocable: false,
        status: 'inactive',
        task_type: 'browser',
        origin: 'pack',
        pack_name: 'team',
      },
      { ...b!, scope_mode: 'tenant', scope_tenant_id: 't1', model_invocable: true },
      c!,
    ]);
    // A task type a later build may write: read as it is, not as one this build knows.
    first.db.run("UPDATE skills SET task_type = 'quantum' WHERE name = ?", [c!.name]);
    await first.save();
    first.close();
    // That write went beside the store's methods, so its mirror (and the snapshot saved of it) never saw it: the rows are read.
    await bytes.delete('skills.db.mirror');
    const store = await SkillStore.open({ engine: await engine(), store: bytes, logger: nullLogger, clock: new TestClock() });
    const kinds = (name: string) => {
      const e = [...store.everySkill()].find((entry) => entry.name === name)!;
      return [e.task_type, e.origin, e.scope_mode, e.scope_tenant_id, e.scope_project_id, e.status, e.workspace, e.model_invocable, e.pack_name];
    };
    assert.deepEqual(kinds(a!.name), ['browser', 'pack', 'project', '', 'p1', 'inactive', true, false, 'team']);
    assert.deepEqual(kinds(b!.name), [b!.task_type, 'learned', 'tenant', 't1', '', 'active', false, true, '']);
    assert.deepEqual(kinds(c!.name), ['quantum', 'learned', 'global', '', '', 'active', false, c!.model_invocable, '']);
    store.close();
  });
});
