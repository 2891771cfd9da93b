/**
 * The whole path a user takes: `toolshed setup <runtime>` (the built CLI) in a fresh HOME that
 * already has the runtime's own config, then the real runtime, offline against the scripted
 * model. What setup wrote must make the runtime run Toolshed's hook (the right skill's text in
 * the first request) and start Toolshed's MCP server (its search tool offered, its answer sent
 * back). Claude Code runs without `--allowedTools`: in `-p` it refuses an MCP tool no permission
 * rule allows, so the search's answer reaches the model only because setup allowed it.
 */
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { MCP_SEARCH_SKILLS_TOOL_NAME } from '../../src/core/platform/toolNames';
import { hookContextIn, prepareTracked, RUNTIMES, runPrepared, runToolshedSetup, skipUnlessRunnable, scriptedModelPerTest } from './runtimeHarness';
import { MATCHING_PROMPT, TEAM_SKILLS } from './runtimeSkills';

const isSearchTool = (name: string): boolean => name.endsWith(`-${MCP_SEARCH_SKILLS_TOOL_NAME}`) || name.endsWith(`__${MCP_SEARCH_SKILLS_TOOL_NAME}`);

describe('toolshed setup, then the real runtime', function () {
  const startModel = scriptedModelPerTest();

  for (const runtime of RUNTIMES) {
    it(`${runtime}: after toolshed setup ${runtime}, the model gets the right skill's text from the hook and Toolshed's search tool, whose answer goes back`, async function () {
      skipUnlessRunnable(this, runtime);
      const server = await startModel((turn) => {
        if (turn.toolResults.length > 0) return { text: `TOOL SAID: ${turn.toolResults.join(' | ')}` };
        const search = turn.toolNames.find(isSearchTool);
        return search ? { toolCall: { name: search, args: { query: MATCHING_PROMPT } } } : { text: 'NO SEARCH TOOL' };
      });
      // No --allowedTools: what setup wrote must be enough for Claude Code -p to call the search tool.
      const setup = { userSkills: TEAM_SKILLS, trustWorkspace: true };
      const { home, workspace } = prepareTracked(runtime, server, setup);
      const installed = await runToolshedSetup(runtime, home);
      assert.equal(installed.exitCode, 0, installed.output);
      const run = await runPrepared(runtime, server, MATCHING_PROMPT, setup, home, workspace);
      assert.equal(run.exitCode, 0, run.stderr);
      const [first, second] = run.turns;
      assert.ok(first, `${runtime} sent no model request: ${run.stderr}`);
      assert.match(hookContextIn(runtime, first) ?? '', /MARKER-RELEASE-NOTES-BODY/, "the hook's context");
      assert.ok(first.toolNames.some(isSearchTool), `no search tool among: ${first.toolNames.join(', ')}`);
      assert.match(second?.toolResults.join('\n') ?? '', /release-notes/, `the search's answer; stdout: ${run.stdout}`);
      assert.deepEqual(server.outbound, []);
    });
  }

  it("codex: when Toolshed's server cannot start, codex exec stops and names it instead of going on without it", async function () {
    skipUnlessRunnable(this, 'codex');
    const server = await startModel(() => ({ text: 'ANSWERED WITHOUT TOOLSHED' }));
    const setup = { trustWorkspace: true };
    const { home, workspace } = prepareTracked('codex', server, setup);
    const installed = await runToolshedSetup('codex', home);
    assert.equal(installed.exitCode, 0, installed.output);
    // The launcher the entries run is gone (say ~/.toolshed was deleted by hand).
    rmSync(path.join(home, '.toolshed', 'bin', 'cli.js'));
    const run = await runPrepared('codex', server, MATCHING_PROMPT, setup, home, workspace);
    assert.notEqual(run.exitCode, 0, run.stdout);
    assert.match(run.stderr, /required MCP servers failed to initialize: toolshed\b/);
    assert.equal(run.turns.length, 0, 'no turn ran without Toolshed');
  });
});
