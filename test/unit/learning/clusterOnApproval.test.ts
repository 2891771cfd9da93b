import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { CLUSTER_SIMILARITY, suggestCluster } from '../../../src/core/learning/approval/clusterSuggestion';
import { proposalToSkillMarkdown, skillMarkdownToCandidate } from '../../../src/core/learning/approval/proposalDocument';
import { pack, stepSkill, tempDir, writeTree } from '../skills/helpers';
import { makeLearning, turn } from './helpers';

const WEATHER = 'fixture_weather_forecast';
const ISSUE = 'fixture_create_issue';
const weatherTurn = turn('Check the weather forecast in Oslo and Bergen, then create an issue with the summary', [
  { tool: WEATHER, input: { city: 'Oslo' }, ok: true },
  { tool: WEATHER, input: { city: 'Bergen' }, ok: true },
  { tool: ISSUE, input: { title: 'Forecast', body: 'sunny' }, ok: true },
]);
const deployTurn = turn('Rotate the staging database password and restart the payment service', [
  { tool: 'fixture_rotate_secret', input: { name: 'db' }, ok: true },
  { tool: 'fixture_restart_service', input: { name: 'payments' }, ok: true },
]);

/** A pack with a weather skill in "Weather Desk" and an unrelated one in "Deploys". */
async function withClusteredPack(h: Awaited<ReturnType<typeof makeLearning>>): Promise<void> {
  const root = tempDir();
  writeTree(root, {
    'weather.skill.yaml': stepSkill(
      'desk.forecast',
      'When someone asks for the weather forecast of a city and wants it filed as an issue',
      [`Call ${WEATHER} for each city.`, `Create an issue with ${ISSUE} holding the summary.`],
      'cluster: Weather Desk\n',
    ),
    'deploy.skill.yaml': stepSkill('ops.deploy', 'Deploy the staging build', ['Run the pipeline.'], 'cluster: Deploys\n'),
  });
  await h.service.loadPacks([pack('team', root)]);
}

describe('learning: a learned skill gets a cluster on approval', () => {
  it('suggestCluster: the most similar clustered peer wins; ties go to the first name; below the threshold there is none', () => {
    const candidate = { trigger: 'check the weather forecast for a city', steps: ['call the forecast tool'] };
    const peers = [
      { name: 'b.weather', trigger: 'check the weather forecast for a city', steps: ['call the forecast tool'], cluster: 'Weather' },
      { name: 'a.weather', trigger: 'check the weather forecast for a city', steps: ['call the forecast tool'], cluster: 'Forecasts' },
      { name: 'deploy', trigger: 'deploy the staging build', steps: ['run the pipeline'], cluster: 'Deploys' },
      { name: 'same.no.cluster', trigger: 'check the weather forecast for a city', steps: ['call the forecast tool'], cluster: '  ' },
    ];
    assert.deepEqual(suggestCluster(candidate, peers), { cluster: 'Forecasts', from: 'a.weather', score: 1 });
    assert.equal(suggestCluster(candidate, [peers[2]!]), undefined, 'nothing similar enough: no cluster');
    assert.equal(suggestCluster(candidate, [peers[3]!]), undefined, 'a blank cluster is no cluster');
  });

  it('property: a suggestion always comes from a peer at or above the threshold, and peer order does not change it', () => {
    const words = fc.constantFrom('weather', 'forecast', 'city', 'deploy', 'build', 'issue', 'summary', 'login', 'page');
    const text = fc.array(words, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    const peer = fc.record({
      name: fc.string({ minLength: 1, maxLength: 6 }),
      trigger: text,
      steps: fc.array(text, { maxLength: 3 }),
      cluster: fc.constantFrom('A', 'B', '', undefined),
    });
    fc.assert(
      fc.property(fc.record({ trigger: text, steps: fc.array(text, { maxLength: 3 }) }), fc.array(peer, { maxLength: 8 }), (candidate, peers) => {
        const suggestion = suggestCluster(candidate, peers);
        assert.deepEqual(suggestCluster(candidate, [...peers].reverse()), suggestion);
        if (suggestion) {
          assert.ok(suggestion.score >= CLUSTER_SIMILARITY);
          assert.ok(peers.some((p) => p.name === suggestion.from && p.cluster === suggestion.cluster));
        }
      }),
    );
  });

  it('approving takes the cluster of the most similar skill; an unrelated one gets none', async () => {
    const h = await makeLearning();
    await withClusteredPack(h);
    const weather = (await h.learning.ingest(weatherTurn)).proposal!;
    assert.equal(h.learning.suggestedCluster(weather.candidate)?.from, 'desk.forecast');
    const approved = await h.learning.approve(weather.id);
    assert.equal(approved.status === 'approved' && approved.cluster, 'Weather Desk');
    assert.equal(h.service.inspect(weather.candidate.name)?.meta.cluster, 'Weather Desk');
    assert.ok(h.learningEvents.events.some((e) => e.type === 'skill_ingested' && e.payload.action === 'approved' && e.payload.cluster === 'Weather Desk'));

    const deploy = (await h.learning.ingest(deployTurn)).proposal!;
    const plain = await h.learning.approve(deploy.id);
    assert.equal(plain.status, 'approved');
    assert.equal(h.service.inspect(deploy.candidate.name)?.meta.cluster, undefined, 'not similar enough to "Deploys": no cluster');
  });

  it('the cluster is editable in the proposal document: changed, or deleted for none', async () => {
    for (const [edit, expected] of [
      [(t: string) => t.replace('cluster: Weather Desk', 'cluster: Forecast Team'), 'Forecast Team'],
      [(t: string) => t.replace(/^cluster: .*\n/m, ''), undefined],
    ] as const) {
      const h = await makeLearning();
      await withClusteredPack(h);
      const proposal = (await h.learning.ingest(weatherTurn)).proposal!;
      const text = proposalToSkillMarkdown(proposal.candidate, h.learning.suggestedCluster(proposal.candidate));
      assert.match(text, /^cluster: Weather Desk$/m);
      assert.match(text, /taken from the most similar skill, desk\.forecast/);
      const parsed = skillMarkdownToCandidate(edit(text), '/tmp/x.skill.md', proposal.candidate);
      assert.ok('candidate' in parsed, JSON.stringify(parsed));
      await h.learning.edit(proposal.id, parsed.candidate);
      await h.learning.approve(proposal.id);
      assert.equal(h.service.inspect(proposal.candidate.name)?.meta.cluster, expected);
    }
  });
});
