import { strict as assert } from 'node:assert';
import { nullLogger } from '../../../src/core/platform/basicPorts';
import { HOST_LIST_POLL_MS, HOST_LIST_SETTLING_POLL_MS, HostToolCatalog, pollHostToolList } from '../../../src/core/tools/hostToolCatalog';
import type { ToolSearchService } from '../../../src/core/tools/toolSearchService';
import { makeService } from './helpers';

/** A tool as VS Code hands it out: one frozen object per tool, replaced when the tool changes. */
interface HostTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object | undefined;
  readonly tags: readonly string[];
}

const tool = (name: string, description: string): HostTool =>
  Object.freeze({ name, description, inputSchema: { type: 'object', properties: {} }, tags: Object.freeze([]) });

/** A host whose list can be edited and whose reads are counted. */
function fakeHost(initial: HostTool[]) {
  const host = { tools: initial, reads: 0 };
  return {
    host,
    readTools: () => {
      host.reads++;
      return [...host.tools];
    },
  };
}

function catalogOver(
  service: ToolSearchService,
  readTools: () => readonly HostTool[],
  hasChangeEvent: boolean,
  timing: { maxStaleMs?: number; now?: () => number; settlingQuietMs?: number } = {},
) {
  return new HostToolCatalog<HostTool>({
    service,
    logger: nullLogger,
    readTools,
    toInput: (t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, tags: [...t.tags] }),
    hasChangeEvent,
    ...timing,
  });
}

async function searchNames(service: ToolSearchService, query: string): Promise<string[]> {
  return service.withRun({}, (run) => {
    const result = run.search({ query, include_always_loaded: true });
    return result.ok ? result.output.tools.map((t) => t.name) : [];
  });
}

