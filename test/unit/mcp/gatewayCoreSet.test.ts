import { strict as assert } from 'node:assert';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readSettings } from '../../../src/core/config/readSettings';
import { CORE_SET_RULES } from '../../../src/core/ledger/learnedCoreSet';
import { readLastDecisions } from '../../../src/core/runtimes/doors/doorDecision';
import { doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import { explainDoorDecisionMarkdown } from '../../../src/core/runtimes/doors/explainDoorDecision';
import type { ToolshedSettings } from '../../../src/core/config/settingsSchema';
import { gatewayDoorRecorder } from '../../../src/mcp/gateway/gatewayLedger';
import { catalog, connectGateway, nextEvent, textOf } from './gatewayHarness';
import type { ConnectedGateway } from './gatewayHarness';
import { tempFolder } from '../../tempFolder';

/**
 * The gateway's learned core set with a real upstream process and a real SDK client: a tool the
 * model had to search for in enough episodes is listed directly — in the same session (with
 * `tools/list_changed`) and in the next session for the workspace — while a denied tool or one
 * the user gave a state never is, and an idle one is demoted. The set is folded from the door
 * journal the gateway's ledger lines go to.
 */

const TOOLS = [
  { name: 'forecast_weather', description: 'Get the weather forecast for a city for the next days.' },
  { name: 'convert_currency', description: 'Convert an amount of money from one currency to another.' },
  { name: 'list_files', description: 'List the files in a folder of the project.' },
];
const WEATHER = 'mcp_cat_forecast_weather';
const CURRENCY = 'mcp_cat_convert_currency';

describe('MCP gateway: the learned core set', function () {
  let dir: string;
  let home: string;
  let workspace: string;
  let file: string;
  const open: ConnectedGateway[] = [];

  before(() => {
    dir = tempFolder('toolshed-coreset-');
    home = path.join(dir, 'home');
    workspace = path.join(dir, 'workspace');
    file = path.join(dir, 'catalog.jsonl');
    writeFileSync(file, TOOLS.map((tool) => JSON.stringify({ ...tool, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } })).join('\n'));
  });

  afterEach(async () => {
    for (const connected of open.splice(0)) await connected.close();
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A gateway session for the workspace, its ledger lines in the workspace's door journal (under `home`). */
  async function session(settings?: ToolshedSettings): Promise<ConnectedGateway> {
    const logs: string[] = [];
    const connected = await connectGateway({
      upstreams: [catalog('cat', file)],
      ledger: gatewayDoorRecorder(
        workspace,
        () => 'test-client',
        (line) => logs.push(line),
        home,
      ),
      coreSetFolder: doorFolderFor(workspace, home),
      ...(settings ? { settings } : {}),
    });
    open.push(connected);
    return connected;
  }

  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const findDescription = async (connected: ConnectedGateway) =>
    (await connected.client.listTools()).tools.find((tool) => tool.name === 'find_tools')?.description ?? '';

  it('a tool found by search and called in enough episodes is listed directly, then and in the next session; calls after one search count once', async () => {
    const first = await session();
    assert.deepEqual((await first.listToolNames()).sort(), ['call_tool', 'find_tools']);
    for (let episode = 1; episode <= CORE_SET_RULES.promoteAt; episode++) {
      const found = await first.find('weather forecast for a city');
      assert.match(found, new RegExp(`## ${WEATHER}`));
      const promoted = nextEvent(first.gateway.events, 'listed', () => first.gateway.learnedTools().includes(WEATHER));
      assert.match(textOf(await first.call(WEATHER, { q: 'Oslo' })), /"called":"forecast_weather"/);
      if (episode < CORE_SET_RULES.promoteAt) {
        // Called again after the same search: still one search the model needed (else 2 × 3 episodes would promote it).
        await first.call(WEATHER, { q: 'Bergen' });
        await turn();
        await turn();
        assert.deepEqual(first.gateway.learnedTools(), [], `not listed after ${episode} episodes`);
      } else await promoted;
    }
    // In this session: listed with its own schema (the SDK sends list_changed as it is registered).
    const listed = (await first.client.listTools()).tools.find((tool) => tool.name === WEATHER);
    assert.equal((listed?.inputSchema as { properties?: Record<string, unknown> }).properties?.q !== undefined, true);
    await turn(); // the notice is written after the change, as every ledger line
    const why = readLastDecisions(doorFolderFor(workspace, home)).decisions.find((d) => d.door === 'mcp');
    assert.equal(why?.action, 'learned_core_set');
    const explained = explainDoorDecisionMarkdown(why!);
    assert.match(explained, new RegExp(`${WEATHER} is listed directly since \\d{4}-\\d\\d-\\d\\dT.*learned core set.*without being listed`));
    await first.close();
    open.splice(0);

    const second = await session();
    assert.deepEqual((await second.listToolNames()).sort(), ['call_tool', 'find_tools', WEATHER]);
    assert.match(await findDescription(second), new RegExp(`no search needed.*${WEATHER}`));
    const direct = await second.client.callTool({ name: WEATHER, arguments: { q: 'Bergen' } });
    assert.match(textOf(direct as never), /"called":"forecast_weather"/);
    await turn();
    const call = readLastDecisions(doorFolderFor(workspace, home)).decisions.find((d) => d.door === 'mcp');
    assert.equal(call?.action, 'call_tool');
    assert.match(call?.note ?? '', /listed directly since .* \(learned core set\)/);
  });

  it('a promoted tool the policy now denies, or the user set to deferred or off, is listed nowhere (nor with learnCoreSet off)', async () => {
    const cases: Record<string, unknown>[] = [
      { toolSearch: { deny: [WEATHER] } },
      { tools: { state: { [WEATHER]: 'deferred' } } },
      { tools: { state: { 'mcp_cat_forecast_*': 'off' } } },
      // And with the setting off, the gateway lists no learned tool at all.
      { toolSearch: { learnCoreSet: false } },
    ];
    for (const raw of cases) {
      const connected = await session(readSettings(raw).settings);
      const names = await connected.listToolNames();
      assert.deepEqual(names.sort(), ['call_tool', 'find_tools'], JSON.stringify(raw));
      assert.doesNotMatch(await findDescription(connected), /forecast_weather|no search needed/);
      await connected.close();
      open.splice(0);
    }
  });

  it('a denied tool is never promoted, however often it is asked for', async () => {
    const connected = await session(readSettings({ toolSearch: { deny: [CURRENCY] } }).settings);
    for (let episode = 0; episode < CORE_SET_RULES.promoteAt + 2; episode++) {
      assert.doesNotMatch(await connected.find('convert money between currencies'), /convert_currency/);
      assert.equal((await connected.call(CURRENCY, { q: 'EUR' })).isError, true);
    }
    await turn();
    assert.deepEqual(connected.gateway.learnedTools(), [WEATHER]);
    assert.ok(!(await connected.listToolNames()).includes(CURRENCY));
  });

  it('an idle promoted tool is demoted once it is called in fewer than keepAt of the last window calls; a tool searched once is not promoted', async () => {
    const connected = await session();
    assert.deepEqual(connected.gateway.learnedTools(), [WEATHER]);
    await connected.find('list the files in a folder');
    // The journal so far: the weather tool's calls of the first test (two per episode but the last) and the second session's one.
    const weatherCalls = 2 * CORE_SET_RULES.promoteAt;
    const needed = CORE_SET_RULES.window - CORE_SET_RULES.keepAt + 1;
    let calls = 0;
    let demoted = false;
    const gone = nextEvent(connected.gateway.events, 'listed', () => !connected.gateway.learnedTools().includes(WEATHER)).then(() => (demoted = true));
    while (!demoted && calls < CORE_SET_RULES.window + weatherCalls) {
      await connected.call('mcp_cat_list_files', { q: 'src' });
      calls++;
      await turn();
    }
    await gone;
    assert.equal(calls, needed, 'demoted at the call that leaves one weather call in the window');
    assert.deepEqual(await connected.listToolNames().then((names) => names.sort()), ['call_tool', 'find_tools']);
    assert.deepEqual(connected.gateway.learnedTools(), [], 'list_files needed one search: not promoted for its many calls');
  });
});
