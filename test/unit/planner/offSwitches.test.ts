import * as assert from 'node:assert/strict';
import { toolshedSettingsSchema } from '../../../src/core/config/settingsSchema';
import type { SkillsConfig } from '../../../src/core/config/settingsSchema';
import type { ChatModelPort } from '../../../src/core/platform/chatTypes';
import { skillPreflight } from '../../../src/core/planner/turn/skillPreflight';
import { makeService, pack, stepSkill, tempDir, writeTree } from '../skills/helpers';

/**
 * The troubleshooting page's off switch for skill pre-flight: `toolshed.skills.maxActive: 0`
 * injects no skill for the request and asks no model, in every selection mode; a skill the user
 * pinned is still injected.
 */

const countTokens = async (text: string) => Math.ceil(text.length / 4);
const REQUEST = 'write a commit message for my staged changes';

/** A chooser that answers with the commit skill and counts how often it was asked. */
function chooser(): { model: ChatModelPort; asked: () => number } {
  let asked = 0;
  return {
    asked: () => asked,
    model: {
      async *send() {
        asked++;
        yield { type: 'text', value: '{"skills": ["team.commit_message"]}' } as never;
      },
      countTokens,
    },
  };
}

async function preflight(skills: Partial<SkillsConfig>, pinnedNames: string[] = []) {
  const root = tempDir();
  writeTree(root, {
    'commit.skill.yaml': stepSkill('team.commit_message', 'Write a commit message for staged changes', [
      'Read the staged diff.',
      'Write a short subject line.',
    ]),
    'release.skill.yaml': stepSkill('team.release_notes', 'Write release notes for a version', ['List the merged changes.']),
  });
  const h = await makeService();
  await h.service.loadPacks([pack('team', root)]);
  const config = toolshedSettingsSchema.parse({ skills }).skills;
  const model = chooser();
  const port = skillPreflight(h.service, { includeWorkspacePacks: true }, config, {
    pinnedNames,
    countTokens,
    chooser: { model: model.model },
    signal: { isCancelled: false },
  });
  const out = await port.preflight(REQUEST);
  return { injected: out.used.map((u) => u.name), asked: model.asked() };
}

describe('off switches: skill pre-flight', () => {
  for (const selection of ['search', 'hybrid', 'model'] as const) {
    it(`${selection}: maxActive 0 injects nothing for the request and asks no model; the default injects the commit skill`, async () => {
      const on = await preflight({ selection });
      assert.ok(on.injected.includes('team.commit_message'), `default: ${on.injected.join(', ')}`);
      const off = await preflight({ selection, maxActive: 0 });
      assert.deepEqual(off, { injected: [], asked: 0 });
    });
  }

  it('a skill the user pinned is still injected with maxActive 0', async () => {
    const off = await preflight({ selection: 'hybrid', maxActive: 0 }, ['team.release_notes']);
    assert.deepEqual(off, { injected: ['team.release_notes'], asked: 0 });
  });
});
