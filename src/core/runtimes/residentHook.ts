import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { openDoorSession } from './doorSession';
import type { DoorSession } from './doorSession';
import { doorFolderFor } from './doors/doorFolder';
import { runPromptHook } from './promptHook';
import { MAX_HOOK_EVENT_BYTES } from './runtimeDescriptors';
import type { RuntimeId } from './runtimeDescriptors';
import { residentPidFile, residentSocketPath } from './residentSocket';
import type { ResidentAnswer, ResidentRequest } from './residentSocket';

/**
 * The resident hook: a process that keeps one workspace's door open (sql.js compiled, the store
 * read, the skill folders watched), so a prompt-submit hook costs a connection instead of a
 * warm start. `toolshed hook` asks it first and runs in-process when there is none (starting one
 * for the next prompt). One request per connection, one JSON line each way:
 *
 *   → {"version": "<toolshed version>", "event": "<the hook event text>"}
 *   ← {"stdout": "…", "stderr"?: "…"}   or   {"stale": true} (another version: the server stops)
 *
 * The socket lives in the workspace's door folder under the user's home (a named pipe on
 * Windows); where that path is too long for a Unix socket there is no resident hook.
 */

/** A resident hook with no request for this long stops. */
const RESIDENT_IDLE_MS = 30 * 60 * 1000;
/** How often the resident hook checks that its workspace and door folder still exist. */
const GONE_CHECK_MS = 60 * 1000;

export interface ResidentOptions {
  runtime: RuntimeId;
  workspaceFolder: string;
  version: string;
  toolshedHome: string;
  home?: string;
  env?: Readonly<Record<string, string | undefined>>;
  idleMs?: number;
  /** Called once the hook listens, or once it knows it will not (another took the socket, the door failed to open). */
  onSettled?: () => void;
  /** Ends the hook as its idle time would (the prompt being answered first, the store saved): a stop signal. */
  stop?: AbortSignal;
}

/** Whether something answers on `socket` (a live server), within a second. */
function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socket);
    const done = (alive: boolean) => {
      probe.destroy();
      resolve(alive);
    };
    probe.setTimeout(1000, () => done(false));
    probe.once('connect', () => done(true));
    probe.once('error', () => done(false));
  });
}

/** Reads one line (at most `limit` bytes) from a connection. */
function readLine(connection: net.Socket, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    connection.setEncoding('utf8');
    connection.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
      else if (text.length > limit) reject(new Error('request too large'));
    });
    connection.once('end', () => reject(new Error('connection closed before a whole request')));
    connection.once('error', reject);
  });
}

/**
 * Serves the hook for one workspace and runtime until it has been idle for `idleMs`, another
 * version asks, the socket is taken by a live server, or `stop` is aborted. Resolves when it stops.
 */
export async function serveResidentHook(options: ResidentOptions): Promise<void> {
  const folder = doorFolderFor(options.workspaceFolder, options.toolshedHome);
  const socket = residentSocketPath(folder, options.runtime);
  if (!socket) return;
  if (await answers(socket)) return;
  const door: DoorSession = await openDoorSession({
    runtime: options.runtime,
    workspaceFolder: options.workspaceFolder,
    home: options.home,
    env: options.env,
    toolshedHome: options.toolshedHome,
    watch: true,
  });
  if (process.platform !== 'win32') rmSync(socket, { force: true });
  const server = net.createServer();
  let idle: ReturnType<typeof setTimeout> | undefined;
  let queue: Promise<void> = Promise.resolve();
  const stopped = new Promise<void>((resolve) => server.once('close', resolve));
  const stop = () => {
    clearTimeout(idle);
    server.close();
  };
  const resetIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(stop, options.idleMs ?? RESIDENT_IDLE_MS);
  };
  const answer = async (line: string): Promise<ResidentAnswer> => {
    const request = JSON.parse(line) as Partial<ResidentRequest>;
    if (request.version !== options.version) {
      stop();
      return { stale: true };
    }
    await door.refresh();
    const result = await runPromptHook(String(request.event ?? ''), {
      runtime: options.runtime,
      cwd: door.workspaceFolder,
      home: options.home,
      env: options.env,
      toolshedHome: options.toolshedHome,
      budgetMs: 60_000,
      // This workspace's door stays open; an event from another folder gets a door of its own.
      door: async (workspace) =>
        path.resolve(workspace) === door.workspaceFolder
          ? { door, release: async () => undefined }
          : await (async () => {
              const other = await openDoorSession({
                runtime: options.runtime,
                workspaceFolder: workspace,
                home: options.home,
                env: options.env,
                toolshedHome: options.toolshedHome,
              });
              return { door: other, release: () => other.dispose() };
            })(),
    });
    return { stdout: result.stdout, ...(result.stderr ? { stderr: result.stderr } : {}) };
  };
  server.on('connection', (connection) => {
    resetIdle();
    connection.on('error', () => connection.destroy());
    readLine(connection, MAX_HOOK_EVENT_BYTES * 2).then(
      (line) => {
        // One request at a time: the door's store is not shared between two searches.
        queue = queue.then(async () => {
          const reply = await answer(line).catch((error: unknown) => ({
            stderr: `toolshed hook: no skills added: ${error instanceof Error ? error.message : String(error)}`,
          }));
          connection.end(`${JSON.stringify(reply)}\n`);
        });
      },
      () => connection.destroy(),
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
  } catch {
    // Another resident hook took the socket first.
    options.onSettled?.();
    await door.dispose();
    return;
  }
  options.onSettled?.();
  if (process.platform !== 'win32') chmodSync(socket, 0o600);
  const pidFile = residentPidFile(folder, options.runtime);
  // Written whole under another name, then renamed: whoever sees the file sees the pid in it.
  writeFileSync(`${pidFile}.${process.pid}`, `${process.pid}\n`);
  renameSync(`${pidFile}.${process.pid}`, pidFile);
  resetIdle();
  if (options.stop?.aborted) stop();
  options.stop?.addEventListener('abort', stop, { once: true });
  // A workspace or door folder that is gone (a deleted checkout, a test's temp HOME) needs no hook.
  const gone = setInterval(() => {
    if (!existsSync(folder) || !existsSync(door.workspaceFolder)) stop();
  }, GONE_CHECK_MS);
  gone.unref();
  await stopped;
  clearInterval(gone);
  await queue;
  await door.dispose();
  // Last, so a pid file gone means the store is saved. Only this hook's own: one started since
  // this one stopped listening may have written its pid there already.
  if (ownPid(pidFile)) rmSync(pidFile, { force: true });
}

/** Whether the pid file holds this process's pid. */
function ownPid(pidFile: string): boolean {
  try {
    return Number(readFileSync(pidFile, 'utf8')) === process.pid;
  } catch {
    return false;
  }
}
