import { existsSync } from 'node:fs';
import type { ResolvedSkillPack } from '../../core/skills/packs/skillPackSources';

/**
 * The command line of Toolshed's MCP server for one window: the bundled CLI over the enabled
 * packs this window loaded (a workspace pack only when the workspace is trusted, the one trust
 * rule), recording into the workspace folder's door journal; undefined when there is nothing to
 * serve. Kept free of `vscode` so a plain-Node test runs exactly this command line.
 */
export function mcpServerArgs(cli: string, packs: readonly ResolvedSkillPack[], trusted: boolean, workspaceFolder: string | undefined): string[] | undefined {
  const roots = [...new Set(packs.filter((pack) => pack.enabled && (trusted || !pack.workspace)).map((pack) => pack.root))].filter((root) => existsSync(root));
  if (roots.length === 0) return undefined;
  return [cli, 'mcp', '--runtime', 'vscode', ...(workspaceFolder ? ['--workspace', workspaceFolder] : []), '--packs', ...roots];
}
