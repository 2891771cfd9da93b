import * as assert from 'node:assert/strict';
import { LearningWrites } from '../../../src/vscode/learning/learningWrites';
import { SkillChanges } from '../../../src/vscode/skillChanges';
import { SkillTreeCache } from '../../../src/vscode/skills/skillTreeCache';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { makeLearning, turn } from '../learning/helpers';

const weatherTurn = () =>
  turn('Check the weather forecast in Oslo and Bergen, then create an issue with the summary', [
    { tool: 'fixture_weather_forecast', input: { city: 'Oslo' }, ok: true },
    { tool: 'fixture_weather_forecast', input: { city: 'Bergen' }, ok: true },
    { tool: 'fixture_create_issue', input: { title: 'Weekly forecast', body: 'sunny' }, ok: true },
  ]);

/** The real skill service, counting how often the whole skill list is read from it. */
async function setUp() {
  const h = await makeLearning();
  const changes = new SkillChanges(new MemoryLogger());
  const reads = { count: 0 };
  const counted = {
    listPacks: () => {
      reads.count++;
      return h.service.listPacks();
    },
  };
  const tree = new SkillTreeCache(counted, changes.onDidChange);
  const writes = new LearningWrites(h.learning, h.service, changes);
  const learnedNames = () => tree.listPacks().flatMap((pack) => pack.skills.filter((s) => s.origin === 'learned').map((s) => s.name));
  return { h, changes, tree, writes, reads, learnedNames };
}

describe('skill tree cache: one reading of the skill list per change of it', () => {
  it('the readers after one change (the sidebar’s tree, Promote Skill) share one reading', async () => {
    const { tree, reads } = await setUp();
    const first = tree.listPacks();
    assert.equal(tree.listPacks(), first);
    assert.equal(tree.listPacks(), first);
    assert.equal(reads.count, 1, 'three readings, one reading of every stored skill');
  });

  it('a change of the skill list is seen by the next reader; a change that leaves it alone reads nothing again', async () => {
    const { writes, reads, learnedNames } = await setUp();
    assert.deepEqual(learnedNames(), []);
    const { proposal } = await writes.ingest(weatherTurn(), {});
    assert.ok(proposal);
    assert.deepEqual(learnedNames(), [], 'a proposal is not a skill');
    assert.equal(reads.count, 1, 'a new proposal leaves the skill list alone');

    await writes.approve(proposal.id);
    assert.deepEqual(learnedNames(), [proposal.candidate.name], 'the approved skill is listed at once');
    assert.equal(reads.count, 2);

    await writes.discard(proposal.id);
    assert.deepEqual(learnedNames(), [], 'and gone once its approval is taken back');
  });
});
