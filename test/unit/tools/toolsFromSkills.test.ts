import { strict as assert } from 'node:assert';
import { SAMPLE_TOOLS, makeService } from './helpers';

describe('ToolRun.preActivate (tools from skills)', () => {
  it('activates only permitted deferred tools, up to max, in order, with source "skill"', async () => {
    const { service, events } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { deny: ['run_in_terminal'] } });
    const run = await service.startRun({ isVisible: (t) => t.name !== 'copilot_readFile' });
    const names = [
      'run_in_terminal',
      'copilot_readFile',
      'nope',
      'tool_search',
      'mcp_github_create_issue',
      'mcp_github_create_issue',
      'weather.get_forecast',
      'mcp_github_list_issues',
    ];
    const activated = run.preActivate(names, 2, 'named by a skill');
    assert.deepEqual(activated, ['mcp_github_create_issue', 'weather.get_forecast']);
    assert.ok(activated.every((name) => run.isVisible(name)));
    for (const name of ['run_in_terminal', 'copilot_readFile', 'mcp_github_list_issues']) assert.ok(!run.isVisible(name), name);
    const payloads = events.ofType('tool_activated').map((e) => e.payload);
    assert.deepEqual(
      payloads.map((p) => [p.tool_name, p.source, p.activation_scope]),
      [
        ['mcp_github_create_issue', 'skill', 'run'],
        ['weather.get_forecast', 'skill', 'run'],
      ],
    );
    assert.deepEqual(run.preActivate(activated, 3, 'again'), [], 'already active: nothing to do, nothing counted');
  });

  it('session scope: the activation belongs to the session and the next run of it sees the tool', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { activationScope: 'session' } });
    const first = await service.startRun({ sessionId: 's1' });
    assert.deepEqual(first.preActivate(['weather.get_forecast'], 3, 'skill'), ['weather.get_forecast']);
    first.end();
    const second = await service.startRun({ sessionId: 's1' });
    assert.ok(second.isVisible('weather.get_forecast'));
    second.end();
    const other = await service.startRun({ sessionId: 's2' });
    assert.ok(!other.isVisible('weather.get_forecast'));
    other.end();
  });

  it('nothing deferred (mode off): nothing to activate', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { mode: 'off' } });
    const run = await service.startRun();
    assert.deepEqual(run.preActivate(['weather.get_forecast', 'mcp_github_create_issue'], 3, 'skill'), []);
  });

  it('selectionExchange: the select: search for named tools, as tool_search would answer it — computed only (no event, no activation, never a denied name)', async () => {
    const { service, events } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { deny: ['run_in_terminal'] } });
    const run = await service.startRun();
    const before = events.events.length;
    const exchange = run.selectionExchange(['weather.get_forecast', 'run_in_terminal', 'nope']);
    assert.equal(exchange?.query, 'select:weather.get_forecast');
    assert.deepEqual(
      exchange?.output.tools.map((t) => t.name),
      ['weather.get_forecast'],
    );
    assert.equal(exchange?.output.search_type, 'exact');
    assert.ok(!JSON.stringify(exchange).includes('run_in_terminal'));
    // The same answer a real select: search gives (minus the event and activation it causes).
    const real = run.search({ query: 'select:weather.get_forecast' }, { activate: false });
    assert.ok(real.ok);
    assert.deepEqual(exchange?.output, real.output);
    assert.equal(events.events.slice(before).filter((e) => e.type !== 'tool_search_query').length, 0);
    assert.equal(events.events.slice(before).filter((e) => e.type === 'tool_search_query').length, 1, 'only the real search logged a query');
    assert.ok(!run.isVisible('weather.get_forecast'), 'nothing activated');
    assert.equal(run.selectionExchange(['run_in_terminal']), undefined, 'nothing permitted: no exchange');
  });
});
