import { createHash } from 'node:crypto';
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

/** Where the resident hook of (workspace, runtime) listens; undefined when no path fits. */
export function residentSocketPath(doorFolder: string, runtime: RuntimeId, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32') return `\\\\.\\pipe\\toolshed-${createHash('sha256').update(doorFolder).digest('hex').slice(0, 16)}-${runtime}`;
  const socket = path.join(doorFolder, `hook.${runtime}.sock`);
  return socket.length <= MAX_SOCKET_PATH ? socket : undefined;
}

/** The resident hook's pid file (what a test or a person stops it by). */
export const residentPidFile = (doorFolder: string, runtime: RuntimeId) => path.join(doorFolder, `hook.${runtime}.pid`);
