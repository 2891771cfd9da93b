import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { HALF_LIFE_MS, MAX_PRIOR, applyPickPrior, decay, pickPriors } from '../../../../src/core/tools/pickPrior/pickPrior';
import type { PickRecord } from '../../../../src/core/tools/pickPrior/pickPrior';
import { PICK_LOG_CAP, queryTermsForLog } from '../../../../src/core/tools/pickPrior/toolPickLog';
import { makeService } from '../helpers';
import type { ToolInput } from '../../../../src/core/tools/toolRecord';

const NOW = 1_800_000_000_000;
const pick = (terms: string, tool: string, succeeded = true, ageDays = 0): PickRecord => ({
  terms: terms.split(' '),
  tool,
  succeeded,
  at: NOW - ageDays * 86_400_000,
});

describe('pick prior (learning from tool_search picks)', () => {
  it('is bounded below +0.1 however much evidence there is', () => {
    const picks = Array.from({ length: 5000 }, () => pick('weather forecast', 'w'));
    const prior = pickPriors(['weather', 'forecast'], picks, NOW).get('w')!;
    assert.ok(prior > 0.09 && prior <= MAX_PRIOR, String(prior));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            terms: fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 4 }),
            tool: fc.constantFrom('x', 'y'),
            succeeded: fc.boolean(),
            at: fc.integer({ min: 0, max: NOW * 2 }),
          }),
        ),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd')),
        (records, query) => {
          for (const value of pickPriors(query, records, NOW).values()) assert.ok(value >= 0 && value <= MAX_PRIOR);
        },
      ),
    );
  });

  it('decays with a 30-day half-life', () => {
    assert.equal(decay(HALF_LIFE_MS), 0.5);
    assert.equal(decay(0), 1);
    const fresh = pickPriors(['deploy'], [pick('deploy', 't', true, 0)], NOW).get('t')!;
    const month = pickPriors(['deploy'], [pick('deploy', 't', true, 30)], NOW).get('t')!;
    const year = pickPriors(['deploy'], [pick('deploy', 't', true, 365)], NOW).get('t') ?? 0;
    assert.ok(fresh > month && month > year, `${fresh} > ${month} > ${year}`);
    assert.ok(year < 0.0005);
  });

  it('failures never lift, and unrelated queries are not lifted', () => {
    assert.equal(pickPriors(['deploy'], [pick('deploy', 't', false)], NOW).size, 0);
    assert.equal(pickPriors(['weather'], [pick('deploy app', 't')], NOW).size, 0);
  });

  it('reorders only what the search returned, within the bound', () => {
    const hits = [
      { name: 'a', score: 0.9 },
      { name: 'b', score: 0.85 },
      { name: 'c', score: 0.5 },
    ];
    const lifted = applyPickPrior(
      hits,
      new Map([
        ['b', 0.09],
        ['c', 0.09],
        ['denied_tool', 0.09],
      ]),
    );
    assert.deepEqual(
      lifted.map((h) => h.name),
      ['b', 'a', 'c'],
    );
    assert.equal(lifted.length, 3, 'a name with a prior that the search did not return is never added');
    assert.ok(Math.abs(lifted.find((h) => h.name === 'c')!.score - 0.59) < 1e-9);
    assert.ok(lifted.every((h) => h.score <= 1));
  });

  it('keeps only words of the query: secrets and ids are not stored', () => {
    const terms = queryTermsForLog('deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789 to alice@example.com order 123456');
    assert.ok(
      terms.some((t) => t.startsWith('deplo')),
      terms.join(' '),
    );
    assert.ok(!terms.some((t) => /ghp|abcdefghij|alice|example|123456/.test(t)), terms.join(' '));
  });
});

describe('pick log in the tool index database', () => {
  const tools: ToolInput[] = [
    { name: 'mcp_cloud_deploy_service', description: 'Deploy a service to the cloud.' },
    { name: 'mcp_cloud_deploy_function', description: 'Deploy a function to the cloud.' },
    { name: 'mcp_cloud_secret_vault', description: 'Store a deploy secret in the vault.' },
  ];

  it('a picked-and-worked tool is lifted for a similar later query; learnFromUse false turns it off', async () => {
    const { service } = await makeService({ tools });
    const first = await service.startRun({ sessionId: 's1' });
    const before = first.search({ query: 'deploy to the cloud' });
    assert.ok(before.ok);
    const second = before.output.tools[1]!;
    assert.ok(before.output.tools[0]!.score - second.score < 0.05, 'a close runner-up');
    const last = second.name;
    first.resolveCall(last);
    first.recordOutcome(last, true);
    first.end();
    assert.equal(service.pickLog.picks().length, 1);
    const next = await service.startRun({ sessionId: 's2' });
    const after = next.search({ query: 'deploy to cloud' });
    assert.ok(after.ok);
    assert.equal(after.output.tools[0]!.name, last, 'the worked pick now ranks first');
    next.end();
    service.updateConfig({ toolSearch: { learnFromUse: false } });
    const third = await service.startRun({ sessionId: 's3' });
    const off = third.search({ query: 'deploy to cloud' });
    assert.ok(off.ok);
    assert.deepEqual(
      off.output.tools.map((t) => t.name),
      before.output.tools.map((t) => t.name),
      'without learning: the ranker order',
    );
  });

  it('a failed call does not lift; a denied tool is never revealed by its past picks', async () => {
    const { service } = await makeService({ tools });
    const run = await service.startRun({ sessionId: 's' });
    const found = run.search({ query: 'deploy cloud secret' });
    assert.ok(found.ok);
    for (const tool of found.output.tools) run.recordOutcome(tool.name, tool.name !== 'mcp_cloud_secret_vault');
    run.end();
    service.updateConfig({ toolSearch: { deny: ['mcp_cloud_secret_*'] } });
    const later = await service.startRun({ sessionId: 't' });
    const again = later.search({ query: 'deploy cloud secret', limit: 20 });
    assert.ok(again.ok && !JSON.stringify(again.output).includes('mcp_cloud_secret_vault'));
  });

  it('the table is capped and survives a save and reload of the index', async () => {
    const { service, store } = await makeService({ tools });
    const run = await service.startRun({ sessionId: 's' });
    for (let i = 0; i < PICK_LOG_CAP + 50; i++) service.pickLog.recordSearch('s', `deploy service number ${i % 7}`, ['mcp_cloud_deploy_service'], i);
    assert.equal(service.pickLog.size(), PICK_LOG_CAP);
    assert.ok(service.pickLog.recordOutcome('s', 'mcp_cloud_deploy_service', true, PICK_LOG_CAP + 60));
    run.end();
    await service.dispose();
    const { service: reopened } = await makeService({ store });
    assert.equal(reopened.pickLog.picks().length, 1);
  });

  it('a result list is written off the tool_search path, and still reaches the saved database and the next pick', async () => {
    const { service, store } = await makeService({ tools });
    const run = await service.startRun({ sessionId: 's' });
    const found = run.search({ query: 'deploy a function' });
    assert.ok(found.ok);
    run.end();
    await service.dispose(); // saves: the queued list is flushed into the bytes
    const { service: reopened } = await makeService({ store });
    assert.equal(reopened.pickLog.size(), 1, 'the list shown before the save');
    assert.ok(reopened.pickLog.recordOutcome('s', found.output.tools[0]!.name, true, 60_000), 'a later call still finds it');
    assert.equal(reopened.pickLog.picks().length, 1);
  });
});
