import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { clusterKey, groupByCluster, MAX_CLUSTER_EXPANSION, pickClusterSiblings } from '../../../src/core/skills/skillClusters';
import { ctx, makeService, pack, tempDir, writeTree } from './helpers';

function clusterSkill(name: string, cluster: string | undefined, trigger: string, steps: string[]): string {
  return [
    `name: ${name}`,
    `trigger: ${JSON.stringify(trigger)}`,
    ...(cluster ? [`cluster: ${JSON.stringify(cluster)}`] : []),
    'steps:',
    ...steps.map((s) => `  - ${JSON.stringify(s)}`),
    '',
  ].join('\n');
}

/** A pack with a "Browser Auth" cluster (login, mfa, logout, cookies), an unclustered skill and a second cluster. */
function clusterPack(root: string): void {
  writeTree(root, {
    'login.skill.yaml': clusterSkill('web.login', 'Browser Auth', 'Sign in to the staging dashboard with the browser', [
      'Open the login page.',
      'Enter the test account.',
    ]),
    'mfa.skill.yaml': clusterSkill('web.mfa', ' browser   auth ', 'Answer a one-time code prompt', ['Read the code from the authenticator.']),
    'logout.skill.yaml': clusterSkill('web.logout', 'Browser Auth', 'End a session cleanly', ['Click the avatar.', 'Choose sign out.']),
    'cookies.skill.yaml': clusterSkill('web.cookies', 'Browser Auth', 'Clear stale cookies when a page loops', ['Open the site settings.', 'Clear cookies.']),
    'report.skill.yaml': clusterSkill('web.report', undefined, 'Export the dashboard report as CSV', ['Open reports.', 'Export.']),
    'deploy.skill.yaml': clusterSkill('ops.deploy', 'Deploys', 'Deploy the staging build', ['Run the pipeline.']),
  });
}

