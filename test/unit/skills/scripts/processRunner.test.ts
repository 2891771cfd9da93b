import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { isExecutableFile, nodeProcesses } from '../../../../src/core/platform/nodeProcesses';
import { runProcess } from '../../../../src/core/skills/scripts/processRunner';
import type { ProcessPort, SpawnRequest } from '../../../../src/core/platform/ports';
import { scriptEnvironment } from '../../../../src/core/skills/scripts/scriptEnvironment';
import { CappedOutput } from '../../../../src/core/skills/scripts/scriptOutput';
import { describeScriptRun, formatScriptOutcome, planScriptRun, resolveOnPath } from '../../../../src/core/skills/scripts/scriptInvocation';
import { scriptPlan, scriptTool } from './helpers';
import { tempFolder } from '../../../tempFolder';

const dir = tempFolder('toolshed-runner-');
const node = (code: string): SpawnRequest => ({ command: process.execPath, args: ['-e', code], cwd: dir, env: { PATH: process.env.PATH ?? '' } });

/** Running (not dead or a reaped zombie): the pid exists and /proc does not say Z (zombie) or X (dead). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * Resolves once `pid` no longer runs. A killed grandchild is not our child, so no 'exit' event
 * tells when init has reaped it: this polls, with no bound of its own — on a loaded machine
 * reaping can take long, and the test's timeout is the guard.
 */
async function waitGone(pid: number): Promise<boolean> {
  while (isRunning(pid)) await new Promise((r) => setTimeout(r, 50));
  return true;
}

/**
 * Spawns `code` through a port that calls `onReady` once the process has printed `ready` — the
 * moment it runs — so a test acts on a running process, not after a guessed delay.
 */
function announcing(onReady: () => void): ProcessPort {
  return {
    spawn(request) {
      const child = nodeProcesses.spawn(request);
      let seen = '';
      child.onStdout((chunk) => {
        seen += Buffer.from(chunk).toString('utf8');
        if (seen.includes('ready')) onReady();
      });
      return child;
    },
  };
}

