import * as assert from 'node:assert/strict';
import { SKILL_RELATIVE_CUT } from '../../../src/core/skills/relevantSkills';
import { ctx, makeService, pack, stepSkill, tempDir, writeTree } from './helpers';

/** Skills like the demo's: one the request is about, one nearly as close, one sharing only "CI". */
async function ciSkills(minRelevance: number) {
  const root = tempDir();
  writeTree(root, {
    'triage.skill.yaml': stepSkill('pack.p.triage_flaky_tests', 'Find which tests are flaky on CI and why'),
    'quarantine.skill.yaml': stepSkill('pack.p.quarantine_flaky_tests', 'Quarantine flaky tests'),
    'cache.skill.yaml': stepSkill('pack.p.tune_ci_cache', 'Speed up CI with a dependency cache'),
    'release.skill.yaml': stepSkill('pack.p.release_notes', 'Draft release notes from the CI builds'),
    'deploy.skill.yaml': stepSkill('pack.p.deploy_service', 'Deploy the service from CI'),
  });
  const h = await makeService({ config: { minRelevance } });
  await h.service.loadPacks([pack('p', root)]);
  return h.service;
}

describe('skill injection: the relative cut', () => {
  it('search pre-flight injects the best match and a close second, not a skill far below them; a pinned one stays out of the bar', async () => {
    const service = await ciSkills(0.1);
    const request = 'Which tests are flaky on CI?';
    // A threshold of 0 turns the gate off: every match, with its relevance.
    const all = await (await ciSkills(0)).selectionCandidates(request, 10, ctx);
    assert.ok(all.some((c) => c.name === 'pack.p.tune_ci_cache'));
    const relevance = (name: string) => all.find((c) => c.name === name)?.relevance ?? 0;
    const best = relevance('pack.p.triage_flaky_tests');
    assert.ok(relevance('pack.p.tune_ci_cache') >= 0.1, 'the loose one passes the absolute gate on its own');
    assert.ok(relevance('pack.p.tune_ci_cache') < SKILL_RELATIVE_CUT * best, `but is far below the best (${relevance('pack.p.tune_ci_cache')} vs ${best})`);
    const second = relevance('pack.p.quarantine_flaky_tests');
    assert.ok(second < best && second >= SKILL_RELATIVE_CUT * best, `the second (${second}) is close to the best (${best})`);

    // hybrid selection is offered the same two.
    assert.deepEqual((await service.selectionCandidates(request, 10, ctx)).map((c) => c.name).sort(), [
      'pack.p.quarantine_flaky_tests',
      'pack.p.triage_flaky_tests',
    ]);
    const injected = await service.getRelevant({ task: request, top_k: 3 }, ctx);
    assert.deepEqual(injected.skills.sort(), ['pack.p.quarantine_flaky_tests', 'pack.p.triage_flaky_tests']);
    // With the best one pinned (already in the prompt), the others are measured against each other.
    const pinned = await service.getRelevant({ task: request, top_k: 3, exclude: ['pack.p.triage_flaky_tests'] }, ctx);
    assert.ok(pinned.skills.includes('pack.p.quarantine_flaky_tests') && !pinned.skills.includes('pack.p.triage_flaky_tests'));
  });
});
