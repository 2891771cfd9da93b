import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RuntimeId } from './runtimeDescriptors';

/**
 * Where the resident hook (residentHook.ts) listens and what goes over its socket: small on
 * purpose, since the hook's fast path (`dist/hookClient.js`) loads only this and no engine.
 */

/** Unix socket paths longer than this do not fit `sockaddr_un` on every platform. */
const MAX_SOCKET_PATH = 100;

export interface ResidentRequest {
  version: string;
  event: string;
}

export interface ResidentAnswer {
  stdout?: string;
  stderr?: string;
  stale?: boolean;
}

const shortName = (doorFolder: string) => createHash('sha256').update(doorFolder).digest('hex').slice(0, 16);

/**
 * A folder only this user may enter, for sockets whose path in the door folder would be too
 * long: `$XDG_RUNTIME_DIR/toolshed` or `<tmp>/toolshed-<uid>`, made with mode 0700; undefined
 * when it is not a real folder owned by this user and closed to others (another user could
 * otherwise answer in Toolshed's place).
 */
function privateSocketFolder(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const folder = env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, 'toolshed') : path.join(os.tmpdir(), `toolshed-${uid}`);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch {
    // Already there: checked below.
  }
  try {
    const stats = lstatSync(folder);
    return stats.isDirectory() && stats.uid === uid && (stats.mode & 0o077) === 0 ? folder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the resident hook of (workspace, runtime) listens: in the door folder, or (a path too
 * long for a Unix socket) in a private folder by the door folder's hash; a named pipe on
 * Windows. Undefined when no such place exists: then there is no resident hook.
 */
export function residentSocketPath(
  doorFolder: string,
  runtime: RuntimeId,
  platform: NodeJS.Platform = process.platform,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  if (platform === 'win32') return `\\\\.\\pipe\\toolshed-${shortName(doorFolder)}-${runtime}`;
  const socket = path.join(doorFolder, `hook.${runtime}.sock`);
  if (socket.length <= MAX_SOCKET_PATH) return socket;
  const folder = privateSocketFolder(env);
  const short = folder && path.join(folder, `${shortName(doorFolder)}.${runtime}.sock`);
  return short && short.length <= MAX_SOCKET_PATH ? short : undefined;
}

/** The resident hook's pid file (what a test or a person stops it by). */
export const residentPidFile = (doorFolder: string, runtime: RuntimeId) => path.join(doorFolder, `hook.${runtime}.pid`);
