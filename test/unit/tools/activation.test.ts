import { strict as assert } from 'node:assert';
import { NO_SUCH_TOOL_MESSAGE } from '../../../src/core/tools/toolText';
import { ToolSearchConfigError } from '../../../src/core/tools/toolSearchService';
import { SAMPLE_TOOLS, makeService } from './helpers';

describe('activation', () => {
  it('deferred tools are hidden; always-loaded ones are visible', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const run = await service.startRun();
    assert.deepEqual(
      run.visibleTools().map((t) => t.name),
      ['tool_search'],
    );
    const blocks = run.promptBlocks();
    assert.equal(blocks.length, 2);
    assert.match(blocks[0], /<tool_discovery>/);
    assert.match(blocks[1], /<available_deferred_tools>[\s\S]*github: mcp_github_create_issue, mcp_github_list_issues/);
  });

  it('activateOn discovery: found tools become visible for the next round, with an event', async () => {
    const { service, events } = await makeService({ tools: SAMPLE_TOOLS });
    const run = await service.startRun();
    const result = run.search({ query: 'github issue', limit: 2 });
    assert.ok(result.ok);
    const found = result.output.tools.map((t) => t.name);
    assert.ok(found.every((n) => run.isVisible(n)));
    const activated = events.ofType('tool_activated');
    assert.deepEqual(
      activated.map((e) => e.payload.tool_name),
      found,
    );
    assert.deepEqual(Object.keys(activated[0].payload).slice(0, 4), ['tool_name', 'activation_scope', 'source', 'reason']);
    assert.equal(activated[0].payload.source, 'discovery');
    assert.equal(activated[0].payload.activation_scope, 'run');
    const resolved = run.resolveCall(found[0]);
    assert.ok(resolved.ok && !resolved.activated);
    assert.equal(run.listActivations().find((a) => a.toolName === found[0])?.calls, 1);
  });

  it('a search with activate: false (a person searching) finds the same tools but activates nothing', async () => {
    const { service, events } = await makeService({ tools: SAMPLE_TOOLS });
    const run = await service.startRun();
    const peek = run.search({ query: 'github issue', limit: 2 }, { activate: false });
    assert.ok(peek.ok && peek.output.tools.length > 0);
    assert.ok(peek.output.tools.every((t) => !run.isVisible(t.name)));
    assert.equal(events.ofType('tool_activated').length, 0);
    const real = run.search({ query: 'github issue', limit: 2 });
    assert.ok(real.ok);
    assert.deepEqual(
      real.output.tools.map((t) => t.name),
      peek.output.tools.map((t) => t.name),
    );
  });

  it('activateOn firstUse: search does not activate; a call activates and runs', async () => {
    const { service, events } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { activateOn: 'firstUse' } });
    const run = await service.startRun();
    assert.ok(run.search({ query: 'weather' }).ok);
    assert.ok(!run.isVisible('weather.get_forecast'));
    const resolved = run.resolveCall('weather.get_forecast');
    assert.ok(resolved.ok && resolved.activated);
    assert.ok(run.isVisible('weather.get_forecast'));
    assert.equal(events.ofType('tool_activated')[0].payload.source, 'first_use');
  });

  it('unknown, denied and hidden tools get the same error; denied event carries no name', async () => {
    const { service, events } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { deny: ['run_in_terminal'] } });
    const run = await service.startRun({ isVisible: (t) => t.name !== 'copilot_readFile' });
    const answers = ['nope', 'run_in_terminal', 'copilot_readFile'].map((n) => run.resolveCall(n));
    for (const a of answers) assert.deepEqual(a, { ok: false, error: NO_SUCH_TOOL_MESSAGE });
    for (const e of events.ofType('tool_activation_denied')) {
      assert.ok(!JSON.stringify(e.payload).includes('run_in_terminal') && !JSON.stringify(e.payload).includes('copilot_readFile'));
      assert.equal(e.payload.reason, 'not_found_or_not_permitted');
    }
  });

  it('run scope: activations do not cross runs', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS });
    const a = await service.startRun();
    a.resolveCall('copilot_readFile');
    const b = await service.startRun();
    assert.ok(a.isVisible('copilot_readFile'));
    assert.ok(!b.isVisible('copilot_readFile'));
  });

  it('session scope without a session id is refused (fail closed)', async () => {
    const { service, events } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { activationScope: 'session' } });
    await assert.rejects(service.startRun(), ToolSearchConfigError);
    assert.equal(events.ofType('tool_activation_denied')[0].payload.reason, 'session_scope_without_session_id');
  });

  it('session scope: sticky within a session, isolated across sessions, export/import/clear', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { activationScope: 'session' } });
    await service.withRun({ sessionId: 's1' }, (run) => {
      assert.ok(run.resolveCall('copilot_readFile').ok);
    });
    await service.withRun({ sessionId: 's1' }, (run) => {
      assert.ok(run.isVisible('copilot_readFile'));
    });
    await service.withRun({ sessionId: 's2' }, (run) => {
      assert.ok(!run.isVisible('copilot_readFile'));
    });
    const snapshot = service.exportSession('s1');
    assert.deepEqual(
      snapshot.activations.map((a) => [a.toolName, a.source, a.calls]),
      [['copilot_readFile', 'first_use', 1]],
    );
    assert.equal(service.listActivations()[0].sessionId, 's1');
    service.clearActivations('s1');
    await service.withRun({ sessionId: 's1' }, (run) => {
      assert.ok(!run.isVisible('copilot_readFile'));
    });
    const restored = JSON.parse(JSON.stringify({ ...snapshot, sessionId: 's3' }));
    assert.equal(await service.importSession(restored), 1);
    await service.withRun({ sessionId: 's3' }, (run) => {
      assert.ok(run.isVisible('copilot_readFile'));
    });
    await assert.rejects(service.importSession({ version: 9 }), ToolSearchConfigError);
  });

  it('imported activations of tools later denied stay invisible and unexported', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { activationScope: 'session' } });
    await service.importSession({
      version: 1,
      sessionId: 's',
      activations: [{ toolName: 'run_in_terminal', source: 'discovery', reason: 'r', activatedAt: 1, calls: 0 }],
    });
    service.updateConfig({ toolSearch: { deny: ['run_in_terminal'] } });
    await service.withRun({ sessionId: 's' }, (run) => {
      assert.ok(!run.isVisible('run_in_terminal'));
      assert.deepEqual(run.listActivations(), []);
    });
    assert.deepEqual(service.exportSession('s').activations, []);
    assert.deepEqual(service.listActivations(), []);
  });

  it('concurrency: many parallel runs over many sessions, no bleed-over, same-session runs serialised', async () => {
    const tools = Array.from({ length: 40 }, (_, i) => ({ name: `tool_${i}`, description: `Capability number ${i} for widgets.` }));
    const { service } = await makeService({ tools, toolSearch: { activationScope: 'session' } });
    const sessions = 8;
    const perSession = 5;
    const inSession = new Map<string, number>();
    let overlap = false;
    const tasks: Array<Promise<void>> = [];
    for (let r = 0; r < perSession; r++) {
      for (let s = 0; s < sessions; s++) {
        const sessionId = `s${s}`;
        tasks.push(
          service.withRun({ sessionId }, async (run) => {
            inSession.set(sessionId, (inSession.get(sessionId) ?? 0) + 1);
            if (inSession.get(sessionId)! > 1) overlap = true;
            // Each session only ever touches its own tools: tool_{s}, tool_{s+8}, …
            const mine = `tool_${s + sessions * r}`;
            assert.ok(run.resolveCall(mine).ok);
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
            for (const visible of run.visibleTools()) {
              const n = Number(visible.name.split('_')[1]);
              assert.equal(n % sessions, s, `session ${sessionId} sees ${visible.name}`);
            }
            inSession.set(sessionId, inSession.get(sessionId)! - 1);
          }),
        );
      }
    }
    await Promise.all(tasks);
    assert.ok(!overlap, 'two runs of one session overlapped');
    for (let s = 0; s < sessions; s++) {
      const names = service
        .exportSession(`s${s}`)
        .activations.map((a) => a.toolName)
        .sort();
      assert.deepEqual(names, Array.from({ length: perSession }, (_, r) => `tool_${s + sessions * r}`).sort());
    }
  });

  it('an ended run refuses further use; mode off makes every permitted tool visible', async () => {
    const { service } = await makeService({ tools: SAMPLE_TOOLS, toolSearch: { mode: 'off' } });
    const run = await service.startRun({ isVisible: (t) => t.name !== 'run_in_terminal' });
    assert.equal(run.visibleTools().length, SAMPLE_TOOLS.length - 1);
    assert.deepEqual(run.promptBlocks(), []);
    run.end();
    assert.throws(() => run.search({ query: 'x' }), /has ended/);
  });
});
