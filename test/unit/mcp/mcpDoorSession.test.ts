import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { MemoryByteStore } from '../../../src/core/platform/memoryByteStore';
import { MCP_SEARCH_SKILLS_TOOL_NAME } from '../../../src/core/platform/toolNames';
import { doorFolderFor } from '../../../src/core/runtimes/doors/doorFolder';
import { publishedSkillsOf, writePublishedSkills } from '../../../src/core/runtimes/doors/publishedSkills';
import { createHeadlessSkillService } from '../../../src/core/skills/headlessSkillService';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';
import { startCliServer, textOf } from './mcpFixtures';
import { tempFolder } from '../../tempFolder';

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
    root = tempFolder('toolshed-mcp-door-');
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

  it('a running server answers with the learned skills the extension approves and without the skills it retires, from the next call on', async () => {
    const { client } = await startCliServer(['--runtime', 'claude', '--workspace', workspace], env);
    const search = async (query: string) => textOf(await client.callTool({ name: MCP_SEARCH_SKILLS_TOOL_NAME, arguments: { query } }));
    const extension = await createHeadlessSkillService({ engine: await loadSqlEngine(), store: new MemoryByteStore() });
    try {
      const query = 'rotate the staging database credentials in the vault';
      assert.doesNotMatch(await search(query), /vault-credential-rotation/);
      assert.match(await search('update the changelog before a release'), /user-changelog/);
      await extension.addLearnedSkill(
        {
          name: 'vault-credential-rotation',
          trigger: 'rotate the staging database credentials stored in the vault',
          steps: ['Run vault write -f db/rotate-root/staging.'],
        },
        { projectId: workspace },
      );
      // What the extension's publisher writes after the approval and a Retire in its Ledger view.
      const folder = doorFolderFor(workspace, env.TOOLSHED_HOME);
      writePublishedSkills(folder, publishedSkillsOf(extension.learnedSkills(), ['user-changelog'], { projectId: workspace }));
      assert.match(await search(query), /^1\. vault-credential-rotation/m);
      assert.doesNotMatch(await search('update the changelog before a release'), /user-changelog/);
    } finally {
      await client.close();
      await extension.dispose();
    }
  });

  it('started by the extension for VS Code (--packs with --workspace), it honours the same approvals and retirements', async () => {
    const packs = path.join(root, 'window-packs');
    skill(packs, 'window-changelog', 'Update the changelog of a project before a release.');
    const { client } = await startCliServer(['--runtime', 'vscode', '--packs', packs, '--workspace', workspace], env);
    const search = async (query: string) => textOf(await client.callTool({ name: MCP_SEARCH_SKILLS_TOOL_NAME, arguments: { query } }));
    const extension = await createHeadlessSkillService({ engine: await loadSqlEngine(), store: new MemoryByteStore() });
    try {
      assert.match(await search('update the changelog before a release'), /window-changelog/);
      await extension.addLearnedSkill(
        {
          name: 'vault-credential-rotation',
          trigger: 'rotate the staging database credentials stored in the vault',
          steps: ['Run vault write -f db/rotate-root/staging.'],
        },
        { projectId: workspace },
      );
      writePublishedSkills(
        doorFolderFor(workspace, env.TOOLSHED_HOME),
        publishedSkillsOf(extension.learnedSkills(), ['window-changelog'], { projectId: workspace }),
      );
      assert.match(await search('rotate the staging database credentials in the vault'), /^1\. vault-credential-rotation/m);
      assert.doesNotMatch(await search('update the changelog before a release'), /window-changelog/);
    } finally {
      await client.close();
      await extension.dispose();
    }
  });
  it("ended as Claude Code ends it (SIGINT, then SIGTERM) right after a cold start's first answer, it saves the index it built: the next start finds the store", async () => {
    const project = path.join(root, 'signalled');
    mkdirSync(project, { recursive: true });
    const store = path.join(doorFolderFor(project, env.TOOLSHED_HOME ?? ''), 'skills.claude.db');
    const { client, stderr, pid } = await startCliServer(['--runtime', 'claude', '--workspace', project], env);
    const ended = new Promise<void>((resolve) => (client.onclose = resolve));
    const found = textOf(await client.callTool({ name: MCP_SEARCH_SKILLS_TOOL_NAME, arguments: { query: 'update the changelog before a release' } }));
    assert.ok(found.includes('user-changelog'), found);
    // Claude Code sends SIGINT, then SIGTERM 0.1 s later (here at once), then SIGKILL. Node's default
    // would end the server at the first, before the save its load scheduled; the second must not either.
    process.kill(pid, 'SIGINT');
    process.kill(pid, 'SIGTERM');
    await ended;
    assert.ok(existsSync(store), `the cold start's index was saved before the server ended: ${stderr()}`);
    const next = await startCliServer(['--runtime', 'claude', '--workspace', project], env);
    try {
      const again = textOf(await next.client.callTool({ name: MCP_SEARCH_SKILLS_TOOL_NAME, arguments: { query: 'update the changelog before a release' } }));
      assert.equal(again, found);
    } finally {
      await next.client.close();
    }
  });
});
