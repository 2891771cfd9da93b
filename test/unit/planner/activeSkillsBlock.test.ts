import * as assert from 'node:assert/strict';
import type { ChatModelPort } from '../../../src/core/platform/chatTypes';
import { plannerSkillsFrom } from '../../../src/core/planner/plannerSkills';
import { ctx, makeService, pack, tempDir, writeTree } from '../skills/helpers';

/** A model that answers the selection prompt with `answer(candidateNames)`. */
function choosingModel(answer: (names: string[]) => string): ChatModelPort & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    prompts,
    async *send(messages) {
      const text = messages[0]?.parts[0]?.kind === 'text' ? messages[0].parts[0].text : '';
      prompts.push(text);
      yield { kind: 'text', text: answer([...text.matchAll(/^- ([^:\n]+):/gm)].map((m) => m[1])) };
    },
    countTokens: async (text) => Math.ceil(text.length / 4),
  };
}

async function workspaceWithSkills() {
  const root = tempDir();
  const files: Record<string, string> = {};
  for (const name of ['deploy-preview', 'deploy-rollback', 'deploy-canary', 'deploy-hotfix', 'deploy-docs']) {
    files[`${name}/SKILL.md`] =
      `---\nname: ${name}\ndescription: Deploy ${name.split('-')[1]} builds to the staging cluster.\n---\n\n# ${name}\n\nBODY-OF-${name}: run the ${name} pipeline and check the dashboard.\n`;
  }
  files['deploy-canary/references/checklist.md'] = 'SECRET-REFERENCE-CONTENT that must not be loaded';
  writeTree(root, files);
  const harness = await makeService();
  await harness.service.loadPacks([pack('ws', root)]);
  return harness;
}

const base = { maxTokens: 2000, topK: 3, pinnedNames: [] as string[], countTokens: async (t: string) => Math.ceil(t.length / 4), maxActive: 3 };

describe('active skills pre-flight (skill service + selection)', () => {
  it('hybrid: the chosen skills are loaded in full (body), references listed but not loaded, with their reason', async () => {
    const { service } = await workspaceWithSkills();
    const model = choosingModel(() => JSON.stringify({ skills: ['deploy-canary', 'deploy-docs'] }));
    const port = plannerSkillsFrom(service, ctx, {
      ...base,
      selection: { mode: 'hybrid', maxActive: 3, timeoutMs: 1000, model, signal: { isCancelled: false } },
    });
    const result = await port.preflight('deploy builds to the staging cluster');
    assert.ok(!/BODY-OF/.test(model.prompts[0]), 'the model chose from names and descriptions only');
    assert.deepEqual(
      result.used.map((u) => [u.name, u.reason]),
      [
        ['deploy-canary', 'chosen by the model'],
        ['deploy-docs', 'chosen by the model'],
      ],
    );
    assert.match(result.relevantBlock, /BODY-OF-deploy-canary/);
    assert.match(result.relevantBlock, /BODY-OF-deploy-docs/);
    assert.ok(!/BODY-OF-deploy-preview/.test(result.relevantBlock));
    assert.match(result.relevantBlock, /Resources \(read only if needed\): references\/checklist\.md/);
    assert.ok(!result.relevantBlock.includes('SECRET-REFERENCE-CONTENT'));
    assert.ok((result.selectionTokens ?? 0) > 0);
  });

  it('pinned skills take slots first and are not rendered twice; the model fills the rest', async () => {
    const { service } = await workspaceWithSkills();
    const model = choosingModel((names) => JSON.stringify({ skills: names.slice(0, 1) }));
    const port = plannerSkillsFrom(service, ctx, {
      ...base,
      pinnedNames: ['deploy-hotfix', 'deploy-rollback'],
      selection: { mode: 'hybrid', maxActive: 3, timeoutMs: 1000, model, signal: { isCancelled: false } },
    });
    const result = await port.preflight('deploy builds to the staging cluster');
    assert.match(model.prompts[0], /Pick at most 1 skill /);
    assert.ok(!model.prompts[0].includes('- deploy-hotfix:'), `pinned skills are not candidates: ${model.prompts[0]}`);
    assert.equal(result.used.filter((u) => u.reason !== 'pinned').length, 1);
    assert.ok(!/BODY-OF-deploy-hotfix/.test(result.relevantBlock), 'pinned skills come from the pinned block');
    assert.match(result.pinnedBlock, /BODY-OF-deploy-hotfix/);
    assert.deepEqual(
      result.used.filter((u) => u.reason === 'pinned').map((u) => u.name),
      ['deploy-hotfix', 'deploy-rollback'],
    );
  });

  it("the block stays within the budget in the model's own tokens; a budget too small for any skill injects nothing", async () => {
    const { service } = await workspaceWithSkills();
    const model = choosingModel((names) => JSON.stringify({ skills: names.slice(0, 3) }));
    const signal = { isCancelled: false };
    // The model's tokenizer counts twice as many tokens as the service's estimate.
    const port = plannerSkillsFrom(service, ctx, {
      ...base,
      maxTokens: 600,
      countTokens: async (t) => Math.ceil(t.length / 2),
      selection: { mode: 'hybrid', maxActive: 3, timeoutMs: 1000, model, signal },
    });
    const result = await port.preflight('deploy builds to the staging cluster');
    assert.ok(result.relevantBlock.length > 0);
    assert.ok(Math.ceil(result.relevantBlock.length / 2) <= 600, `${result.relevantBlock.length / 2} tokens`);
    const tiny = plannerSkillsFrom(service, ctx, { ...base, maxTokens: 120, selection: { mode: 'hybrid', maxActive: 3, timeoutMs: 1000, model, signal } });
    assert.equal((await tiny.preflight('deploy builds to the staging cluster')).relevantBlock, '');
  });

  it('search mode caps search pre-flight at maxActive minus pinned, marked "best match"', async () => {
    const { service } = await workspaceWithSkills();
    const port = plannerSkillsFrom(service, ctx, { ...base, topK: 5, maxActive: 2, pinnedNames: ['deploy-docs'] });
    const result = await port.preflight('deploy builds to the staging cluster');
    assert.deepEqual(
      result.used.map((u) => [u.name, u.reason]).filter(([, reason]) => reason === 'pinned'),
      [['deploy-docs', 'pinned']],
    );
    const matches = result.used.filter((u) => u.reason !== 'pinned');
    assert.equal(matches.length, 1);
    assert.equal(matches[0].reason, 'best match');
  });
});
