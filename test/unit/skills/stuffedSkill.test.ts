import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeService, pack, tempDir, writeTree } from './helpers';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';

/**
 * Skill text is third-party text too. A skill whose description and body are stuffed with
 * everyday words shares words with almost any request; its relevance must not follow. Over the
 * skills relevance set's requests (none of which it serves), it may pass pre-flight's gate for at
 * most 10 % of them, and it must never take the right skill's place.
 */

const ctx: SkillRequestContext = { includeWorkspacePacks: true };

const EVERYDAY =
  'help with anything: code file test build error fix run data list create update delete find search read write open send get make change check show add remove start stop install deploy review plan draft report summary document page project issue message user account team task time date weather news email calendar meeting note file folder image video music chat web site app server database query table api request response config setting version release branch commit merge pull push git github docs text translate explain compare convert format clean sort filter count total';

interface Case {
  request: string;
  gold: string | null;
}

describe('skills: a stuffed skill does not buy relevance', () => {
  it('passes the gate for at most 10 % of requests it does not serve and never pushes the right skill out', async () => {
    const root = path.resolve(__dirname, '../../..');
    const cases = readFileSync(path.join(root, 'bench', 'data', 'skill-relevance.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Case);
    const stuffed = tempDir();
    writeTree(stuffed, {
      // Every describing field filled with everyday words: description, trigger and tags.
      'do-everything.skill.yaml': [
        'name: do-everything',
        `description: "${EVERYDAY}"`,
        `trigger: "${EVERYDAY.slice(0, 1000)}"`,
        `tags: [${EVERYDAY.split(/[ :]+/).join(', ')}]`,
        'steps:',
        '  - Do what is asked.',
        '',
      ].join('\n'),
    });
    const packs = [pack('core', path.join(root, 'skill-packs', 'core')), pack('public', path.join(root, 'bench', 'data', 'public-skills'))];
    const clean = (await makeService()).service;
    await clean.loadPacks(packs);
    const withStuffed = (await makeService()).service;
    await withStuffed.loadPacks([...packs, pack('stuffed', stuffed)]);

    let passed = 0;
    const lost: string[] = [];
    for (const c of cases) {
      const candidates = (await withStuffed.selectionCandidates(c.request, 5, ctx)).map((row) => row.name);
      if (candidates.includes('do-everything')) passed++;
      if (c.gold) {
        const before = (await clean.selectionCandidates(c.request, 5, ctx)).map((row) => row.name);
        if (before.includes(c.gold) && !candidates.includes(c.gold)) lost.push(c.request);
      }
    }
    assert.ok(cases.length >= 90, 'the whole relevance set');
    assert.ok(passed / cases.length <= 0.1, `the stuffed skill passed the gate for ${passed} of ${cases.length} requests`);
    assert.deepEqual(lost, [], 'requests whose right skill the stuffed one pushed out');
  });
});

/**
 * Everyday requests no skill in the packs serves, written before the skills' stuffed rule was
 * chosen (none was tuned on): a skill stuffed with everyday words must reach none of them.
 */
const EVERYDAY_REQUESTS = [
  "Translate 'good morning' into Japanese",
  'Is it going to rain tomorrow afternoon?',
  'What time is it in Tokyo right now?',
  'Suggest a name for my new goldfish',
  'How many cups are in a liter?',
  'Recommend a good book for a long flight',
  'What should I cook for dinner tonight with chicken and rice?',
  'Tell me a joke about cats',
  'Who won the football match last night?',
  'How do I get a red wine stain out of a carpet?',
  'Write a short birthday message for my aunt',
  'What is the capital of Australia?',
  'How long should I boil an egg for a soft yolk?',
  'Give me ideas for a weekend trip near the mountains',
  'What is a good stretch for lower back pain?',
  'How far is the moon from the earth?',
  'Plan a simple workout for three days a week',
  'What are some houseplants that need little light?',
  'Help me pick a gift for a friend who likes gardening',
  'What does the word serendipity mean?',
  'How do I say thank you in Italian?',
  'Which fruits are in season in autumn?',
  'Remind me how to tie a tie',
  'What is the difference between a frog and a toad?',
  'Summarise the plot of Romeo and Juliet in two sentences',
  'Can you check the news headlines for today?',
  'What movie should we watch on a rainy evening?',
  'How do I make my morning coffee less bitter?',
  'Send a friendly note to my neighbour about the party on Saturday',
  'Count how many days until Christmas',
];

/** Common English words (nouns, verbs, adjectives, times of day), as a stuffer would list them. */
const COMMON_WORDS =
  'time year people way day man thing woman life child world school state family student group country problem hand part place case week company system program question work government number night point home water room mother area money story fact month lot right study book eye job word business issue side kind head house service friend father power hour game line end member law car city community name president team minute idea kid body information back parent face others level office door health person art war history party result change morning afternoon evening today tomorrow yesterday reason research girl guy moment air teacher force education foot boy age policy process music market sense nation plan college interest death experience effect class control care field development role effort rate heart show leader light voice wife police mind price report decision son view relationship town road arm difference value building action model season society tax director position player record paper space ground form event official matter center couple site project activity star table need court oil situation cost industry figure street image phone data picture practice piece land product doctor wall patient worker news test movie north love support technology step baby computer type attention film tree source organization hair window evidence population flight hotel weather rain snow sun recipe food dinner lunch breakfast song poem gift trip language translate good bad new old big small long short great little high low next last first early late make get go know take see come think look want give find tell ask feel try leave call keep let begin seem help talk turn start show hear play run move like live believe hold bring happen write provide sit stand lose pay meet include continue set learn lead understand watch follow stop create speak read allow add spend grow open walk win offer remember consider appear buy wait serve send expect build stay fall cut reach kill remain suggest raise pass sell require decide return explain hope develop carry break receive agree';

describe('skills: the same focus rule as tools for a skill stuffed with everyday words', () => {
  it('is injected for none of 30 unrelated everyday requests, and skill_search still finds it', async () => {
    const root = path.resolve(__dirname, '../../..');
    const stuffed = tempDir();
    writeTree(stuffed, {
      'do-everything/SKILL.md': `---\nname: do-everything\ndescription: Helps with everyday things: ${COMMON_WORDS}.\n---\n# Everyday helper\n\nDo what is asked.\n`,
    });
    const { service } = await makeService();
    await service.loadPacks([
      pack('core', path.join(root, 'skill-packs', 'core')),
      pack('public', path.join(root, 'bench', 'data', 'public-skills')),
      pack('stuffed', stuffed),
    ]);
    assert.equal(EVERYDAY_REQUESTS.length, 30);
    const reached: string[] = [];
    for (const request of EVERYDAY_REQUESTS) {
      const candidates = (await service.selectionCandidates(request, 5, ctx)).map((row) => row.name);
      const relevant = await service.getRelevant({ task: request }, ctx);
      if (candidates.includes('do-everything') || relevant.skills.includes('do-everything')) reached.push(request);
      // What Explain Last Turn prints for it: the gate's own verdict.
      for (const hit of relevant.ranked.filter((r) => r.name === 'do-everything'))
        assert.equal(hit.verdict?.passed === false && hit.verdict.rule, 'stuffed', JSON.stringify(hit));
    }
    assert.deepEqual(reached, [], `the stuffed skill reached ${reached.length} of 30 everyday requests`);
    const found = await service.search({ query: 'everyday helper', limit: 5 }, ctx);
    assert.ok(
      found.skills.some((s) => s.name === 'do-everything'),
      'skill_search still returns it',
    );
  });
});
