import { createHash } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Where Toolshed keeps what outlives one process outside VS Code's storage: `~/.toolshed`
 * (`TOOLSHED_HOME` overrides it), with the stable launcher in `bin/` and one door folder per
 * workspace in `workspaces/<slug>-<hash>/` (the door journal, each door's last decision). The
 * hook, the MCP server, the CLI and the extension all find a workspace's folder through
 * `doorFolderFor`, so they meet in the same place.
 */

export const DOOR_JOURNAL_FILE = 'doors.jsonl';

/** `TOOLSHED_HOME`, or `~/.toolshed`. */
export function toolshedHome(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const set = env.TOOLSHED_HOME?.trim();
  return set ? path.resolve(set) : path.join(home, '.toolshed');
}

/** The workspace path as the hash sees it: absolute, no trailing separator, case-folded where the file system is. */
function workspaceKey(workspace: string, platform: NodeJS.Platform): string {
  const resolved = path.resolve(workspace).replace(/[\\/]+$/, '') || path.sep;
  return platform === 'win32' || platform === 'darwin' ? resolved.toLowerCase() : resolved;
}

/**
 * `<home>/workspaces/<slug>-<hash>`: the slug is the folder's name (letters, digits, dash; for a
 * person reading the folder list), the hash the first 12 hex digits of SHA-256 of the path (so
 * two folders of the same name never share one).
 */
export function doorFolderFor(workspace: string, home: string = toolshedHome(), platform: NodeJS.Platform = process.platform): string {
  const key = workspaceKey(workspace, platform);
  const slug =
    path
      .basename(key)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'root';
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 12);
  return path.join(home, 'workspaces', `${slug}-${hash}`);
}
