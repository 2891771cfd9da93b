import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import type { ProcessPort, SpawnedProcess } from './ports';
import { RUN_MARKER_VARIABLE, runProcesses } from './processSweep';

/** Sweeps after killing: a process may fork once more while its siblings are being killed. */
const SWEEP_ROUNDS = 5;

/**
 * ProcessPort over node:child_process. No shell: the program and its arguments go to the OS
 * as an array (what `execFile` does; `spawn` is used so output can be streamed into a cap
 * instead of buffered whole). On POSIX the child leads its own process group, so killing
 * the group also kills whatever the script started. On Linux the kill also sweeps /proc for
 * processes that left the group with `setsid`: descendants of the script, and anything carrying
 * the run's marker variable (see processSweep).
 */
export const nodeProcesses: ProcessPort = {
  spawn(request): SpawnedProcess {
    const posix = process.platform !== 'win32';
    const marker = randomBytes(12).toString('hex');
    const child = spawn(request.command, [...request.args], {
      cwd: request.cwd,
      env: { ...request.env, [RUN_MARKER_VARIABLE]: marker },
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
        const pid = child.pid;
        if (pid === undefined) return;
        // Found before the group dies: once the script is gone its detached children are no
        // longer its descendants (only the marker finds them then).
        const strays = posix ? runProcesses(pid, marker) : [];
        signal(posix ? -pid : pid, child);
        for (let round = 0; round < SWEEP_ROUNDS && strays.length > 0; round++) {
          for (const stray of strays) signal(stray);
          strays.splice(0, strays.length, ...runProcesses(pid, marker));
        }
      },
    };
  },
};

function signal(pid: number, child?: { kill(signal: NodeJS.Signals): boolean }): void {
  try {
    if (child && process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(pid, 'SIGKILL');
  } catch {
    // ESRCH: already gone.
  }
}

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