describe('skill scripts: process runner (real processes)', () => {
  it('returns exit code, stdout and stderr; a non-zero exit is reported, not thrown', async () => {
    const outcome = await runProcess(nodeProcesses, node('console.log("out"); console.error("err"); process.exit(3)'), { timeoutMs: 10_000 });
    assert.equal(outcome.exitCode, 3);
    assert.equal(outcome.stdout.trim(), 'out');
    assert.equal(outcome.stderr.trim(), 'err');
    assert.equal(outcome.timedOut, false);
  });

  it('a script that hangs is killed at the timeout — with the children it started — and leaves no process behind', async () => {
    const pidFile = path.join(dir, 'grandchild.pid');
    const code = `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000);`;
    // The child must exist before the timeout for the run to prove anything; on a loaded machine
    // node can take longer than 700 ms to start it, so the timeout doubles until it did (the
    // test's timeout bounds the retries).
    const started = () => existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8')) > 0;
    let outcome = await runProcess(nodeProcesses, node(code), { timeoutMs: 700 });
    for (let timeoutMs = 1400; !started(); timeoutMs *= 2) outcome = await runProcess(nodeProcesses, node(code), { timeoutMs });
    assert.equal(outcome.timedOut, true);
    assert.ok(outcome.pid && (await waitGone(outcome.pid)), 'the script process is gone');
    assert.ok(existsSync(pidFile));
    assert.ok(await waitGone(Number(readFileSync(pidFile, 'utf8'))), 'its child is gone too');
    const text = formatScriptOutcome(scriptPlan(), outcome, 700);
    assert.match(text.text, /timed out after 700 ms and was stopped \(setting toolshed\.skills\.scriptTimeoutMs\)/);
    assert.equal(text.isError, true);
  });

  it('cancellation kills the process group promptly', async () => {
    let cancel: () => void = () => undefined;
    const signal = {
      isCancelled: false,
      onCancelled: (listener: () => void) => (
        (cancel = () => {
          signal.isCancelled = true;
          listener();
        }),
        () => undefined
      ),
    };
    const outcome = await runProcess(
      announcing(() => cancel()),
      node('console.log("ready"); setInterval(() => {}, 1000)'),
      { timeoutMs: 60_000 },
      signal,
    );
    assert.equal(outcome.cancelled, true);
    assert.ok(outcome.pid && (await waitGone(outcome.pid)));
    assert.match(formatScriptOutcome(scriptPlan(), outcome, 60_000).text, /cancelled by the user/);
  });

  it('a flag-only cancellation signal (no event) is polled', async () => {
    const signal = { isCancelled: false };
    const port = announcing(() => (signal.isCancelled = true));
    const outcome = await runProcess(port, node('console.log("ready"); setInterval(() => {}, 1000)'), { timeoutMs: 60_000 }, signal);
    assert.equal(outcome.cancelled, true);
  });

  it('100 MB of output is capped at 64 KB with "N bytes cut"', async () => {
    const outcome = await runProcess(nodeProcesses, node(`const b = Buffer.alloc(1 << 20, 97); for (let i = 0; i < 100; i++) process.stdout.write(b);`), {
      timeoutMs: 20_000,
    });
    assert.equal(outcome.exitCode, 0);
    assert.equal(outcome.stdoutCut, 100 * (1 << 20) - 64 * 1024);
    assert.ok(outcome.stdout.endsWith(`[… ${100 * (1 << 20) - 64 * 1024} bytes cut]`));
    assert.ok(outcome.stdout.length < 64 * 1024 + 100);
  });

  it('a program that cannot start (not executable, missing) gives a clear result', async () => {
    const file = path.join(dir, 'not-executable');
    writeFileSync(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    assert.equal(await isExecutableFile(file), false);
    const outcome = await runProcess(nodeProcesses, { command: file, args: [], cwd: dir, env: {} }, { timeoutMs: 5000 });
    assert.match(outcome.spawnError ?? '', /EACCES/);
    assert.match(formatScriptOutcome(scriptPlan(), outcome, 5000).text, /could not start .*EACCES/);
  });

  it('does not use a shell: metacharacters in arguments reach the script literally', async () => {
    const outcome = await runProcess(
      nodeProcesses,
      {
        ...node('console.log(JSON.stringify(process.argv.slice(1)))'),
        args: ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '$(touch pwned)', '; rm -rf x', '`id`'],
      },
      { timeoutMs: 30_000 },
    );
    assert.deepEqual(JSON.parse(outcome.stdout), ['$(touch pwned)', '; rm -rf x', '`id`']);
    assert.equal(existsSync(path.join(dir, 'pwned')), false);
  });
});

describe('skill scripts: environment allow-list', () => {
  it("passes PATH, HOME, LANG and the skill's `requires` only; never loader-hijacking variables", () => {
    const host = {
      PATH: '/bin',
      HOME: '/h',
      LANG: 'C',
      GITHUB_TOKEN: 'ghp_secret',
      OPENAI_API_KEY: 'sk-x',
      JIRA_URL: 'https://j',
      NODE_OPTIONS: '--require evil',
      LD_PRELOAD: 'x.so',
    };
    const { env, passed, refused } = scriptEnvironment(host, ['JIRA_URL', 'NODE_OPTIONS', 'LD_PRELOAD']);
    assert.deepEqual(env, { PATH: '/bin', HOME: '/h', LANG: 'C', JIRA_URL: 'https://j' });
    assert.deepEqual(passed, ['PATH', 'HOME', 'LANG', 'JIRA_URL']);
    assert.deepEqual(refused, ['NODE_OPTIONS', 'LD_PRELOAD']);
  });

  it('a real script sees only the allow-listed variables', async () => {
    const { env } = scriptEnvironment({ ...process.env, SECRET_TOKEN: 'hunter2' }, []);
    const outcome = await runProcess(
      nodeProcesses,
      { command: process.execPath, args: ['-e', 'console.log(Object.keys(process.env).sort().join(","))'], cwd: dir, env },
      { timeoutMs: 30_000 },
    );
    const names = outcome.stdout.trim().split(',').filter(Boolean);
    assert.ok(names.includes('PATH'), `the script ran and printed its variables: ${outcome.stdout}`);
    assert.ok(!names.includes('SECRET_TOKEN'));
    // The run marker (a random value) lets the runner find processes that detach with setsid.
    assert.ok(
      names.every((n) => ['PATH', 'HOME', 'LANG', 'TOOLSHED_SCRIPT_RUN'].includes(n)),
      names.join(','),
    );
  });
});

