import * as assert from 'node:assert/strict';
import { pack, stepSkill, tempDir, writeTree } from '../skills/helpers';
import { makeLearning, turn } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';
const ctx = { includeWorkspacePacks: true, scope: { projectId: 'p1' } };
const weatherTurn = (sessionId = 's1', at = 1) =>
  turn(
    'Check the weather forecast in Oslo and Bergen, then create an issue with the summary',
    [
      { tool: WEATHER, input: { city: 'Oslo' }, ok: true },
      { tool: WEATHER, input: { city: 'Bergen' }, ok: true },
      { tool: ISSUE, input: { title: 'Weekly forecast', body: 'sunny' }, ok: true },
    ],
    { sessionId, at },
  );

describe('learning service: propose → approve → retrieved; feedback; conflicts', () => {
  it('a proposal is invisible to search and injection until approved; then a paraphrase retrieves it', async () => {
    const h = await makeLearning();
    const { proposal } = await h.learning.ingest(weatherTurn());
    assert.ok(proposal);
    assert.equal(proposal.status, 'proposed');
    const paraphrase = 'get the forecast for Bergen and open an issue';
    assert.deepEqual((await h.service.search({ query: paraphrase }, ctx)).skills, [], 'not searchable while proposed');
    assert.equal((await h.service.getRelevant({ task: paraphrase }, ctx)).skills.length, 0);

    const approved = await h.learning.approve(proposal.id);
    assert.equal(approved.status, 'approved');
    const relevant = await h.service.getRelevant({ task: paraphrase }, ctx);
    assert.deepEqual(relevant.skills, [proposal.candidate.name]);
    assert.match(relevant.text, /fixture_weather_forecast/);
    assert.equal(h.service.inspect(proposal.candidate.name)?.scope_mode, 'project');
    assert.equal(h.learning.proposals().length, 0);
  });

  it('the same trajectory proposed again increments the proposal instead of copying it', async () => {
    const h = await makeLearning();
    const first = await h.learning.ingest(weatherTurn('a', 1));
    const second = await h.learning.ingest(weatherTurn('b', 2));
    assert.equal(second.proposal?.id, first.proposal?.id);
    assert.equal(second.proposal?.count, 2);
    assert.equal(h.learning.proposals().length, 1);
  });

  it('approving a name held by a pack skill asks (conflict) and never overwrites the pack skill', async () => {
    const h = await makeLearning();
    const { proposal } = await h.learning.ingest(weatherTurn());
    const root = tempDir();
    writeTree(root, { 'taken.skill.yaml': stepSkill(proposal!.candidate.name, 'A pack skill with the same name', ['Pack step.']) });
    await h.service.loadPacks([pack('team', root)]);
    const result = await h.learning.approve(proposal!.id);
    assert.equal(result.status, 'conflict');
    assert.equal(result.status === 'conflict' && result.existing, 'pack');
    assert.equal(h.service.inspect(proposal!.candidate.name)?.origin, 'pack', 'pack skill untouched');
    assert.equal(h.service.inspect(proposal!.candidate.name)?.steps[0], 'Pack step.');
    const renamed = await h.learning.approve(proposal!.id, { name: result.status === 'conflict' ? result.suggestion : '' });
    assert.equal(renamed.status, 'approved');
    assert.equal(h.service.inspect(`${proposal!.candidate.name}-2`)?.origin, 'learned');
  });

  it('five 👎 drop a learned skill below a pack skill of nearly equal relevance; it stays retrievable', async () => {
    const h = await makeLearning();
    const root = tempDir();
    writeTree(root, {
      'weather.skill.yaml': stepSkill(
        'team.weather.report',
        'Check the weather forecast in Oslo and Bergen and create an issue',
        [`Call ${WEATHER} for each city.`, `Call ${ISSUE} with a summary.`],
        'task_type: api\n',
      ),
    });
    await h.service.loadPacks([pack('team', root)]);
    const { proposal } = await h.learning.ingest(weatherTurn());
    await h.learning.approve(proposal!.id);
    const learned = proposal!.candidate.name;
    const order = async () => (await h.service.search({ query: 'weather forecast for Oslo and an issue with the summary' }, ctx)).skills.map((s) => s.name);
    const before = await order();
    assert.ok(before.indexOf(learned) < before.indexOf('team.weather.report'), `learned first before feedback: ${before.join(', ')}`);
    for (let i = 0; i < 4; i++) await h.learning.recordOutcome([learned], 'harmful');
    const afterFour = await order();
    assert.ok(afterFour.indexOf(learned) < afterFour.indexOf('team.weather.report'), 'four ratings are not enough');
    await h.learning.recordOutcome([learned], 'harmful');
    const after = await order();
    assert.ok(after.indexOf(learned) > after.indexOf('team.weather.report'), `learned below pack after five 👎: ${after.join(', ')}`);
    assert.ok(after.includes(learned));
    assert.deepEqual(h.learning.counters(learned) && { helpful: h.learning.counters(learned)!.helpful, harmful: h.learning.counters(learned)!.harmful }, {
      helpful: 0,
      harmful: 5,
    });
  });

  it('decay lowers an unused learned skill, a helpful outcome renews it, and a stale one carries a warning', async () => {
    const h = await makeLearning();
    const { proposal } = await h.learning.ingest(weatherTurn());
    await h.learning.approve(proposal!.id);
    const name = proposal!.candidate.name;
    const score = async () => (await h.service.search({ query: 'weather forecast issue' }, ctx)).skills.find((s) => s.name === name)?.score ?? 0;
    assert.equal(h.learning.stalenessNotes([name]), '');
    h.clock.tick(200 * 24 * 3600 * 1000); // > 2 half-lives of `api` (90 days)
    assert.match(h.learning.stalenessNotes([name]), /last confirmed 200 days ago/);
    assert.ok(h.learningEvents.events.length >= 0);
    await score();
    assert.ok(h.learningEvents.events.some((e) => e.type === 'skill_decay_applied' && (e.payload.decay as number) < 0.25));
    await h.learning.recordOutcome([name], 'helpful');
    assert.equal(h.learning.stalenessNotes([name]), '', 'validated use renews it');
  });

  it('a learned skill whose cited file is gone is left out of search and pre-flight', async () => {
    const files = new Set<string>(['src/report.ts']);
    const h = await makeLearning({ files });
    const { proposal } = await h.learning.ingest(
      turn('Summarise src/report.ts and create an issue with the weather forecast', [
        { tool: WEATHER, input: { city: 'x' }, ok: true },
        { tool: ISSUE, input: { title: 'x' }, ok: true },
      ]),
    );
    await h.learning.approve(proposal!.id);
    assert.deepEqual(proposal!.candidate.citations.files, ['src/report.ts']);
    const names = async () => (await h.service.search({ query: 'weather forecast issue report' }, ctx)).skills.map((s) => s.name);
    assert.ok((await names()).includes(proposal!.candidate.name));
    files.delete('src/report.ts');
    assert.ok(!(await names()).includes(proposal!.candidate.name));
    const fetched = await h.service.get({ names: [proposal!.candidate.name] }, ctx);
    assert.equal(fetched.skills.length, 0, 'not returned by exact name either');
    assert.match(fetched.missing?.[0]?.reason ?? '', /^stale/);
    assert.match(h.learning.approvedLessons()[0]!.stale_reason, /src\/report\.ts no longer exists/);
  });

  it('learning off (or untrusted) proposes nothing and records no feedback', async () => {
    const h = await makeLearning({ config: { mode: 'off' } });
    assert.deepEqual(await h.learning.ingest(weatherTurn()), {});
    assert.equal(await h.learning.recordOutcome(['x'], 'harmful'), 0);
    assert.equal(h.learning.proposals().length, 0);
  });
});

