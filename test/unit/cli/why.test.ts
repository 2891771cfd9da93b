import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { skillsConfigSchema } from '../../../src/core/config/settingsSchema';
import { explainSkills, type TurnExplanation } from '../../../src/core/planner/turn/turnExplanation';
import { recordDoorDecision } from '../../../src/core/runtimes/doors/doorDecision';
import { doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import { cli } from './helpers';
import { tempFolder } from '../../tempFolder';

/** `toolshed why`: the last decision of each door, with each candidate's verdict in the words `/why` uses. */
describe('toolshed why', () => {
  let saved: string | undefined;
  let home: string;
  let workspace: string;
  beforeEach(() => {
    saved = process.env.TOOLSHED_HOME;
    home = tempFolder('toolshed-why-home-');
    workspace = tempFolder('toolshed-why-ws-');
    process.env.TOOLSHED_HOME = home;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TOOLSHED_HOME;
    else process.env.TOOLSHED_HOME = saved;
  });

  const config = skillsConfigSchema.parse({});
  const hookSkills = explainSkills(
    config,
    {
      used: [{ name: 'deploy-app', reason: 'best match', relevance: 0.8 }],
      omitted: [],
      record: {
        selection: 'search',
        ranked: [
          { name: 'deploy-app', relevance: 0.8, verdict: { passed: true } },
          { name: 'write-poems', relevance: 0.05, verdict: { passed: false, rule: 'minRelevance', relevance: 0.05, minimum: 0.25 } },
        ],
      },
    },
    { pinnedNames: [], workspaceSkills: false },
  );

  it('explains the newest decision, and each door on request, with the gate verdicts and what was injected', async () => {
    recordDoorDecision(
      workspace,
      {
        door: 'hook',
        runtime: 'claude',
        action: 'inject',
        request: 'deploy the app, token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        injected: ['deploy-app'],
        tokens: 210,
        skills: hookSkills,
      },
      { now: 1_000 },
    );
    recordDoorDecision(
      workspace,
      { door: 'mcp', runtime: 'copilot', action: 'skill_search', request: 'write a changelog', injected: [], searches: 1 },
      { now: 2_000 },
    );
    const turn: TurnExplanation = {
      request: 'summarise the issue',
      skills: { ...hookSkills, candidates: [] },
      tools: { preActivateTools: 3, minRelevance: 0.3, relativeCut: 0.5, candidates: [], restricted: false, fromSkills: [], hidden: [] },
      rounds: [{ toolsSent: ['tool_search'], definitionTokens: 120, calls: [] }],
      tokens: { promptBlocks: 10, injectedSkills: 0, selection: 0, toolDefinitions: 120, allToolDefinitions: 900 },
      stoppedBecause: 'done',
    };
    recordDoorDecision(workspace, { door: 'chat', runtime: 'vscode', action: 'turn', request: turn.request, injected: [], turn }, { now: 3_000 });

    const newest = await cli('why', '--workspace', workspace);
    assert.equal(newest.code, 0, newest.err);
    assert.match(newest.out, /Why the last @toolshed turn used what it used.*summarise the issue/);
    assert.match(newest.out, /Other doors' last decisions: mcp at 1970-01-01T00:00:02\.000Z, hook at 1970-01-01T00:00:01\.000Z/);

    const hook = await cli('why', '--workspace', workspace, '--door', 'hook');
    assert.match(hook.out, /the prompt-submit hook \(claude\)/);
    assert.match(hook.out, /✅ `deploy-app` — 0\.80 — injected \(best match\)/);
    assert.match(hook.out, /▫️ `write-poems` — 0\.05 — below toolshed\.skills\.minRelevance/);
    assert.match(hook.out, /Restricted Mode: skills from this workspace were not searched/);
    assert.match(hook.out, /Handed to the model: `deploy-app` \(210 tokens\)/);
    assert.doesNotMatch(hook.out, /ghp_abcdefghijklmnop/, 'the request is shown redacted');

    const mcp = await cli('why', '--workspace', workspace, '--door', 'mcp', '--json');
    const stored = JSON.parse(mcp.out) as { door: string; action: string; request: string };
    assert.deepEqual([stored.door, stored.action, stored.request], ['mcp', 'skill_search', 'write a changelog']);
  });

  it('says so when no door has decided yet, and skips a damaged file with a line on stderr', async () => {
    const none = await cli('why', '--workspace', workspace);
    assert.equal(none.code, 1);
    assert.match(none.out, /No decision recorded for .* yet/);
    recordDoorDecision(workspace, { door: 'mcp', runtime: 'codex', action: 'skill_get', request: 'x', injected: ['a'] });
    writeFileSync(path.join(doorFolderFor(workspace, home), 'last-decision.hook.json'), '{"version": 1, "at": ');
    const result = await cli('why', '--workspace', workspace);
    assert.equal(result.code, 0);
    assert.match(result.err, /skipped last-decision\.hook\.json/);
    assert.match(result.out, /the MCP server \(codex\)/);
  });

  it('--door-folder prints the folder every door uses for the workspace (what the hook-latency bench reads)', async () => {
    const result = await cli('why', '--workspace', workspace, '--door-folder');
    assert.equal(result.code, 0, result.all);
    assert.equal(result.out, `${doorFolderFor(workspace, home)}\n`);
  });

  it('refuses an unknown door', async () => {
    const result = await cli('why', '--door', 'fax');
    assert.equal(result.code, 2);
    assert.match(result.err, /--door is one of hook, mcp, chat/);
  });
});
