import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { folderPack } from '../../../src/core/skills/packs/skillPackSources';
import { mcpServerArgs } from '../../../src/vscode/skills/mcpServerArgs';
import { CLI, writeSkillPack } from '../mcp/mcpFixtures';
import { tempFolder } from '../../tempFolder';

/**
 * What VS Code runs for Toolshed's MCP server definition (the extension host's executable as
 * Node, `ELECTRON_RUN_AS_NODE=1`, the bundled CLI over the window's packs), run here the same
 * way: a workspace pack is served only in a trusted workspace.
 */
describe("the MCP server definition VS Code starts: the extension's packs, workspace packs only when trusted", function () {
  this.timeout(60_000);
  let root: string;
  let userPack: string;
  let workspacePack: string;

  before(() => {
    root = tempFolder('toolshed-mcp-def-');
    userPack = writeSkillPack();
    workspacePack = path.join(root, 'workspace', '.toolshed', 'skills');
    mkdirSync(path.join(workspacePack, 'ws-deploy'), { recursive: true });
    writeFileSync(
      path.join(workspacePack, 'ws-deploy', 'SKILL.md'),
      '---\nname: ws-deploy\ndescription: Deploy this workspace to the staging cluster.\n---\n\nRun the deploy script.\n',
    );
  });

  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(path.dirname(userPack), { recursive: true, force: true });
  });

  const servedSkills = async (trusted: boolean) => {
    const packs = [folderPack('user', userPack), folderPack('ws', workspacePack, { workspace: true }), folderPack('off', path.join(root, 'missing'))];
    const args = mcpServerArgs(CLI, packs, trusted, path.join(root, 'workspace'));
    assert.ok(args);
    assert.deepEqual(args.slice(0, 6), [CLI, 'mcp', '--runtime', 'vscode', '--workspace', path.join(root, 'workspace')]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: { ...getDefaultEnvironment(), ELECTRON_RUN_AS_NODE: '1', TOOLSHED_HOME: path.join(root, 'home') },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'vscode-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      return (await client.listResources()).resources.map((r) => r.name).sort();
    } finally {
      await client.close();
    }
  };

  it('an untrusted workspace: only the user-level packs are served', async () => {
    assert.deepEqual(await servedSkills(false), ['db-migrate', 'release-notes']);
  });

  it('a trusted workspace: its packs are served too', async () => {
    assert.deepEqual(await servedSkills(true), ['db-migrate', 'release-notes', 'ws-deploy']);
  });

  it('no pack to serve: no server is defined', () => {
    assert.equal(mcpServerArgs(CLI, [folderPack('ws', workspacePack, { workspace: true })], false, undefined), undefined);
  });
});
