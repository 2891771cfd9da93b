/**
 * The gateway with `--expose found` inside the real runtimes: after the model's `find_tools` call
 * the gateway lists the found tool and sends `notifications/tools/list_changed`. Whether the
 * runtime lists tools again — so the model's next request carries the found tool as a real tool —
 * is the runtime's behaviour; these tests pin what each pinned runtime does (docs/harnesses.md,
 * "Found tools as real tools"), and where the call then goes: the found tool called directly, or
 * `call_tool`. Codex runs an MCP tool without asking only when it says it is read-only, so
 * `find_tools` runs there and `call_tool` waits for the user's approval (refused in `codex exec`).
 */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { GATEWAY_CALL_TOOL_NAME, GATEWAY_FIND_TOOL_NAME } from '../../src/core/platform/toolNames';
import { RUNTIMES, runRuntime, skipUnlessRunnable, scriptedModelPerTest } from './runtimeHarness';
import { tempFolder } from '../tempFolder';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const CATALOG_SERVER = path.join(ROOT, 'test', 'fixtures', 'mcp', 'catalogServer.mjs');
const FOUND = 'mcp_billing_create_invoice';
const PROMPT = 'Bill ACME for the March consulting work: 12 hours at 150 EUR.';

/** Whether the runtime lists tools again on `notifications/tools/list_changed` (measured). */
const REFRESHES: Record<string, boolean> = { copilot: true, claude: false, codex: false };

const endsWithTool = (name: string, tool: string): boolean => name === tool || name.endsWith(`-${tool}`) || name.endsWith(`__${tool}`);

function upstreamConfig(): string {
  const dir = tempFolder('toolshed-gx-');
  const catalog = path.join(dir, 'billing.jsonl');
  const tools = [
    { name: 'create_invoice', description: 'Create an invoice for a customer with line items (hours, rate, currency).' },
    { name: 'list_customers', description: 'List the customers of the billing account.' },
    { name: 'refund_payment', description: 'Refund a payment, wholly or in part.' },
  ];
  writeFileSync(catalog, tools.map((t) => JSON.stringify({ ...t, inputSchema: { type: 'object', properties: { customer: { type: 'string' } } } })).join('\n'));
  const config = path.join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { billing: { command: process.execPath, args: [CATALOG_SERVER, '--file', catalog, '--name', 'billing'] } } }),
  );
  return config;
}

describe("Toolshed's gateway with --expose found in the real runtimes", function () {
  const startModel = scriptedModelPerTest();

  for (const runtime of RUNTIMES) {
    const refreshes = REFRESHES[runtime];
    const title = refreshes
      ? `${runtime}: after find_tools the found tool is a real tool in the next request, and calling it reaches the upstream`
      : runtime === 'codex'
        ? `${runtime}: find_tools runs without asking, the tool list is not refreshed, and call_tool waits for the user's approval`
        : `${runtime}: the tool list is not refreshed after find_tools, and call_tool reaches the upstream`;
    it(title, async function () {
      skipUnlessRunnable(this, runtime);
      const server = await startModel((turn, index) => {
        // A runtime that keeps asking must not loop the test: five rounds are more than the script needs.
        if (index >= 5) return { text: `GAVE UP: ${turn.toolResults.join(' | ')}` };
        const direct = turn.toolNames.find((name) => endsWithTool(name, FOUND));
        const last = turn.toolResults[turn.toolResults.length - 1] ?? '';
        if (/"called"/.test(last)) return { text: `UPSTREAM SAID: ${last}` };
        if (turn.toolResults.length === 0) {
          const find = turn.toolNames.find((name) => endsWithTool(name, GATEWAY_FIND_TOOL_NAME));
          return find ? { toolCall: { name: find, args: { query: 'create an invoice for a customer' } } } : { text: 'NO FIND TOOL' };
        }
        if (direct) return { toolCall: { name: direct, args: { customer: 'ACME' } } };
        const call = turn.toolNames.find((name) => endsWithTool(name, GATEWAY_CALL_TOOL_NAME));
        return call ? { toolCall: { name: call, args: { name: FOUND, arguments: { customer: 'ACME' } } } } : { text: 'NO CALL TOOL' };
      });
      const run = await runRuntime(runtime, server, PROMPT, {
        mcpServers: { toolshed: { command: process.execPath, args: [CLI, 'mcp', '--upstream', upstreamConfig(), '--expose', 'found'] } },
        trustWorkspace: true,
      });
      assert.equal(run.exitCode, 0, run.stderr);
      const [first, second] = run.turns;
      assert.ok(
        first?.toolNames.some((name) => endsWithTool(name, GATEWAY_FIND_TOOL_NAME)),
        `${runtime} did not offer find_tools`,
      );
      assert.ok(second, `${runtime} sent no second request: ${run.stdout}\n${run.stderr}`);
      assert.match(second.toolResults.join('\n'), new RegExp(`## ${FOUND}`), "find_tools' answer names the invoice tool");
      assert.equal(
        second.toolNames.some((name) => endsWithTool(name, FOUND)),
        refreshes,
        `${runtime}'s second request lists: ${second.toolNames.join(', ')}`,
      );
      if (runtime === 'codex') {
        assert.match(run.turns.map((turn) => turn.toolResults.join('\n')).join('\n'), /requires approval/);
        assert.doesNotMatch(run.stdout, /UPSTREAM SAID/);
      } else {
        assert.match(run.stdout, /UPSTREAM SAID: .*create_invoice/s, run.stdout);
      }
    });
  }
});
