import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { nodeProcesses } from '../../../../src/core/platform/nodeProcesses';
import { runProcess } from '../../../../src/core/skills/scripts/processRunner';
import { tempFolder } from '../../../tempFolder';

/**
 * Scripts that try to outlive their run on Linux: `setsid` (a new session and process group, so
 * killing the script's group misses them), with the script still waiting or already gone (the
 * detached process is then no longer its descendant). Real processes; /proc tells whether each
 * one still runs.
 */
const linux = process.platform === 'linux';
const dir = tempFolder('toolshed-detached-');

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** `sh` script text that starts `sleep 300` in a new session and records its pid in `pidFile`. */
function setsidScript(pidFile: string, then: string): string[] {
  const file = path.join(dir, `detach-${path.basename(pidFile)}.sh`);
  writeFileSync(file, `setsid sleep 300 </dev/null >/dev/null 2>&1 &\necho $! > ${pidFile}\n${then}\n`);
  return ['sh', file];
}

/** The same through a double fork: the intermediate shell exits at once, so `sleep` is adopted by init. */
function doubleForkScript(pidFile: string, then: string): string[] {
  const file = path.join(dir, `daemon-${path.basename(pidFile)}.sh`);
  writeFileSync(file, `sh -c 'setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > ${pidFile}'\n${then}\n`);
  return ['sh', file];
}

/**
 * Resolves once `pid` no longer runs. The detached process is not our child, so no 'exit' event
 * tells when it is reaped: this polls, with no bound of its own (a loaded machine can take long;
 * the test's timeout is the guard).
 */
async function stopped(pid: number): Promise<boolean> {
  while (running(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  return true;
}

async function run(argv: string[], timeoutMs: number) {
  const [command, ...args] = argv as [string, ...string[]];
  return runProcess(nodeProcesses, { command: `/bin/${command}`, args, cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, { timeoutMs });
}

(linux ? describe : describe.skip)('skill scripts: processes that detach with setsid do not survive the run (Linux)', () => {
  it('a script that starts `setsid sleep` and hangs: at the timeout the detached sleep is stopped too', async () => {
    const pidFile = path.join(dir, 'hang.pid');
    // The detached sleep must have started before the timeout for the run to prove anything; on a
    // loaded machine that can take longer than 1.5 s, so the timeout doubles until it had.
    const started = () => existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8')) > 0;
    let outcome = await run(setsidScript(pidFile, 'while :; do sleep 1; done'), 1500);
    for (let timeoutMs = 3000; !started(); timeoutMs *= 2) outcome = await run(setsidScript(pidFile, 'while :; do sleep 1; done'), timeoutMs);
    assert.equal(outcome.timedOut, true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(pid > 0);
    assert.ok(await stopped(pid), `detached pid ${pid} still runs`);
  });

  it('a script that starts `setsid sleep` and exits normally: the detached sleep is stopped when the run ends', async () => {
    const pidFile = path.join(dir, 'exit.pid');
    const outcome = await run(setsidScript(pidFile, 'exit 0'), 20_000);
    assert.equal(outcome.exitCode, 0);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(await stopped(pid), `detached pid ${pid} still runs`);
  });

  it('a double-forked daemon (already adopted by init when the run ends) is found by its run marker and stopped', async () => {
    const pidFile = path.join(dir, 'daemon.pid');
    const outcome = await run(doubleForkScript(pidFile, 'exit 0'), 20_000);
    assert.equal(outcome.exitCode, 0);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(await stopped(pid), `daemon pid ${pid} still runs`);
  });
});
