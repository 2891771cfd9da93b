import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { MCP_SEARCH_SKILLS_TOOL_NAME } from '../../../src/core/platform/toolNames';
import { startCliServer, textOf } from './mcpFixtures';

function skill(folder: string, name: string, description: string): void {
  mkdirSync(path.join(folder, name), { recursive: true });
  writeFileSync(path.join(folder, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\nSteps for ${name}.\n`);
}

/**
 * `toolshed mcp --runtime claude` serves what Claude Code would see in the workspace, through the
 * door session: the user's skill folder and Toolshed's library always, the workspace's own
 * `.claude/skills` only once Claude Code's record trusts the folder.
 */
describe('toolshed mcp --runtime claude: the door session of the workspace', function () {
  this.timeout(60_000);
  let root: string;
  let env: Record<string, string>;
  let workspace: string;

  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'toolshed-mcp-door-'));
    const home = path.join(root, 'home');
    workspace = path.join(root, 'project');
    env = { HOME: home, USERPROFILE: home, TOOLSHED_HOME: path.join(root, 'toolshed') };
    skill(path.join(home, '.claude', 'skills'), 'user-changelog', 'Update the changelog of a project before a release.');
    skill(path.join(root, 'toolshed', 'skills'), 'library-release', 'Cut a release: tag it, build it and publish the packages.');
    skill(path.join(workspace, '.claude', 'skills'), 'workspace-release', 'Release this project to the internal registry after the checks.');
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  const served = async () => {
    const { client, stderr } = await startCliServer(['--runtime', 'claude', '--workspace', workspace], env);
    try {
      const names = (await client.listResources()).resources.map((r) => r.name).sort();
      const found = textOf(await client.callTool({ name: MCP_SEARCH_SKILLS_TOOL_NAME, arguments: { query: 'release this project to the internal registry' } }));
      return { names, found, stderr: stderr() };
    } finally {
      await client.close();
    }
  };

  it("an untrusted workspace: the user's folder and Toolshed's library, never the workspace's skills", async () => {
    const { names, found, stderr } = await served();
    assert.deepEqual(names, ['library-release', 'user-changelog']);
    assert.ok(!found.includes('workspace-release'), found);
    assert.match(stderr, /the workspace's own skill folders are not used/);
  });

  it('once Claude Code trusts the folder, its skills are served too, and found first', async () => {
    writeFileSync(path.join(env.HOME ?? '', '.claude.json'), JSON.stringify({ projects: { [workspace]: { hasTrustDialogAccepted: true } } }));
    const { names, found } = await served();
    assert.deepEqual(names, ['library-release', 'user-changelog', 'workspace-release']);
    assert.match(found, /^1\. workspace-release/m);
  });
});
