import * as assert from 'node:assert/strict';
import { lineageOf } from '../../../src/core/learning/merge/lineage';
import { pack, stepSkill, tempDir, writeTree } from '../skills/helpers';
import { makeLearning, turn } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';
const calls = (cities: string[]) => [
  ...cities.map((city) => ({ tool: WEATHER, input: { city }, ok: true })),
  { tool: ISSUE, input: { title: 'Weekly forecast', body: 'sunny' }, ok: true },
];
const first = turn('Check the weather forecast in Oslo and Bergen, then create an issue with the summary', calls(['Oslo', 'Bergen']), {
  sessionId: 'a',
  at: 1,
});
const paraphrase = turn('check weather forecast for Oslo and Bergen then create issue with summary', calls(['Oslo', 'Bergen']), { sessionId: 'b', at: 2 });

describe('learning: approving a near-duplicate merges it, with lineage and undo', () => {
  it('two proposals of the same procedure (paraphrased) approve into one learned skill with lineage 2; events and counters', async () => {
    const h = await makeLearning();
    const a = (await h.learning.ingest(first)).proposal!;
    const b = (await h.learning.ingest(paraphrase)).proposal!;
    assert.notEqual(a.id, b.id, 'different source hashes: two proposals');
    assert.equal((await h.learning.approve(a.id)).status, 'approved');
    await h.learning.recordOutcome([a.candidate.name], 'helpful');
    const before = h.service.inspect(a.candidate.name)!;
    const result = await h.learning.approve(b.id);
    assert.equal(result.status, 'merged');
    assert.equal(result.name, a.candidate.name);
    const merged = h.service.learnedSkills();
    assert.equal(merged.length, 1, 'one learned skill, not two');
    const lineage = lineageOf(merged[0]!)!;
    assert.equal(lineage.source_hashes.length, 2);
    assert.deepEqual(
      lineage.merged_from.map((s) => s.proposal_id),
      [b.id],
    );
    assert.equal(lineage.origin_ref, `learning:${a.id}`);
    assert.ok(
      h.learningEvents.events.some((e) => e.type === 'skill_merged' && e.payload.into_skill_id === a.candidate.name && e.payload.merged_skill_id === b.id),
    );
    assert.equal(h.learning.proposals().length, 0);

    // Undo from the lineage: the skill is exactly as before, the proposal pending again.
    const undone = await h.learning.unmerge(a.candidate.name, b.candidate.source_hash);
    assert.equal(undone?.proposalId, b.id);
    assert.deepEqual(h.service.inspect(a.candidate.name), before);
    assert.equal(h.learning.counters(a.candidate.name)?.helpful, 1);
    assert.deepEqual(
      h.learning.proposals().map((p) => p.id),
      [b.id],
    );
    // Kept apart on purpose: approved as its own skill.
    const separate = await h.learning.approve(b.id, { noMerge: true, name: `${b.candidate.name}-own` });
    assert.equal(separate.status, 'approved');
    assert.equal(h.service.learnedSkills().length, 2);
  });

  it('discarding a merged proposal takes back only what it brought', async () => {
    const h = await makeLearning();
    const a = (await h.learning.ingest(first)).proposal!;
    const b = (await h.learning.ingest(paraphrase)).proposal!;
    await h.learning.approve(a.id);
    const before = h.service.inspect(a.candidate.name)!;
    await h.learning.approve(b.id);
    assert.ok(await h.learning.discard(b.id));
    assert.deepEqual(h.service.inspect(a.candidate.name), before);
  });

  it('mergeThreshold is honoured: a looser paraphrase merges at 0.75, not at the default 0.9', async () => {
    const looser = turn('Look up the weather forecast for Oslo and Bergen, then create an issue with the summary', calls(['Oslo', 'Bergen']), {
      sessionId: 'c',
      at: 3,
    });
    for (const [threshold, merges] of [
      [0.9, false],
      [0.75, true],
    ] as const) {
      const h = await makeLearning({ config: { mergeThreshold: threshold } });
      const a = (await h.learning.ingest(first)).proposal!;
      const c = (await h.learning.ingest(looser)).proposal!;
      await h.learning.approve(a.id);
      const score = h.learning.mergeTarget(c.candidate)?.score ?? 0;
      const result = await h.learning.approve(c.id);
      // Not merged: approved as its own skill, or asked about (same name) — never folded in.
      assert.equal(result.status === 'merged', merges, `threshold ${threshold}, score ${score}`);
      assert.equal(h.service.learnedSkills().length, merges || result.status === 'conflict' ? 1 : 2);
    }
  });

  it('a pack skill with the same procedure is never merged into', async () => {
    const h = await makeLearning();
    const root = tempDir();
    const a = (await h.learning.ingest(first)).proposal!;
    writeTree(root, { 'w.skill.yaml': stepSkill('team.weather', a.candidate.trigger, a.candidate.steps) });
    await h.service.loadPacks([pack('team', root)]);
    const result = await h.learning.approve(a.id);
    assert.equal(result.status, 'approved');
    assert.equal(h.service.inspect('team.weather')?.origin, 'pack');
    assert.equal(lineageOf(h.service.inspect('team.weather')!), undefined);
  });
});
