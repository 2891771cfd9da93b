import { spawn } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import type { ProcessPort, SpawnedProcess } from './ports';

/**
 * ProcessPort over node:child_process. No shell: the program and its arguments go to the OS
 * as an array (what `execFile` does; `spawn` is used so output can be streamed into a cap
 * instead of buffered whole). On POSIX the child leads its own process group, so killing
 * the group also kills whatever the script started.
 */
export const nodeProcessPort: ProcessPort = {
  spawn(request): SpawnedProcess {
    const posix = process.platform !== 'win32';
    const child = spawn(request.command, [...request.args], {
      cwd: request.cwd,
      env: { ...request.env },
      shell: false,
      detached: posix,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    return {
      pid: child.pid,
      onStdout: (listener) => child.stdout?.on('data', (chunk: Buffer) => listener(chunk)),
      onStderr: (listener) => child.stderr?.on('data', (chunk: Buffer) => listener(chunk)),
      onClose: (listener) => child.on('close', (code, signal) => listener(code, signal)),
      onError: (listener) => child.on('error', listener),
      killTree() {
        if (child.pid === undefined) return;
        try {
          if (posix) process.kill(-child.pid, 'SIGKILL');
          else child.kill('SIGKILL');
        } catch {
          // ESRCH: the group is already gone.
        }
      },
    };
  },
};

/**
 * Whether the current user may execute `file` (the executable bit on POSIX). Links are followed
 * (interpreters such as /usr/bin/sh are often links); skill scripts that are links never get
 * here, discovery skips them first.
 */
export async function isExecutableFile(file: string): Promise<boolean> {
  try {
    await fs.access(file, constants.X_OK);
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}