describe('negative lessons', () => {
  const failing = (sessionId: string, at: number, env: string) =>
    turn(
      'Deploy a preview of this branch',
      [{ tool: 'deploy_preview', input: { branch: 'x' }, ok: false, error: `Environment '${env}' is locked by another deployment (lock ${at}abcdef1234)` }],
      { sessionId, at },
    );

  it('one failure is noise; the same signature in a second conversation proposes one lesson; more occurrences increment it', async () => {
    const h = await makeLearning();
    assert.equal((await h.learning.ingest(failing('a', 1, 'preview-17'))).negative, undefined);
    const second = await h.learning.ingest(failing('b', 2, 'preview-42'));
    assert.ok(second.negative);
    assert.equal(second.negative.candidate.kind, 'negative');
    assert.match(second.negative.candidate.title, /^Avoid: deploy_preview fails with conflict/);
    const third = await h.learning.ingest(failing('c', 3, 'preview-99'));
    assert.equal(third.negative?.id, second.negative.id);
    assert.equal(third.negative?.count, 2);
    const reported = await h.learning.reportFailure(
      { tool: 'deploy_preview', error: "Environment 'preview-5' is locked by another deployment (lock 5abcdef1234)" },
      'd',
    );
    assert.equal(reported?.id, second.negative.id, 'an explicit report of the same failure is the same lesson');
    assert.equal(h.learning.proposals().filter((p) => p.candidate.kind === 'negative').length, 1);
  });

  it('the same conversation failing twice in one turn counts once', async () => {
    const h = await makeLearning();
    const t = failing('a', 1, 'p1');
    t.calls.push({ ...t.calls[0]! });
    assert.equal((await h.learning.ingest(t)).negative, undefined);
  });

  it('an approved lesson appears in <skill_warnings> for a related request only', async () => {
    const h = await makeLearning();
    await h.learning.ingest(failing('a', 1, 'p1'));
    const { negative } = await h.learning.ingest(failing('b', 2, 'p2'));
    assert.equal(h.learning.warnings('deploy a preview for review').block, '', 'not before approval');
    await h.learning.approve(negative!.id);
    const related = h.learning.warnings('please deploy a preview environment for my branch');
    assert.match(related.block, /^<skill_warnings>/);
    assert.match(related.block, /Avoid calling `deploy_preview`/);
    assert.equal(h.learning.warnings('what is the weather in Oslo').block, '');
    assert.equal(h.service.inspect(negative!.candidate.name), undefined, 'lessons are not positive skills');
  });
});
