/**
 * The runtime harness itself, with stand-ins (a fixed-context hook script, the reference
 * `server-everything` MCP server): each real runtime, offline against the scripted model, hands a
 * prompt-submit hook's context and an MCP server's tools to the model, and sends a tool's answer
 * back. If a runtime release changes its config files or request shapes, this fails before the
 * Toolshed tests do, and says which runtime.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { hookContextIn, RUNTIMES, runRuntime, skipUnlessRunnable, scriptedModelPerTest } from './runtimeHarness';
import { skillsShownInRequest } from './skillListing';
import { tempFolder } from '../tempFolder';

const HOOK = path.join(__dirname, 'fixtures', 'fixedContextHook.mjs');
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const MEMORY = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');

describe('runtime harness (stand-in hook and MCP server)', function () {
  const startModel = scriptedModelPerTest();

  for (const runtime of RUNTIMES) {
    it(`${runtime}: lists the skills in its user and workspace folders with their descriptions (read by skillsShownInRequest)`, async function () {
      skipUnlessRunnable(this, runtime);
      const server = await startModel();
      const run = await runRuntime(runtime, server, 'hello', {
        userSkills: [{ name: 'alpha-user-skill', description: 'Formats alpha reports' }],
        workspaceSkills: [{ name: 'beta-workspace-skill', description: 'Formats beta reports' }],
        trustWorkspace: true,
      });
      assert.equal(run.exitCode, 0, run.stderr);
      const listing = skillsShownInRequest(runtime, run.turns[0]!);
      assert.ok(listing.described.includes('alpha-user-skill'), listing.described.join(', '));
      assert.ok(listing.described.includes('beta-workspace-skill'), listing.described.join(', '));
      assert.ok(listing.chars > 0);
    });

    it(`${runtime}: a prompt the hook has nothing for reaches the model with no hook context`, async function () {
      skipUnlessRunnable(this, runtime);
      const server = await startModel();
      const run = await runRuntime(runtime, server, 'what is two plus two', {
        hookCommand: `"${process.execPath}" "${HOOK}" ${runtime}`,
        trustWorkspace: true,
      });
      assert.equal(run.exitCode, 0, run.stderr);
      assert.ok(run.turns[0], `${runtime} sent no model request`);
      assert.equal(hookContextIn(runtime, run.turns[0]), undefined);
    });

    it(`${runtime}: a prompt-submit hook's context reaches the model, with the event JSON on its stdin`, async function () {
      skipUnlessRunnable(this, runtime);
      const server = await startModel();
      const log = path.join(tempFolder('toolshed-rt-hook-'), `${runtime}.jsonl`);
      const run = await runRuntime(runtime, server, 'please deploy the web app', {
        hookCommand: `"${process.execPath}" "${HOOK}" ${runtime} "${log}"`,
        trustWorkspace: true,
      });
      assert.equal(run.exitCode, 0, run.stderr);
      const first = run.turns[0];
      assert.ok(first, `${runtime} sent no model request`);
      assert.equal(hookContextIn(runtime, first), 'FIXED-HOOK-CONTEXT: check the deploy checklist');
      const event = JSON.parse(readFileSync(log, 'utf8').trim().split('\n')[0] ?? '{}') as Record<string, unknown>;
      assert.equal(event.prompt, 'please deploy the web app');
      assert.equal(event.cwd, run.workspace);
      assert.deepEqual(server.outbound, [], `${runtime} tried to reach other hosts`);
    });

    it(`${runtime}: a stdio MCP server's tool is offered to the model, and its answer is sent back`, async function () {
      skipUnlessRunnable(this, runtime);
      // Codex lists an MCP server's tools when it starts; server-everything adds its tools later, server-memory at once.
      const [name, entry, tool, args] =
        runtime === 'codex' ? ['memory', MEMORY, 'read_graph', {}] : ['everything', EVERYTHING, 'echo', { message: 'PING-FROM-THE-MODEL' }];
      const server = await startModel((turn) => {
        if (turn.toolResults.length > 0) return { text: `TOOL SAID: ${turn.toolResults.join(' | ')}` };
        const offered = turn.toolNames.find((n) => n.endsWith(`-${tool}`) || n.endsWith(`__${tool}`));
        return offered ? { toolCall: { name: offered, args } } : { text: 'NO TOOL' };
      });
      const run = await runRuntime(runtime, server, 'use the tool', {
        mcpServers: { [name]: { command: process.execPath, args: runtime === 'codex' ? [entry] : [entry, 'stdio'] } },
        trustWorkspace: true,
      });
      assert.equal(run.exitCode, 0, run.stderr);
      assert.ok(run.turns.length >= 2, `${runtime} did not call the tool: ${run.stdout}\n${run.stderr}`);
      const answer = run.turns[1]?.toolResults.join(' ') ?? '';
      assert.match(answer, runtime === 'codex' ? /entities/ : /PING-FROM-THE-MODEL/);
    });
  }
});
