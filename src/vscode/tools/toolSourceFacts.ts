import * as vscode from 'vscode';
import { TOOLSHED_TOOL_NAMES } from '../../core/platform/toolNames';
import { parseJsonWithComments } from '../../core/schema/jsonWithComments';
import { mcpServersOf, type McpServerConfig, type SourceFacts } from '../../core/tools/modes/toolSources';

/**
 * What VS Code tells an extension about where tools come from (see core toolSources.ts): the
 * manifests of installed extensions (`contributes.languageModelTools`) and the MCP servers the
 * user configured — `.vscode/mcp.json` of each workspace folder, the profile's `mcp.json` and
 * the older `mcp.servers` setting. Read when Manage Tools opens; an unreadable file is skipped.
 */
export async function toolSourceFacts(context: vscode.ExtensionContext): Promise<SourceFacts> {
  const declared = new Map<string, string>();
  for (const extension of vscode.extensions.all) {
    const manifest = extension.packageJSON as { displayName?: unknown; contributes?: { languageModelTools?: unknown } } | undefined;
    const tools = manifest?.contributes?.languageModelTools;
    if (!Array.isArray(tools)) continue;
    const label = typeof manifest?.displayName === 'string' && manifest.displayName ? manifest.displayName : extension.id;
    for (const tool of tools as Array<{ name?: unknown }>) if (typeof tool?.name === 'string' && !declared.has(tool.name)) declared.set(tool.name, label);
  }
  return {
    ownTools: new Set(TOOLSHED_TOOL_NAMES),
    declaredBy: (name) => declared.get(name),
    mcpServers: await configuredMcpServers(context),
  };
}

async function configuredMcpServers(context: vscode.ExtensionContext): Promise<McpServerConfig[]> {
  // globalStorageUri is <profile>/globalStorage/<extension id>: the profile's mcp.json sits two levels up.
  const files = [
    ...(vscode.workspace.workspaceFolders ?? []).map((folder) => vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json')),
    vscode.Uri.joinPath(context.globalStorageUri, '..', '..', 'mcp.json'),
  ];
  const servers: McpServerConfig[] = [];
  for (const file of files) {
    try {
      servers.push(...mcpServersOf(parseJsonWithComments(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)))));
    } catch {
      // no such file: nothing configured there
    }
  }
  servers.push(...mcpServersOf({ servers: vscode.workspace.getConfiguration('mcp').get<unknown>('servers') }));
  return servers;
}