describe('host tool catalog sync (vscode.lm.tools → tool index)', () => {
  it('a re-read list of the same tool objects does not touch the catalog', async () => {
    const { service } = await makeService();
    const { readTools } = fakeHost([tool('alpha_tool', 'Reads alpha records.'), tool('beta_tool', 'Writes beta records.')]);
    const catalog = catalogOver(service, readTools, false);
    assert.deepEqual(catalog.sync(), { size: 2, changed: true });
    const version = service.catalogVersion;
    for (let i = 0; i < 5; i++) assert.deepEqual(catalog.sync(), { size: 2, changed: false });
    assert.equal(service.catalogVersion, version, 'no setTools call for an unchanged list');
  });

  it('with a change event, sync does not even read the host list until the event fires', async () => {
    const { service } = await makeService();
    const { host, readTools } = fakeHost([tool('alpha_tool', 'Reads alpha records.')]);
    const catalog = catalogOver(service, readTools, true);
    catalog.sync();
    const reads = host.reads;
    for (let i = 0; i < 10; i++) catalog.sync();
    assert.equal(host.reads, reads);
    host.tools = [...host.tools, tool('gamma_tool', 'Publishes gamma reports.')];
    assert.equal(catalog.sync().size, 1, 'no event yet: the last known list');
    catalog.markChanged();
    assert.deepEqual(catalog.sync(), { size: 2, changed: true });
    assert.deepEqual(await searchNames(service, 'gamma reports'), ['gamma_tool']);
  });

  it('without a change event, re-reads the list only when the last read is older than maxStaleMs, or when asked for fresh', async () => {
    const { service } = await makeService();
    const { host, readTools } = fakeHost([tool('alpha_tool', 'Reads alpha records.')]);
    let now = 0;
    const catalog = catalogOver(service, readTools, false, { maxStaleMs: 1000, now: () => now });
    catalog.sync();
    host.tools = [...host.tools, tool('gamma_tool', 'Publishes gamma reports.')];
    now = 999;
    assert.deepEqual(catalog.sync(), { size: 1, changed: false });
    assert.equal(host.reads, 1);
    assert.deepEqual(catalog.sync({ fresh: true }), { size: 2, changed: true });
    host.tools = [host.tools[1]];
    now = 2100;
    assert.deepEqual(catalog.sync(), { size: 1, changed: true });
    assert.equal(host.reads, 3);
  });

  it('re-indexes a description changed to one of the same length (no length fingerprint)', async () => {
    const { service } = await makeService();
    const { host, readTools } = fakeHost([tool('alpha_tool', 'Finds the weather forecast.')]);
    const catalog = catalogOver(service, readTools, false);
    catalog.sync();
    const changed = 'Finds the harbour schedule.';
    assert.equal(changed.length, host.tools[0].description.length);
    host.tools = [tool('alpha_tool', changed)];
    assert.equal(catalog.sync().changed, true);
    assert.deepEqual(await searchNames(service, 'harbour schedule'), ['alpha_tool']);
    assert.deepEqual(await searchNames(service, 'weather forecast'), []);
  });

  it('counts deferred tools for the sidebar, recounted after tool and settings changes', async () => {
    const { service } = await makeService();
    const { host, readTools } = fakeHost([tool('alpha_tool', 'Reads alpha records.'), tool('beta_tool', 'Writes beta records.')]);
    const catalog = catalogOver(service, readTools, false);
    catalog.sync();
    assert.equal(catalog.deferredCount(), 2);
    host.tools = [...host.tools, tool('gamma_tool', 'Publishes gamma reports.')];
    catalog.sync();
    assert.equal(catalog.deferredCount(), 3);
    service.updateConfig({ toolSearch: { alwaysLoadedPatterns: ['alpha_*'] } });
    assert.equal(catalog.deferredCount(), 2);
  });

  it('keeps removed tools out of search', async () => {
    const { service } = await makeService();
    const { host, readTools } = fakeHost([tool('alpha_tool', 'Reads alpha records.'), tool('beta_tool', 'Writes beta records.')]);
    const catalog = catalogOver(service, readTools, false);
    catalog.sync();
    host.tools = [host.tools[0]];
    assert.deepEqual(catalog.sync(), { size: 1, changed: true });
    assert.deepEqual(await searchNames(service, 'beta'), []);
  });

  it('a read that adds, removes or redefines a tool starts settling; the first read and a reorder do not', async () => {
    const { service } = await makeService();
    const { host, readTools } = fakeHost([tool('alpha_tool', 'Reads alpha records.'), tool('beta_tool', 'Writes beta records.')]);
    let now = 0;
    const catalog = catalogOver(service, readTools, false, { now: () => now, settlingQuietMs: 800 });
    catalog.sync();
    assert.equal(catalog.isSettling, false, 'the first read is the baseline');
    host.tools = [host.tools[1], host.tools[0]];
    catalog.sync({ fresh: true });
    assert.equal(catalog.isSettling, false, 'a reordered list is no change');
    for (const edit of [
      () => {
        host.tools = [...host.tools, tool('mcp_echo', 'Echoes text.')];
      },
      () => {
        host.tools = host.tools.slice(1);
      },
      () => {
        host.tools = [tool(host.tools[0].name, 'Reads alpha records, paged.'), ...host.tools.slice(1)];
      },
    ]) {
      now += 10_000;
      assert.equal(catalog.isSettling, false);
      edit();
      catalog.sync({ fresh: true });
      assert.equal(catalog.isSettling, true);
      assert.equal(catalog.pollDelayMs(), HOST_LIST_SETTLING_POLL_MS, 'polls faster while settling');
      now += 800;
      catalog.sync({ fresh: true });
      assert.equal(catalog.isSettling, false, 'quiet for 800 ms');
      assert.equal(catalog.pollDelayMs(), HOST_LIST_POLL_MS);
    }
  });

  it('the poll reads the list on its own timer (faster while settling), reports a failed read and goes on, stops when disposed', async () => {
    const { service } = await makeService();
    const { host, readTools } = fakeHost([tool('alpha_tool', 'Reads alpha records.')]);
    let now = 0;
    let failNext = false;
    const catalog = catalogOver(
      service,
      () => {
        if (failNext) {
          failNext = false;
          throw new Error('host went away');
        }
        return readTools();
      },
      false,
      { now: () => now, maxStaleMs: 3000 },
    );
    catalog.sync();
    const pending: Array<{ callback: () => void; ms: number }> = [];
    const errors: unknown[] = [];
    const poll = pollHostToolList(catalog, (error) => errors.push(error), {
      setTimeout: (callback, ms) => pending.push({ callback, ms }),
      clearTimeout: () => pending.splice(0),
    });
    const tick = () => {
      const next = pending.shift();
      assert.ok(next, 'a poll is scheduled');
      now += next.ms;
      next.callback();
      return next.ms;
    };
    const reads = host.reads;
    assert.equal(tick(), HOST_LIST_POLL_MS);
    assert.equal(host.reads, reads + 1, 'each poll reads the list once');
    host.tools = [...host.tools, tool('mcp_echo', 'Echoes text.')];
    assert.equal(tick(), HOST_LIST_POLL_MS);
    assert.deepEqual(await searchNames(service, 'echoes text'), ['mcp_echo'], 'the poll indexed the new tool');
    assert.equal(tick(), HOST_LIST_SETTLING_POLL_MS, 'settling: the next read comes sooner');
    const before = host.reads;
    catalog.sync();
    assert.equal(host.reads, before, 'the search path does not read while the poll keeps up');
    failNext = true;
    tick();
    assert.equal(errors.length, 1);
    assert.equal(pending.length, 1, 'a failed read does not stop the poll');
    poll.dispose();
    assert.equal(pending.length, 0);
  });
});
