import { strict as assert } from 'node:assert';
import { makeService, pack, tempDir, writeTree } from './helpers';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';

/**
 * Corroboration: search alone may put a skill before a model — inject it unconfirmed, or a door
 * offer it — only when its name and description share enough of the request's words: 3 of a short
 * request's (all of them when it has fewer), 6 of a long one's (40 distinct terms or more).
 * A high relevance from two rare words in common is how a request no skill serves still matches one.
 */

const ctx: SkillRequestContext = { includeWorkspacePacks: true };

const TUTOR =
  'A patient tutor for learning a new language: vocabulary drills, grammar lessons and conversation practice in Spanish, French, German or Italian, with a translation of every new word.';
const TOUR =
  'Plan a band tour: venues, dates, van hire, fuel, the door split and guarantees per show, merchandise stock, and how the money is shared between the members after costs.';

async function candidates(request: string) {
  const root = tempDir();
  writeTree(root, {
    'language-tutor/SKILL.md': `---\nname: language-tutor\ndescription: ${TUTOR}\n---\n# Tutor\nAsk which language first.\n`,
    'band-tour/SKILL.md': `---\nname: band-tour\ndescription: ${TOUR}\n---\n# Tour\nStart from the dates.\n`,
  });
  const { service } = await makeService();
  await service.loadPacks([pack('pool', root)]);
  // Every hit the gate looked at, with its relevance and whether the request's words corroborate it.
  let ranked: Array<{ name: string; relevance?: number; corroborated?: false }> = [];
  await service.selectionCandidates(request, 10, ctx, false, (seen) => (ranked = seen));
  return new Map(ranked.map((c) => [c.name, c]));
}

/** A long request (over 40 distinct terms) that names `words` of a skill's description among filler no skill has. */
function longRequest(words: readonly string[]): string {
  const filler = Array.from({ length: 45 }, (_, i) => `zq${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`);
  return `Here is my situation, ${filler.join(' ')}; and then ${words.join(' ')}.`;
}

describe('skills: corroboration by the request’s words', () => {
  it('a short request sharing two of its words with a skill does not corroborate it; sharing three does', async () => {
    const chance = await candidates('translate "see you tomorrow" into Italian');
    assert.equal(chance.get('language-tutor')?.corroborated, false);
    const applies = await candidates('vocabulary drills and grammar lessons to learn Italian');
    assert.ok(applies.has('language-tutor'));
    assert.equal(applies.get('language-tutor')?.corroborated, undefined);
  });

  it('a request of fewer words than that needs them all', async () => {
    const found = await candidates('italian vocabulary');
    assert.ok(found.has('language-tutor'));
    assert.equal(found.get('language-tutor')?.corroborated, undefined);
  });

  it('a long request needs five of its words in the skill’s name and description', async () => {
    const four = await candidates(longRequest(['venues', 'fuel', 'guarantees', 'merchandise']));
    assert.equal(four.get('band-tour')?.corroborated, false);
    const five = await candidates(longRequest(['venues', 'fuel', 'guarantees', 'merchandise', 'members']));
    assert.ok(five.has('band-tour'));
    assert.equal(five.get('band-tour')?.corroborated, undefined);
  });
});
