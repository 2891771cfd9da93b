import * as assert from 'node:assert/strict';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { toRecord } from '../../../src/core/skills/store/skillRecords';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { GLOBAL_SCOPE } from '../../../src/core/skills/store/skillScope';
import { SkillStore } from '../../../src/core/skills/store/skillStore';
import type { StoreFilter } from '../../../src/core/skills/store/skillStore';
import { uniqueTerms } from '../../../src/core/search/textAnalysis';
import { engine, TestClock } from './helpers';
import { parsedSkillOf } from '../../../src/core/skills/packs/document/parsedSkill';

/**
 * The store's search path: an in-memory mirror (entries, the term index's BM25F statistics and
 * postings) that must always agree with the database — after writes, rollbacks and reopening.
 */

type Scope = { mode: 'global' | 'tenant' | 'project'; tenant?: string; project?: string };

function record(
  name: string,
  trigger: string,
  extra: {
    tags?: string[];
    steps?: string[];
    scope?: Scope;
    workspace?: boolean;
    requires?: string[];
    task_type?: SkillRecord['task_type'];
    invocable?: boolean;
  } = {},
): SkillRecord {
  const scope = extra.scope ?? { mode: 'global' };
  return toRecord(
    parsedSkillOf({
      name,
      trigger,
      task_type: extra.task_type ?? 'code',
      tags: extra.tags ?? [],
      steps: extra.steps ?? ['Do it.'],
      requires: extra.requires ?? [],
      model_invocable: extra.invocable ?? true,
      format: 'yaml',
    }),
    {
      origin: 'pack',
      originRef: 't',
      scopeMode: scope.mode,
      tenantId: scope.tenant,
      projectId: scope.project,
      packName: 't',
      workspace: extra.workspace ?? false,
      sourceFile: `/p/${name}.skill.yaml`,
      now: 1,
      env: {},
    },
  );
}

async function openStore(bytes = new MemoryByteStore()): Promise<SkillStore> {
  return SkillStore.open({ engine: await engine(), store: bytes, logger: nullLogger, clock: new TestClock() });
}

const everyone: StoreFilter = { includeWorkspacePacks: true };

/** A deterministic corpus large enough to take the AND / relaxation path of stage 1. */
function bigCorpus(count: number): SkillRecord[] {
  const areas = ['git', 'review', 'testing', 'api', 'browser', 'database', 'deploy', 'docs', 'security', 'cloud'];
  const verbs = ['create', 'update', 'delete', 'list', 'sync', 'migrate', 'validate', 'export', 'import', 'debug'];
  const objects = ['issue', 'branch', 'record', 'table', 'bucket', 'invoice', 'token', 'user', 'report', 'index', 'cluster', 'webhook'];
  return Array.from({ length: count }, (_, i) => {
    const area = areas[i % areas.length]!;
    const verb = verbs[Math.floor(i / areas.length) % verbs.length]!;
    const object = objects[(i * 7) % objects.length]!;
    return record(`pack.t.${area}.${verb}_${object}_${i}`, `${verb} a ${object} in ${area}`, {
      tags: [area, object],
      steps: [`Find the ${object}.`, `${verb} it.`],
    });
  });
}

