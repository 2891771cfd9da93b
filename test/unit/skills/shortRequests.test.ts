import { strict as assert } from 'node:assert';
import { makeService, pack, tempDir, writeTree } from './helpers';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';
import { skillsConfigSchema } from '../../../src/core/config/settingsSchema';

/**
 * One-line requests: a skill that shares a single rare word with a short request (or only its
 * numbers) is not confident enough to be injected without asking the model; a skill whose own
 * description a short request paraphrases still is.
 */

const ctx: SkillRequestContext = { includeWorkspacePacks: true };

const SKILLS: Record<string, string> = {
  'slide-decks': 'Create presentation slide decks with speaker notes and consistent layouts',
  'excel-formulas': 'Build spreadsheet formulas, pivot tables and conditional formatting in Excel',
  'git-commit-messages': 'Write conventional commit messages that explain why a change was made',
  'docker-multistage': 'Build small Docker images with multi-stage builds and non-root users',
  'log-analysis': 'Find error patterns in application logs and summarise them by frequency',
  'email-drafting': 'Draft clear professional emails with a subject line and a call to action',
  'memory-setup': 'Set up the memory file: remember the goldfish',
  'prefetch-forensics': 'Parse Windows prefetch files from builds 17 to 23 for execution history',
};

function writePool(root: string): void {
  const files: Record<string, string> = {};
  for (const [name, description] of Object.entries(SKILLS)) {
    // The two one-of-a-kind skills hold their rare words alone; the others come in variants, and
    // every body has the request's common words, as thousands of real skills do.
    const variants = name === 'memory-setup' || name === 'prefetch-forensics' ? 1 : 4;
    for (let v = 0; v < variants; v++) {
      const id = v === 0 ? name : `${name}-${v}`;
      files[`${id}/SKILL.md`] =
        `---\nname: ${id}\ndescription: ${description}${v ? ` (variant ${v})` : ''}.\n---\n# ${id}\n\nSteps for ${description.toLowerCase()}. Suggest a new name for each output.\n`;
    }
  }
  writeTree(root, files);
}

describe('skills: short requests', () => {
  const confident = skillsConfigSchema.parse({}).askModelBelowRelevance;

  async function relevanceOf(request: string, name: string): Promise<number> {
    const root = tempDir();
    writePool(root);
    const { service } = await makeService();
    await service.loadPacks([pack('pool', root)]);
    const candidates = await service.selectionCandidates(request, 10, ctx);
    return candidates.find((c) => c.name === name)?.relevance ?? 0;
  }

  it('a skill sharing one rare word with a short request is below the confident bar', async () => {
    const relevance = await relevanceOf('suggest a name for my new goldfish', 'memory-setup');
    assert.ok(relevance < confident, `memory-setup at ${relevance}, the confident bar is ${confident}`);
  });

  it('numbers in common are not words in common', async () => {
    const relevance = await relevanceOf("what's 17 times 23?", 'prefetch-forensics');
    assert.ok(relevance < confident, `prefetch-forensics at ${relevance}, the confident bar is ${confident}`);
  });

  it('a short request that paraphrases a skill is still confident', async () => {
    const relevance = await relevanceOf('turn my speaker notes into a slide deck', 'slide-decks');
    assert.ok(relevance >= confident, `slide-decks at ${relevance}, the confident bar is ${confident}`);
  });
});
