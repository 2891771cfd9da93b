import * as assert from 'node:assert/strict';
import type { ChatModelPort } from '../../../src/core/platform/chatTypes';
import { plannerSkillsFrom } from '../../../src/core/planner/plannerSkills';
import type { SkillsConfig } from '../../../src/core/config/settingsSchema';
import { ctx, makeService, pack, tempDir, writeTree } from '../skills/helpers';

/** A model that always picks `choice` in the selection call. */
function choosing(choice: string[]): ChatModelPort {
  return {
    async *send() {
      yield { kind: 'text', text: JSON.stringify({ skills: choice }) };
    },
    countTokens: async (text) => Math.ceil(text.length / 4),
  };
}

/** Release skills share the cluster "Release" (`long`: deploy-rollback's body is ~3,000 characters); `deploy-docs` has none. */
async function releaseSkills(config: Partial<SkillsConfig> = {}, long = false) {
  const root = tempDir();
  const skill = (name: string, cluster: string | undefined, body = `BODY-OF-${name}: run the ${name} pipeline.`) =>
    `---\nname: ${name}\ndescription: Deploy ${name.split('-')[1]} builds to the staging cluster.\n${cluster ? `cluster: ${cluster}\n` : ''}---\n\n# ${name}\n\n${body}\n`;
  writeTree(root, {
    'deploy-canary/SKILL.md': skill('deploy-canary', 'Release'),
    'deploy-rollback/SKILL.md': skill('deploy-rollback', 'release', long ? `BODY-OF-deploy-rollback: ${'check each step. '.repeat(180)}` : undefined),
    ...(long ? {} : { 'deploy-preview/SKILL.md': skill('deploy-preview', 'Release') }),
    'deploy-docs/SKILL.md': skill('deploy-docs', undefined),
  });
  const harness = await makeService({ config });
  await harness.service.loadPacks([pack('ws', root)]);
  return harness;
}

const options = (model: ChatModelPort, mode: 'hybrid' | 'model', extra: { maxTokens?: number; pinnedNames?: string[]; maxActive?: number } = {}) => ({
  maxTokens: extra.maxTokens ?? 2000,
  topK: 3,
  pinnedNames: extra.pinnedNames ?? [],
  countTokens: async (t: string) => Math.ceil(t.length / 4),
  selection: { mode, maxActive: extra.maxActive ?? 1, timeoutMs: 1000, model, signal: { isCancelled: false } },
});

describe('cluster expansion in model / hybrid skill selection (toolshed.skills.clusterExpansion)', () => {
  for (const mode of ['hybrid', 'model'] as const) {
    it(`${mode}: the model's choice brings one sibling of its cluster, marked "same cluster", with the event`, async () => {
      const { service, events } = await releaseSkills();
      const port = plannerSkillsFrom(service, ctx, options(choosing(['deploy-canary']), mode));
      const result = await port.preflight('deploy builds to the staging cluster');
      const used = result.used.map((u) => [u.name, u.reason]);
      assert.equal(used.length, 2, JSON.stringify(used));
      assert.deepEqual(used[0], ['deploy-canary', 'chosen by the model']);
      assert.equal(used[1]![1], 'same cluster');
      assert.ok(['deploy-rollback', 'deploy-preview'].includes(used[1]![0]!));
      assert.match(result.relevantBlock, new RegExp(`BODY-OF-${used[1]![0]}`));
      assert.deepEqual(
        events.events.filter((e) => e.type === 'skills_cluster_expanded').map((e) => e.payload),
        [{ cluster_id: 'Release', added_count: 1 }],
      );
      // Deterministic: the same request picks the same sibling.
      const again = await plannerSkillsFrom(service, ctx, options(choosing(['deploy-canary']), mode)).preflight('deploy builds to the staging cluster');
      assert.deepEqual(again.used, result.used);
    });
  }

  it('bounded by the setting: up to 2 siblings at 2, none at 0', async () => {
    const two = await releaseSkills({ clusterExpansion: 2 });
    const wide = await plannerSkillsFrom(two.service, ctx, options(choosing(['deploy-canary']), 'hybrid')).preflight('deploy builds to the staging cluster');
    assert.deepEqual(
      wide.used
        .filter((u) => u.reason === 'same cluster')
        .map((u) => u.name)
        .sort(),
      ['deploy-preview', 'deploy-rollback'],
    );
    const off = await releaseSkills({ clusterExpansion: 0 });
    const none = await plannerSkillsFrom(off.service, ctx, options(choosing(['deploy-canary']), 'hybrid')).preflight('deploy builds to the staging cluster');
    assert.deepEqual(
      none.used.map((u) => u.name),
      ['deploy-canary'],
    );
    assert.ok(!off.events.events.some((e) => e.type === 'skills_cluster_expanded'));
  });

  it('pinned skills are never added again; a chosen skill without a cluster brings nothing', async () => {
    const { service } = await releaseSkills({ clusterExpansion: 5 });
    const pinned = await plannerSkillsFrom(
      service,
      ctx,
      options(choosing(['deploy-canary']), 'hybrid', { pinnedNames: ['deploy-rollback'], maxActive: 2 }),
    ).preflight('deploy builds to the staging cluster');
    assert.deepEqual(
      pinned.used.filter((u) => u.reason === 'same cluster').map((u) => u.name),
      ['deploy-preview'],
    );
    const plain = await plannerSkillsFrom(service, ctx, options(choosing(['deploy-docs']), 'hybrid')).preflight('deploy builds to the staging cluster');
    assert.deepEqual(
      plain.used.map((u) => u.name),
      ['deploy-docs'],
    );
  });

  it('within the same budget: a sibling that does not fit whole is left out and the chosen skill is not shortened', async () => {
    const { service } = await releaseSkills({}, true);
    const roomy = await plannerSkillsFrom(service, ctx, options(choosing(['deploy-canary']), 'hybrid', { maxTokens: 3000 })).preflight(
      'deploy builds to the staging cluster',
    );
    assert.deepEqual(
      roomy.used.map((u) => u.name),
      ['deploy-canary', 'deploy-rollback'],
      'with room, the long sibling is added',
    );
    const tight = await plannerSkillsFrom(service, ctx, options(choosing(['deploy-canary']), 'hybrid', { maxTokens: 400 })).preflight(
      'deploy builds to the staging cluster',
    );
    assert.deepEqual(
      tight.used.map((u) => u.name),
      ['deploy-canary'],
    );
    assert.match(tight.relevantBlock, /BODY-OF-deploy-canary: run the deploy-canary pipeline\./, 'chosen skill in full');
    assert.ok(!tight.relevantBlock.includes('BODY-OF-deploy-rollback'));
    assert.ok(Math.ceil(tight.relevantBlock.length / 4) <= 400);
  });
});
