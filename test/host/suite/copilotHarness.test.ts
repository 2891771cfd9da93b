import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { driver } from './chatHelpers';
import { eventually, toolshed } from './helpers';

/**
 * VS Code's Copilot harness: chat sessions of type `agent-host-copilotcli`, which the Agent Host
 * (a separate process running the Copilot SDK, bundled in code-server 4.139.1) runs. Signed out
 * and offline, a request there never reaches a model in this host (docs/harnesses.md, "VS Code's
 * Copilot harness"), so what is tested here is the part that runs without a turn: when a
 * Copilot-harness session opens, VS Code hands the window's MCP servers — Toolshed's registered
 * one among them — to the Agent Host, as a plugin folder the SDK session is launched with.
 */
const SESSION_TYPE = 'agent-host-copilotcli';
const SERVER_NAME = 'Toolshed skills';

interface SyncedServer {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
}

/**
 * The MCP servers VS Code synced to the Agent Host for Copilot-harness sessions, from every
 * `<user data>/agentPlugins/vscode-synced-customization-agent-host-copilotcli-*\/<nonce>/.mcp.json`.
 */
function syncedMcpServers(userData: string): Record<string, SyncedServer> {
  const root = path.join(userData, 'agentPlugins');
  const servers: Record<string, SyncedServer> = {};
  if (!existsSync(root)) return servers;
  for (const plugin of readdirSync(root).filter((name) => name.startsWith(`vscode-synced-customization-${SESSION_TYPE}-`))) {
    for (const nonce of readdirSync(path.join(root, plugin))) {
      const file = path.join(root, plugin, nonce, '.mcp.json');
      if (!existsSync(file)) continue;
      try {
        Object.assign(servers, (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers?: Record<string, SyncedServer> }).mcpServers ?? {});
      } catch {
        // being written: the next look reads it whole
      }
    }
  }
  return servers;
}

suite('Copilot harness (Agent Host): what reaches a session offline', () => {
  let home: string;

  suiteSetup(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'toolshed-harness-home-'));
  });

  suiteTeardown(() => {
    rmSync(home, { recursive: true, force: true });
  });

  test("Toolshed's registered MCP server is handed to a new Copilot-harness session, and answers a search as the session would start it", async function () {
    this.timeout(120_000);
    await toolshed(); // registers the server definition (contributes.mcpServerDefinitionProviders)
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the host opens a workspace folder');
    // Global storage is <user data>/User/globalStorage/<extension id>; the Agent Host keeps its plugins in <user data>/agentPlugins.
    const userData = path.resolve((await driver()).globalStorageUri.fsPath, '..', '..', '..');

    await vscode.commands.executeCommand(`workbench.action.chat.openNewChatSessionInPlace.${SESSION_TYPE}`, 'editor');
    const server = await eventually(
      () => syncedMcpServers(userData)[SERVER_NAME],
      () => `"${SERVER_NAME}" in the MCP servers synced to the Agent Host (now: ${JSON.stringify(Object.keys(syncedMcpServers(userData)))})`,
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // The definition as Toolshed gives it: the bundled CLI run by the editor's own runtime.
    const extension = vscode.extensions.getExtension('toolshed-dev.toolshed');
    assert.ok(extension);
    assert.equal(server.type, 'stdio');
    assert.equal(server.command, process.execPath);
    assert.deepEqual(server.args?.slice(0, 6), [path.join(extension.extensionPath, 'dist', 'cli.js'), 'mcp', '--runtime', 'vscode', '--workspace', workspace]);
    assert.equal(server.env?.ELECTRON_RUN_AS_NODE, '1');

    // Started exactly as synced (TOOLSHED_HOME only keeps its door journal out of the real home).
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args ?? [],
      env: { ...getDefaultEnvironment(), ...server.env, TOOLSHED_HOME: home },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'copilot-harness-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(tools.includes('search_skills') && tools.includes('read_skill'), `tools served: ${tools.join(', ')}`);
      const answer = await client.callTool({ name: 'search_skills', arguments: { query: 'count the lines of the source files in this workspace' } });
      const text = (answer.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('\n');
      assert.match(text, /count-lines/, 'the workspace skill (.github/skills/count-lines) is found');
    } finally {
      await client.close();
    }
  });
});
