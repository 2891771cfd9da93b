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