describe('skill scripts: output cap', () => {
  it('keeps the first bytes, counts the rest, and says how many were cut', () => {
    const out = new CappedOutput(10);
    out.push(new TextEncoder().encode('hello '));
    out.push(new TextEncoder().encode('world, again'));
    assert.equal(out.cut, 8);
    assert.equal(out.text(), 'hello worl\n[… 8 bytes cut]');
    const small = new CappedOutput(10);
    small.push(new TextEncoder().encode('ok'));
    assert.equal(small.text(), 'ok');
  });
});

describe('skill scripts: planning a run', () => {
  it('plans interpreter (resolved on PATH), script path, argument array and cwd, and describes exactly that', async () => {
    const plan = await planScriptRun(
      scriptTool(),
      { args: ['src/a.ts', "it's"] },
      {
        workspaceFolder: '/ws',
        hostEnv: { PATH: path.dirname(process.execPath), HOME: '/h', TOKEN: 'x' },
        resolveProgram: (name, value) => resolveOnPath(name, value, isExecutableFile),
      },
    );
    assert.ok(plan.ok);
    assert.equal(plan.plan.program, path.join(path.dirname(process.execPath), 'node'));
    assert.deepEqual(plan.plan.args, ['/skills/count/scripts/count_lines.js', 'src/a.ts', "it's"]);
    assert.equal(plan.plan.cwd, '/ws');
    assert.deepEqual(plan.plan.envNames, ['PATH', 'HOME', 'TOOLSHED_SCRIPT_RUN']);
    const described = describeScriptRun(plan.plan).lines.join('\n');
    assert.match(
      described,
      /Interpreter: .*\/node\nScript: \/skills\/count\/scripts\/count_lines\.js\nArguments: src\/a\.ts 'it'\\''s'\nWorking directory: \/ws/,
    );
    assert.match(described, /allowed-tools: \(not restricted by the skill\)/);
  });

  it('finds an interpreter that is a symbolic link on PATH (like /usr/bin/sh → dash)', async () => {
    const bin = tempFolder('toolshed-bin-');
    symlinkSync(process.execPath, path.join(bin, 'node'));
    assert.equal(await resolveOnPath('node', bin, isExecutableFile), path.join(bin, 'node'));
    assert.equal(await resolveOnPath('python-nowhere', bin, isExecutableFile), undefined);
  });

  it('refuses clearly: no workspace, bad input, missing interpreter, missing required variable', async () => {
    const ctx = { workspaceFolder: '/ws', hostEnv: { PATH: '/nowhere' }, resolveProgram: async () => undefined };
    assert.match(
      ((await planScriptRun(scriptTool(), {}, { ...ctx, workspaceFolder: undefined })) as { message: string }).message,
      /needs an open workspace folder/,
    );
    assert.match(((await planScriptRun(scriptTool(), { args: [1, 2] }, ctx)) as { message: string }).message, /Invalid input/);
    assert.match(((await planScriptRun(scriptTool(), {}, ctx)) as { message: string }).message, /`node`, which was not found on PATH/);
    assert.match(((await planScriptRun({ ...scriptTool(), requires: ['JIRA_TOKEN'] }, {}, ctx)) as { message: string }).message, /JIRA_TOKEN/);
  });

  it('redacts secrets in the result sent back to the model', () => {
    const text = formatScriptOutcome(
      scriptPlan(),
      {
        pid: 1,
        exitCode: 0,
        signal: null,
        stdout: 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        stderr: '',
        stdoutCut: 0,
        stderrCut: 0,
        timedOut: false,
        cancelled: false,
        durationMs: 1,
      },
      1000,
    ).text;
    assert.ok(!text.includes('ghp_abcdefghijklmnopqrstuvwxyz0123456789'), text);
  });
});
