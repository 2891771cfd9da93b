/**
 * Toolshed's MCP server (`node dist/cli.js mcp --runtime <runtime>`, over the skills that runtime reads) inside the real runtimes, configured the way a
 * user configures a stdio server (Copilot CLI with `"deferTools": "never"`, so the tool stays in
 * the model's tool list): the model is offered Toolshed's skill search, and when it calls it the
 * runtime sends the search's answer — the right skill — back in its next request.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { MCP_SEARCH_SKILLS_TOOL_NAME } from '../../src/core/platform/toolNames';
import { RUNTIMES, runRuntime, skipUnlessRunnable, scriptedModelPerTest } from './runtimeHarness';
import { MATCHING_PROMPT, TEAM_SKILLS } from './runtimeSkills';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

/** The runtime's name for Toolshed's search tool: `toolshed-search_skills`, `mcp__toolshed__search_skills`. */
const isSearchTool = (name: string): boolean => name.endsWith(`-${MCP_SEARCH_SKILLS_TOOL_NAME}`) || name.endsWith(`__${MCP_SEARCH_SKILLS_TOOL_NAME}`);

describe("Toolshed's MCP server in the real runtimes", function () {
  const startModel = scriptedModelPerTest();

  for (const runtime of RUNTIMES) {
    it(`${runtime}: the model is offered Toolshed's skill search, and the runtime sends back its answer: the right skill`, async function () {
      skipUnlessRunnable(this, runtime);
      const server = await startModel((turn) => {
        if (turn.toolResults.length > 0) return { text: `TOOL SAID: ${turn.toolResults.join(' | ')}` };
        const search = turn.toolNames.find(isSearchTool);
        return search ? { toolCall: { name: search, args: { query: MATCHING_PROMPT } } } : { text: 'NO SEARCH TOOL' };
      });
      const run = await runRuntime(runtime, server, MATCHING_PROMPT, {
        // Serves what this runtime reads: the skills in its own user folder (and a trusted workspace's).
        userSkills: TEAM_SKILLS,
        mcpServers: { toolshed: { command: process.execPath, args: [CLI, 'mcp', '--runtime', runtime] } },
        trustWorkspace: true,
      });
      assert.equal(run.exitCode, 0, run.stderr);
      const [first, second] = run.turns;
      assert.ok(first?.toolNames.some(isSearchTool), `${runtime} did not offer the search tool: ${first?.toolNames.join(', ')}`);
      assert.ok(second, `${runtime} sent no second request: ${run.stdout}\n${run.stderr}`);
      const answer = second.toolResults.join('\n');
      assert.match(answer, /release-notes/, answer);
      assert.doesNotMatch(answer.split('\n')[1] ?? '', /postgres-migration|kubernetes-deploy/, 'the right skill comes first');
      assert.match(run.stdout, /TOOL SAID: .*release-notes/s);
    });
  }
});