describe('skills: store search (in-memory mirror and term index)', () => {
  it('above the OR budget still fills the limit, ranks deterministically, and every hit holds the rarest term', async () => {
    const store = await openStore();
    store.transaction(() => {
      for (const r of bigCorpus(3000)) store.upsert(r);
    });
    const query = 'how do I create the issue in git';
    const first = store.searchRanked(query, everyone, 8);
    assert.equal(first.length, 8);
    assert.deepEqual(store.searchRanked(query, everyone, 8), first);
    for (let i = 1; i < first.length; i++) {
      const [a, b] = [first[i - 1]!, first[i]!];
      assert.ok(
        a.relevance > b.relevance || (a.relevance === b.relevance && (a.name.length < b.name.length || (a.name.length === b.name.length && a.name < b.name))),
      );
    }
    // Skills matching every query word exist, so they lead.
    assert.ok(first[0]!.name.includes('.git.create_issue_'), first[0]!.name);
    const terms = uniqueTerms(query);
    for (const hit of first) assert.ok(terms.some((t) => uniqueTerms(`${hit.name} ${hit.trigger}`).includes(t)));
    // A filter that rejects most candidates still yields matches from the rest.
    const browser = store.searchRanked(query, { ...everyone, taskType: 'browser' }, 8);
    assert.deepEqual(browser, []);
  });

  it('mirror filter equals the SQL filter (scope, trust, status, task type, invocable)', async () => {
    const store = await openStore();
    const scopes: Scope[] = [
      { mode: 'global' },
      { mode: 'tenant', tenant: 'A' },
      { mode: 'tenant', tenant: 'B' },
      { mode: 'project', tenant: 'A', project: 'p1' },
      { mode: 'project', project: 'p2' },
    ];
    store.transaction(() => {
      let i = 0;
      for (const scope of scopes) {
        for (const workspace of [false, true]) {
          for (const requires of [[], ['MISSING_ENV_VAR']]) {
            store.upsert(
              record(`pack.t.s${i}`, 'deploy the service', { scope, workspace, requires, task_type: i % 2 ? 'api' : 'code', invocable: i % 3 !== 0 }),
            );
            i++;
          }
        }
      }
    });
    const filters: StoreFilter[] = [];
    for (const tenantId of [undefined, 'A', 'B']) {
      for (const projectId of [undefined, 'p1', 'p2']) {
        for (const includeWorkspacePacks of [true, false]) {
          filters.push({ tenantId, projectId, includeWorkspacePacks });
          filters.push({ tenantId, projectId, includeWorkspacePacks, activeOnly: false, taskType: 'api' });
          filters.push({ tenantId, projectId, includeWorkspacePacks, modelInvocableOnly: true, scopeMode: 'project' });
        }
      }
    }
    for (const filter of filters) {
      const sql = store.all(filter).map((r) => r.name);
      assert.deepEqual(store.names(filter), sql, JSON.stringify(filter));
      assert.deepEqual(
        store
          .scan(filter)
          .map((r) => r.name)
          .sort(),
        sql,
      );
      assert.deepEqual(
        store
          .byNames([...store.all().map((r) => r.name), 'pack.t.unknown'], filter)
          .map((r) => r.name)
          .sort(),
        sql,
      );
      assert.deepEqual(
        store
          .searchRanked('deploy service', filter, 50)
          .map((h) => h.name)
          .sort(),
        sql,
      );
    }
  });

  it('stays in line with the database after updates, deletes, status changes and a rolled-back transaction', async () => {
    const store = await openStore();
    store.upsert(record('pack.t.alpha', 'rotate the signing certificate'));
    store.upsert(record('pack.t.beta', 'archive old invoices'));
    store.upsert(record('pack.t.alpha', 'compress build artifacts'));
    assert.deepEqual(store.searchRanked('certificate', everyone, 8), []);
    assert.deepEqual(
      store.searchRanked('artifacts', everyone, 8).map((h) => h.name),
      ['pack.t.alpha'],
    );
    store.setStatus(globalNamed('pack.t.beta'), 'inactive', 'missing environment variable: X');
    assert.deepEqual(store.searchRanked('invoices', everyone, 8), []);
    assert.deepEqual(
      store.searchRanked('invoices', { ...everyone, activeOnly: false }, 8).map((h) => h.name),
      ['pack.t.beta'],
    );
    assert.throws(
      () =>
        store.transaction(() => {
          store.upsert(record('pack.t.gamma', 'archive old invoices'));
          store.delete(globalNamed('pack.t.alpha'));
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.equal(store.count(), 2);
    assert.equal(store.packSkillCount('t'), 2);
    assert.deepEqual(
      store
        .packSkills('t')
        .map((s) => s.name)
        .sort(),
      ['pack.t.alpha', 'pack.t.beta'],
    );
    assert.equal(store.has('pack.t.gamma'), false);
    assert.deepEqual(
      store.searchRanked('artifacts', everyone, 8).map((h) => h.name),
      ['pack.t.alpha'],
    );
    assert.ok(store.delete(globalNamed('pack.t.alpha')));
    assert.equal(store.delete(globalNamed('pack.t.alpha')), false);
    assert.deepEqual(store.searchRanked('artifacts', everyone, 8), []);
    assert.equal(store.packSkillCount('t'), 1);
    assert.equal(store.packSkillCount('other'), 0);
  });

  it('a reopened store searches exactly as before (mirror rebuilt from the saved database)', async () => {
    const bytes = new MemoryByteStore();
    const store = await openStore(bytes);
    store.transaction(() => {
      for (const r of bigCorpus(400)) store.upsert(r);
    });
    const queries = ['create issue git', 'how do I export the invoice', 'token', 'debug a webhook in the cloud'];
    const before = queries.map((q) => store.searchRanked(q, everyone, 10));
    await store.save();
    store.close();
    const reopened = await openStore(bytes);
    assert.equal(reopened.openInfo.status, 'loaded');
    assert.equal(reopened.count(), 400);
    assert.deepEqual(
      queries.map((q) => reopened.searchRanked(q, everyone, 10)),
      before,
    );
  });
});

function globalNamed(name: string) {
  return { ...GLOBAL_SCOPE, name };
}

describe('skills: the postings are built once and kept in step with changes', () => {
  it('a search after a skill is added, replaced or removed sees it without rebuilding the postings; repeated searches never rebuild', async () => {
    const bytes = new MemoryByteStore();
    const store = await openStore(bytes);
    store.transaction(() => {
      for (const r of bigCorpus(400)) store.upsert(r);
    });
    const search = (query: string) => store.searchRanked(query, everyone, 12);
    search('create the issue in git');
    assert.equal(store.postingsBuilds, 0, 'the first search answers without building the postings');
    search('validate the token');
    assert.equal(store.postingsBuilds, 1, 'the next search builds them');
    for (const query of ['sync a bucket in cloud', 'validate the token', 'debug a webhook', 'create the issue in git']) search(query);
    assert.equal(store.postingsBuilds, 1, 'repeated searches do not rebuild');

    // A skill saved between searches (a file watcher's reload): each search sees the change at once.
    for (let i = 0; i < 10; i++) {
      store.upsert(record(`pack.t.new.quokka_${i}`, `feed the quokka number ${i}`, { tags: ['quokka'] }));
      assert.ok(
        search('feed the quokka').some((h) => h.name === `pack.t.new.quokka_${i}`),
        `skill ${i} is found by the next search`,
      );
    }
    const replaced = bigCorpus(400)[7]!;
    store.upsert({ ...replaced, trigger: 'groom the wombat', tags: ['wombat'] });
    assert.equal(search('groom the wombat')[0]!.name, replaced.name, 'a replaced skill is found by its new words');
    store.delete({ ...GLOBAL_SCOPE, name: 'pack.t.new.quokka_0' });
    assert.ok(!search('feed the quokka').some((h) => h.name === 'pack.t.new.quokka_0'), 'a removed skill is gone at once');
    assert.equal(store.postingsBuilds, 1, 'changes between searches are scored one by one, not rebuilt per search');

    // Exact all along: the same ranking as a store opened afresh on the same rows.
    await store.save();
    const reopened = await openStore(bytes);
    for (const query of ['feed the quokka', 'groom the wombat', 'create the issue in git', 'validate the token']) {
      assert.deepEqual(search(query), reopened.searchRanked(query, everyone, 12), query);
    }
    // Searches that score much of the store one by one pay for one build, then use it.
    for (let i = 0; i < 30; i++) search('create the issue in git');
    const settled = store.postingsBuilds;
    assert.ok(settled <= 2, `${settled} builds`);
    for (let i = 0; i < 30; i++) search('sync a bucket in cloud');
    assert.equal(store.postingsBuilds, settled);
  });
});
