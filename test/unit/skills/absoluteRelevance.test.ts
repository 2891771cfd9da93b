import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ctx, makeService, pack, stepSkill, tempDir, writeTree } from './helpers';
import type { SkillService } from '../../../src/core/skills/skillService';

const SKILLS = {
  'commit.skill.yaml': stepSkill('git.commit_message', 'Write or improve a git commit message for staged changes.'),
  'upgrade.skill.yaml': stepSkill('deps.upgrade', 'Upgrade, bump or update a project dependency.', ['Read the changelog.', 'Update the lockfile.']),
  'secrets.skill.yaml': stepSkill('security.secrets', 'Code needs an API key, token or password, or a secret was committed by mistake.'),
  'review.skill.yaml': stepSkill('review.pr', 'Review a pull request diff and give actionable feedback.'),
};

async function serviceWith(minRelevance?: number): Promise<SkillService> {
  const root = tempDir();
  writeTree(root, SKILLS);
  const { service } = await makeService({ config: minRelevance === undefined ? {} : { minRelevance } });
  await service.loadPacks([pack('p', root)]);
  return service;
}

describe('pre-flight absolute relevance gate (toolshed.skills.minRelevance)', () => {
  it('a request no skill applies to injects nothing, though skill_search still returns a hit for a shared word', async () => {
    const service = await serviceWith();
    const request = 'what is the weather in Paris tomorrow for the review';
    const search = await service.search({ query: request }, ctx);
    assert.equal(search.skills[0]?.name, 'review.pr', 'skill_search still answers (relative score contract)');
    assert.ok((search.skills[0]?.relevance ?? 1) < 0.25, `absolute relevance ${search.skills[0]?.relevance}`);
    const relevant = await service.getRelevant({ task: request }, ctx);
    assert.deepEqual(relevant.skills, []);
    assert.equal(relevant.text, '');
    await service.dispose();
  });

  it('a request a skill applies to injects it, with its absolute relevance', async () => {
    const service = await serviceWith();
    const relevant = await service.getRelevant({ task: 'write a commit message for my staged changes' }, ctx);
    assert.deepEqual(relevant.skills, ['git.commit_message']);
    assert.ok((relevant.relevance['git.commit_message'] ?? 0) >= 0.9);
    await service.dispose();
  });

  it('minRelevance 0 injects the best matches whatever they are (the old behaviour)', async () => {
    const service = await serviceWith(0);
    const relevant = await service.getRelevant({ task: 'what is the weather in Paris tomorrow for the review' }, ctx);
    assert.ok(relevant.skills.includes('review.pr'));
    await service.dispose();
  });

  it('hybrid candidates below the gate are not offered at all', async () => {
    const service = await serviceWith();
    assert.deepEqual(await service.selectionCandidates('ping google.com and show the review', 30, ctx), []);
    const offered = await service.selectionCandidates('bump the lodash dependency', 30, ctx);
    assert.deepEqual(
      offered.map((c) => c.name),
      ['deps.upgrade'],
    );
    await service.dispose();
  });

  it("property: a skill's absolute relevance is in [0, 1] and does not depend on which other hits the response holds", async () => {
    const service = await serviceWith();
    const words = ['commit', 'message', 'upgrade', 'dependency', 'secret', 'token', 'review', 'diff', 'weather', 'paris', 'numpy', 'the', 'for'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 7 }), async (query) => {
        const q = query.join(' ');
        const all = (await service.search({ query: q, limit: 10 }, ctx)).skills;
        for (const [i, hit] of all.entries()) {
          assert.ok(hit.relevance !== undefined && hit.relevance >= 0 && hit.relevance <= 1);
          // In a response cut right after it (fewer other hits, different min-max scores): the same value.
          const shorter = (await service.search({ query: q, limit: i + 1 }, ctx)).skills;
          assert.equal(shorter[i]?.name, hit.name);
          assert.equal(shorter[i]?.relevance, hit.relevance);
        }
      }),
      { numRuns: 60 },
    );
    await service.dispose();
  });
});
