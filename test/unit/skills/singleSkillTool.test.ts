import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  buildSkillListing,
  orderSkillListing,
  parseSkillToolInput,
  renderSkillListing,
  skillNotFoundMessage,
  skillToolInputSchema,
} from '../../../src/core/skills/singleSkillTool';
import type { SkillListingEntry } from '../../../src/core/skills/singleSkillTool';

const entry = (name: string, description = `Use ${name} when it fits.`): SkillListingEntry => ({ name, description });
const names = (entries: readonly SkillListingEntry[]) => entries.map((e) => e.name);
/** A token counter like a model's: roughly four characters a token. */
const countTokens = async (text: string) => Math.ceil(text.length / 4);

describe('single skill tool: listing', () => {
  it('orders pinned, then relevant, then recent, then the rest, each name once at its first place', () => {
    const ordered = orderSkillListing([
      [entry('pinned-a'), entry('pinned-b')],
      [entry('relevant-x'), entry('pinned-a'), entry('relevant-y')],
      [entry('recent-r'), entry('relevant-x')],
      [entry('alpha'), entry('pinned-b'), entry('recent-r'), entry('zulu')],
    ]);
    assert.deepEqual(names(ordered), ['pinned-a', 'pinned-b', 'relevant-x', 'relevant-y', 'recent-r', 'alpha', 'zulu']);
  });

  it('caps by maxEntries and says how many more exist and where to see them', async () => {
    const all = Array.from({ length: 200 }, (_, i) => entry(`skill-${String(i).padStart(3, '0')}`));
    const listing = await buildSkillListing(all, 200, { maxEntries: 40, maxTokens: 100_000, countTokens });
    assert.equal(listing.entries.length, 40);
    assert.deepEqual(names(listing.entries), names(all.slice(0, 40)), 'the first 40 in priority order');
    assert.equal(listing.omitted, 160);
    assert.match(listing.description, /Showing 40 of 200 skills: 160 more exist/);
    assert.match(listing.description, /\/skills/);
    assert.equal((listing.description.match(/<skill name=/g) ?? []).length, 40);
  });

  it('a listing that fits says nothing about omissions', async () => {
    const listing = await buildSkillListing([entry('a'), entry('b')], 2, { maxEntries: 40, maxTokens: 2000, countTokens });
    assert.equal(listing.omitted, 0);
    assert.doesNotMatch(listing.description, /more exist/);
    assert.match(listing.description, /<skills>\n<skill name="a">Use a when it fits\.<\/skill>\n<skill name="b">/);
  });

  it("keeps within the token cap in the model's own count, the omission note included, and keeps the longest prefix that fits", async () => {
    const all = Array.from({ length: 60 }, (_, i) => entry(`skill-${i}`, `A description that takes some room, number ${i}, so the cap bites.`));
    for (const maxTokens of [150, 400, 900]) {
      const listing = await buildSkillListing(all, 75, { maxEntries: 60, maxTokens, countTokens });
      assert.ok((await countTokens(listing.description)) <= maxTokens, `${maxTokens}: ${await countTokens(listing.description)}`);
      assert.ok(listing.entries.length < 60);
      assert.deepEqual(names(listing.entries), names(all.slice(0, listing.entries.length)), 'a prefix of the priority order');
      const oneMore = renderSkillListing(all.slice(0, listing.entries.length + 1), 75);
      assert.ok((await countTokens(oneMore)) > maxTokens, 'one more entry would not fit');
      assert.equal(listing.omitted, 75 - listing.entries.length);
      assert.match(listing.description, new RegExp(`Showing ${listing.entries.length} of 75 skills`));
    }
  });

  it('keeps at least one entry when skills exist, and none when none do', async () => {
    const tight = await buildSkillListing([entry('only', 'x'.repeat(2000)), entry('two')], 2, { maxEntries: 40, maxTokens: 100, countTokens });
    assert.deepEqual(names(tight.entries), ['only']);
    const empty = await buildSkillListing([], 0, { maxEntries: 40, maxTokens: 100, countTokens });
    assert.deepEqual(empty.entries, []);
  });

  it('hostile names and descriptions cannot break or fake the <skills> structure', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.string({ minLength: 1, maxLength: 40 }), description: fc.string({ maxLength: 300 }) }), { maxLength: 12 }),
        (entries) => {
          const text = renderSkillListing(entries, entries.length + 3);
          assert.equal((text.match(/<skill name="/g) ?? []).length, entries.length);
          assert.equal((text.match(/<\/skill>/g) ?? []).length, entries.length);
          assert.equal((text.match(/<\/?skills>/g) ?? []).length, 2);
        },
      ),
    );
  });

  it('the enum holds exactly the listed names', () => {
    const schema = skillToolInputSchema(['a', 'b']) as { properties: { skill_name: { enum: string[] } }; required: string[] };
    assert.deepEqual(schema.properties.skill_name.enum, ['a', 'b']);
    assert.deepEqual(schema.required, ['skill_name']);
  });
});

describe('single skill tool: input and messages', () => {
  it('rejects missing or non-string names with a message the model can act on', () => {
    for (const bad of [undefined, null, {}, { skill_name: 3 }, { skill_name: '  ' }, { skill_name: 'x'.repeat(201) }]) {
      const parsed = parseSkillToolInput(bad);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.message, /skill_name must be the exact name/);
    }
    assert.deepEqual(parseSkillToolInput({ skill_name: ' fix-lint ' }), { ok: true, name: 'fix-lint' });
  });

  it('a listed name that vanished is "removed or unavailable"; an unknown one gets the suggestions', () => {
    assert.match(skillNotFoundMessage('gone', { wasListed: true, suggestions: [] }), /"gone" was removed or is unavailable/);
    const unknown = skillNotFoundMessage('comit', { wasListed: false, suggestions: ['commit-message'] });
    assert.match(unknown, /Unknown skill "comit"\. Closest skill names: commit-message\./);
    assert.match(skillNotFoundMessage('zzz', { wasListed: false, suggestions: [] }), /No skill has a similar name/);
  });
});