describe('skill clusters (pure)', () => {
  it('labels compare trimmed, whitespace-collapsed and case-folded; non-strings have no cluster', () => {
    assert.equal(clusterKey(' Browser   Auth '), clusterKey('browser auth'));
    for (const value of [undefined, null, 3, '', '   ', ['a'], { a: 1 }]) assert.equal(clusterKey(value), undefined);
  });

  it('siblings: matched-by-query first, then by name; never a ranked, excluded or foreign skill; bounded', () => {
    const members = [
      { name: 'd', cluster: 'A' },
      { name: 'c', cluster: 'a' },
      { name: 'b', cluster: 'A' },
      { name: 'x', cluster: 'B' },
      { name: 'top', cluster: 'A' },
    ];
    const ranked = [
      { name: 'none', cluster: undefined },
      { name: 'top', cluster: 'A' },
    ];
    assert.deepEqual(pickClusterSiblings(ranked, members, { max: 2 }), { cluster: 'A', added: ['b', 'c'] });
    assert.deepEqual(pickClusterSiblings(ranked, members, { max: 2, searchOrder: ['x', 'd'] })?.added, ['d', 'b']);
    assert.deepEqual(pickClusterSiblings(ranked, members, { max: 5, exclude: ['b'] })?.added, ['c', 'd']);
    assert.equal(pickClusterSiblings(ranked, members, { max: 0 }), undefined);
    assert.equal(pickClusterSiblings([{ name: 'n', cluster: '' }], members, { max: 3 }), undefined);
  });

  it('property: bounded, deterministic (member order does not matter), inside the top cluster only', () => {
    const member = fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'),
      cluster: fc.oneof(fc.constantFrom('X', 'x ', 'Y', '', undefined), fc.integer()),
    });
    fc.assert(
      fc.property(
        fc.array(member, { maxLength: 30 }),
        fc.array(member, { maxLength: 4 }),
        fc.integer({ min: -3, max: 50 }),
        fc.array(fc.constantFrom<string>('a', 'e', 'k'), { maxLength: 3 }),
        (members, ranked, max, exclude) => {
          const result = pickClusterSiblings(ranked, members, { max, exclude, searchOrder: ['k', 'a'] });
          const again = pickClusterSiblings(ranked, [...members].reverse(), { max, exclude, searchOrder: ['k', 'a'] });
          assert.deepEqual(again, result);
          if (!result) return;
          assert.ok(result.added.length >= 1 && result.added.length <= Math.min(max, MAX_CLUSTER_EXPANSION));
          assert.equal(new Set(result.added).size, result.added.length);
          const top = ranked.find((r) => clusterKey(r.cluster) !== undefined)!;
          for (const name of result.added) {
            assert.ok(!ranked.some((r) => r.name === name) && !exclude.includes(name));
            assert.ok(members.some((m) => m.name === name && clusterKey(m.cluster) === clusterKey(top.cluster)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('grouping: every item exactly once, groups by label, the unclustered group last', () => {
    const items = [
      { n: 1, c: 'Zeta' },
      { n: 2, c: undefined },
      { n: 3, c: 'alpha' },
      { n: 4, c: ' ZETA' },
      { n: 5, c: 7 },
    ];
    const groups = groupByCluster(items, (i) => i.c);
    assert.deepEqual(
      groups.map((g) => [g.cluster, g.items.map((i) => i.n)]),
      [
        ['alpha', [3]],
        ['Zeta', [1, 4]],
        [undefined, [2, 5]],
      ],
    );
    fc.assert(
      fc.property(fc.array(fc.record({ n: fc.nat(), c: fc.oneof(fc.string({ maxLength: 6 }), fc.constant(undefined)) }), { maxLength: 40 }), (list) => {
        const out = groupByCluster(list, (i) => i.c).flatMap((g) => g.items);
        assert.equal(out.length, list.length);
        assert.deepEqual(new Set(out), new Set(list));
      }),
    );
  });
});

describe('skill clusters in pre-flight (toolshed.skills.clusterExpansion)', () => {
  it('adds a sibling of the top match within the budget, once, with an event', async () => {
    const root = tempDir();
    clusterPack(root);
    const h = await makeService({ config: { clusterExpansion: 1 } });
    await h.service.loadPacks([pack('web', root)]);
    const result = await h.service.getRelevant({ task: 'sign in to the staging dashboard', top_k: 1, max_tokens: 4000 }, ctx);
    assert.equal(result.skills[0], 'web.login');
    assert.deepEqual(result.cluster_siblings, ['web.cookies']);
    assert.deepEqual(result.skills, ['web.login', 'web.cookies']);
    assert.match(result.text, /Clear cookies\./);
    assert.deepEqual(
      h.events.ofType('skills_cluster_expanded').map((e) => e.payload),
      [{ cluster_id: 'Browser Auth', added_count: 1 }],
    );
  });

  it('up to N siblings, deterministic across runs; 0 turns it off', async () => {
    const root = tempDir();
    clusterPack(root);
    const three = await makeService({ config: { clusterExpansion: 3 } });
    await three.service.loadPacks([pack('web', root)]);
    const first = await three.service.getRelevant({ task: 'sign in to the staging dashboard', top_k: 1, max_tokens: 4000 }, ctx);
    const second = await three.service.getRelevant({ task: 'sign in to the staging dashboard', top_k: 1, max_tokens: 4000 }, ctx);
    assert.deepEqual(first.cluster_siblings, ['web.cookies', 'web.logout', 'web.mfa']);
    assert.deepEqual(second.skills, first.skills);
    assert.equal(second.text, first.text);
    const off = await makeService({ config: { clusterExpansion: 0 } });
    await off.service.loadPacks([pack('web', root)]);
    const plain = await off.service.getRelevant({ task: 'sign in to the staging dashboard', top_k: 1, max_tokens: 4000 }, ctx);
    assert.deepEqual(plain.skills, ['web.login']);
    assert.deepEqual(plain.cluster_siblings, []);
    assert.equal(off.events.ofType('skills_cluster_expanded').length, 0);
  });

  it('never at the cost of the matches: with room for the match only, the block is what it was without expansion', async () => {
    const root = tempDir();
    clusterPack(root);
    const on = await makeService({ config: { clusterExpansion: 2 } });
    const off = await makeService({ config: { clusterExpansion: 0 } });
    await on.service.loadPacks([pack('web', root)]);
    await off.service.loadPacks([pack('web', root)]);
    const alone = await off.service.getRelevant({ task: 'sign in to the staging dashboard', top_k: 1, max_tokens: 4000 }, ctx);
    const budget = alone.final_tokens_est + 5;
    const tight = await on.service.getRelevant({ task: 'sign in to the staging dashboard', top_k: 1, max_tokens: budget }, ctx);
    assert.equal(tight.text, alone.text);
    assert.deepEqual(tight.cluster_siblings, []);
    assert.ok(tight.final_tokens_est <= budget);
  });

  it('pinned (excluded) siblings are not added again, and an untrusted workspace pack never contributes one', async () => {
    const root = tempDir();
    clusterPack(root);
    const h = await makeService({ config: { clusterExpansion: 1 } });
    await h.service.loadPacks([pack('web', root)]);
    const excluded = await h.service.getRelevant({ task: 'sign in to the staging dashboard', top_k: 1, max_tokens: 4000, exclude: ['web.cookies'] }, ctx);
    assert.deepEqual(excluded.cluster_siblings, ['web.logout']);

    const trusted = tempDir();
    const workspace = tempDir();
    writeTree(trusted, {
      'login.skill.yaml': clusterSkill('web.login', 'Browser Auth', 'Sign in to the staging dashboard with the browser', ['Open the login page.']),
    });
    writeTree(workspace, { 'evil.skill.yaml': clusterSkill('ws.sibling', 'Browser Auth', 'Workspace sibling', ['Do workspace things.']) });
    const w = await makeService({ config: { clusterExpansion: 3 } });
    await w.service.loadPacks([pack('base', trusted), pack('ws', workspace, { workspace: true })]);
    const untrusted = await w.service.getRelevant({ task: 'sign in to the staging dashboard', top_k: 1, max_tokens: 4000 }, { includeWorkspacePacks: false });
    assert.deepEqual(untrusted.skills, ['web.login']);
    const trustedResult = await w.service.getRelevant(
      { task: 'sign in to the staging dashboard', top_k: 1, max_tokens: 4000 },
      { includeWorkspacePacks: true },
    );
    assert.deepEqual(trustedResult.cluster_siblings, ['ws.sibling']);
  });
});
