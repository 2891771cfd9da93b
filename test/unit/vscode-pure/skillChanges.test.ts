import * as assert from 'node:assert/strict';
import { LearningWrites } from '../../../src/vscode/learning/learningWrites';
import { SkillChanges, type SkillChange } from '../../../src/vscode/skillChanges';
import { MemoryLogger } from '../../../src/core/platform/basicPorts';
import { makeLearning, turn, type LearningHarness } from '../learning/helpers';

const weatherTurn = () =>
  turn('Check the weather forecast in Oslo and Bergen, then create an issue with the summary', [
    { tool: 'fixture_weather_forecast', input: { city: 'Oslo' }, ok: true },
    { tool: 'fixture_weather_forecast', input: { city: 'Bergen' }, ok: true },
    { tool: 'fixture_create_issue', input: { title: 'Weekly forecast', body: 'sunny' }, ok: true },
  ]);

/**
 * Subscribes the way the Skill Directory does: keeps a snapshot of the learned skills, rebuilt
 * only when a change says the skill list changed, and counts every change it hears.
 */
function viewSubscriber(h: LearningHarness, changes: SkillChanges) {
  const view = { heard: [] as SkillChange[], rebuilds: 0, learned: [] as string[] };
  const rebuild = () => {
    view.rebuilds++;
    view.learned = h.service.learnedSkills().map((record) => record.name);
  };
  rebuild();
  const subscription = changes.onDidChange((change) => {
    view.heard.push(change);
    if (change.skills) rebuild();
  });
  return { view, subscription };
}

async function setUp() {
  const h = await makeLearning();
  const logger = new MemoryLogger();
  const changes = new SkillChanges(logger);
  const writes = new LearningWrites(h.learning, h.service, changes);
  const { view, subscription } = viewSubscriber(h, changes);
  return { h, changes, writes, view, subscription, logger };
}

describe('skill change event: learning writes fire it once, after the store changed', () => {
  it('approving a proposal fires one skill-list change, and the view then sees the learned skill', async () => {
    const { h, writes, view } = await setUp();
    const { proposal } = await writes.ingest(weatherTurn(), {});
    assert.ok(proposal);
    assert.deepEqual(view.heard, [{ skills: false }], 'a new proposal is one change, and the skill list is not touched');
    assert.deepEqual(view.learned, []);

    const result = await writes.approve(proposal.id);
    assert.equal(result.status, 'approved');
    assert.deepEqual(view.heard, [{ skills: false }, { skills: true }], 'one change for the approval');
    assert.deepEqual(view.learned, [proposal.candidate.name], 'the subscriber read the store after the write');
    assert.equal(view.rebuilds, 2, 'the initial snapshot and one rebuild');
    assert.equal(h.learning.proposals().length, 0);
  });

  it('editing or discarding a pending proposal changes no skill; writes that change nothing fire nothing', async () => {
    const { writes, view } = await setUp();
    const { proposal } = await writes.ingest(weatherTurn(), {});
    assert.ok(proposal);
    await writes.edit(proposal.id, { ...proposal.candidate, title: 'Weather summary as an issue' });
    assert.equal((await writes.approve('no-such-proposal')).status, 'missing');
    assert.equal(await writes.unmerge('no-such-skill', 'no-such-hash'), undefined);
    assert.equal(await writes.discard(proposal.id), true);
    assert.deepEqual(view.heard, [{ skills: false }, { skills: false }, { skills: false }], 'ingest, edit, discard: one each');
    assert.equal(view.rebuilds, 1, 'no rebuild of the skill list');
  });

  it('discarding an approved proposal takes its skill back: one skill-list change, and the view no longer lists it', async () => {
    const { writes, view } = await setUp();
    const { proposal } = await writes.ingest(weatherTurn(), {});
    await writes.approve(proposal!.id);
    assert.deepEqual(view.learned, [proposal!.candidate.name]);
    view.heard.length = 0;
    assert.equal(await writes.discard(proposal!.id), true);
    assert.deepEqual(view.heard, [{ skills: true }]);
    assert.deepEqual(view.learned, []);
  });

  it('feedback on a learned skill fires one change that leaves the skill list alone', async () => {
    const { writes, view } = await setUp();
    const { proposal } = await writes.ingest(weatherTurn(), {});
    await writes.approve(proposal!.id);
    view.heard.length = 0;
    assert.equal(await writes.recordOutcome([proposal!.candidate.name], 'helpful'), 1);
    assert.deepEqual(view.heard, [{ skills: false }]);
  });

  it('a disposed subscriber hears nothing; a failing one does not keep the others from hearing', async () => {
    const { changes, writes, view, subscription, logger } = await setUp();
    const heardByOther: SkillChange[] = [];
    changes.onDidChange(() => {
      throw new Error('a broken view');
    });
    changes.onDidChange((change) => heardByOther.push(change));
    subscription.dispose();
    await writes.ingest(weatherTurn(), {});
    assert.deepEqual(view.heard, []);
    assert.deepEqual(heardByOther, [{ skills: false }]);
    assert.deepEqual(
      logger.lines.filter((line) => line.message.includes('skill change listener')),
      [{ level: 'error', message: 'A skill change listener failed: a broken view' }],
      "the failure is in Toolshed's log",
    );
  });
});
