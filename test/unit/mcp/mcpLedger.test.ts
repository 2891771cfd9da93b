import * as assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { DOOR_JOURNAL_FILE, doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import { MCP_READ_SKILL_TOOL_NAME, MCP_SEARCH_SKILLS_TOOL_NAME } from '../../../src/core/platform/toolNames';
import { cli } from '../cli/helpers';
import { SECRET, startCliServer, writeSkillPack } from './mcpFixtures';
import { tempFolder } from '../../tempFolder';

/**
 * `toolshed mcp --workspace DIR` records each search and read in the workspace's door journal,
 * the one the ledger counts and `toolshed why` explains, as the hook does.
 */
describe('toolshed mcp --workspace: searches and reads go to the workspace door journal', function () {
  this.timeout(60_000);
  let root: string;
  let previousHome: string | undefined;

  before(() => {
    root = tempFolder('toolshed-mcp-ledger-');
    previousHome = process.env.TOOLSHED_HOME;
  });

  after(() => {
    if (previousHome === undefined) delete process.env.TOOLSHED_HOME;
    else process.env.TOOLSHED_HOME = previousHome;
    rmSync(root, { recursive: true, force: true });
  });

  it('journals a search and a read under the runtime given, and toolshed why --door mcp explains the last one', async () => {
    const pack = writeSkillPack();
    const home = path.join(root, 'home');
    const workspace = path.join(root, 'workspace');
    const { client } = await startCliServer(['--packs', pack, '--workspace', workspace, '--runtime', 'claude'], { TOOLSHED_HOME: home });
    await client.callTool({ name: MCP_SEARCH_SKILLS_TOOL_NAME, arguments: { query: `write the release notes of version 2.0 (token ${SECRET})` } });
    await client.callTool({ name: MCP_READ_SKILL_TOOL_NAME, arguments: { name: 'release-notes' } });
    await client.close();
    rmSync(path.dirname(pack), { recursive: true, force: true });

    const journal = readFileSync(path.join(doorFolderFor(workspace, home), DOOR_JOURNAL_FILE), 'utf8');
    const lines = journal
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { door: string; runtime: string; action: string; skills: string[]; searches: number; tokens: number });
    assert.deepEqual(
      lines.map((l) => [l.door, l.runtime, l.action, l.skills, l.searches]),
      [
        ['mcp', 'claude', MCP_SEARCH_SKILLS_TOOL_NAME, ['release-notes'], 1],
        ['mcp', 'claude', MCP_READ_SKILL_TOOL_NAME, ['release-notes'], 0],
      ],
    );
    assert.ok(lines.every((l) => l.tokens > 0));
    assert.ok(!journal.includes(SECRET));

    process.env.TOOLSHED_HOME = home;
    const why = await cli('why', '--workspace', workspace, '--door', 'mcp', '--json');
    assert.equal(why.code, 0, why.err);
    const last = JSON.parse(why.out) as { door: string; action: string; injected: string[] };
    assert.deepEqual([last.door, last.action, last.injected], ['mcp', MCP_READ_SKILL_TOOL_NAME, ['release-notes']]);
  });
});
