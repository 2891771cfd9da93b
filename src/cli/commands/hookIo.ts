import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statSync, unlinkSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { doorFolderFor, toolshedHome } from '../../core/runtimes/doors/doorFolder';
import { isRuntimeId, MAX_HOOK_EVENT_BYTES, parseHookEvent, RUNTIME_IDS } from '../../core/runtimes/runtimeDescriptors';
import type { RuntimeId } from '../../core/runtimes/runtimeDescriptors';
import { residentSocketPath } from '../../core/runtimes/residentSocket';
import { escapeForLine } from '../../core/platform/lineText';
import type { CliIo } from '../cliCommand';
import type { ResidentAnswer } from '../../core/runtimes/residentSocket';
import { TOOLSHED_VERSION } from '../../core/platform/version';

/**
 * What both ends of `toolshed hook` share: the full command (hook.ts) and the fast path
 * (`dist/hookClient.js`, which loads no engine): reading the event, asking the resident hook,
 * starting one. Nothing here may import the skill engine.
 */

export /**
 * Reads stdin until it closes, at most `limit` bytes (more is reported as too large without
 * reading on), or until `deadline`; never waits on a terminal.
 */
function readStdin(limit: number, deadline: number): Promise<{ bytes: Buffer; tooLarge: boolean; timedOut: boolean }> {
  return new Promise((resolve) => {
    if (process.stdin.isTTY) {
      resolve({ bytes: Buffer.alloc(0), tooLarge: false, timedOut: false });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (tooLarge: boolean, timedOut: boolean) => {
      clearTimeout(timer);
      process.stdin.removeAllListeners('data').removeAllListeners('end').removeAllListeners('error');
      process.stdin.pause();
      resolve({ bytes: Buffer.concat(chunks), tooLarge, timedOut });
    };
    const timer = setTimeout(() => finish(false, true), Math.max(0, deadline - Date.now()));
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(true, false);
      else chunks.push(chunk);
    });
    process.stdin.on('end', () => finish(false, false));
    process.stdin.on('error', () => finish(false, false));
  });
}

/** A start lock older than this was left by a resident hook that died while starting. */
const STALE_START_MS = 2 * 60 * 1000;

/**
 * Claims the start of the resident hook for the next prompt (at most one start at a time per
 * workspace and runtime) and returns what starts it, detached; undefined when another prompt is
 * starting one or the door folder cannot be written (the next prompt tries again). The caller
 * must call what it gets, or the claim holds for STALE_START_MS. `fresh` is false when the claim
 * took over a stale one: a resident hook died while starting, and may again.
 */
export function claimResidentStart(runtime: RuntimeId, workspace: string): { start(): void; fresh: boolean } | undefined {
  try {
    const folder = doorFolderFor(workspace, toolshedHome());
    mkdirSync(folder, { recursive: true });
    const lock = path.join(folder, `hook.${runtime}.starting`);
    let fresh = true;
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_START_MS) {
        unlinkSync(lock);
        fresh = false;
      }
    } catch {
      // No lock yet.
    }
    closeSync(openSync(lock, 'wx'));
    const script = process.argv[1];
    const start = () => {
      try {
        if (!script) throw new Error('no script to start');
        spawn(process.execPath, [script, 'hook', runtime, '--serve', workspace], { detached: true, stdio: 'ignore', env: process.env }).unref();
      } catch {
        // Not started: the claim goes, and the next prompt tries again.
        rmSync(lock, { force: true });
      }
    };
    return { start, fresh: fresh && script !== undefined };
  } catch {
    return undefined;
  }
}

/** The resident hook's answer, or undefined when none is listening (or it is another version). */
function askResident(socket: string, event: string, deadline: number): Promise<ResidentAnswer | undefined> {
  return new Promise((resolve) => {
    const connection = net.connect(socket);
    let text = '';
    let settled = false;
    const done = (answer: ResidentAnswer | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(answer);
    };
    const timer = setTimeout(
      () => done({ stderr: 'toolshed hook: no skills added: the resident hook did not answer in time' }),
      Math.max(1, deadline - Date.now()),
    );
    connection.setEncoding('utf8');
    connection.once('connect', () => connection.write(`${JSON.stringify({ version: TOOLSHED_VERSION, event })}\n`));
    connection.on('data', (chunk: string) => (text += chunk));
    connection.once('end', () => {
      try {
        const answer = JSON.parse(text) as ResidentAnswer;
        done(answer.stale ? undefined : answer);
      } catch {
        done(undefined);
      }
    });
    connection.once('error', () => done(undefined));
  });
}

/** How long the hook may take before it gives up and adds nothing (reading stdin included). */
export const DEFAULT_BUDGET_MS = 3000;

/** Exit 0 even for a mistake in the call: Claude Code and Codex block the prompt on exit code 2. */
export function refuseHook(io: CliIo, reason: string): number {
  io.stderr(`toolshed hook: no skills added: ${escapeForLine(reason)}\n`);
  return 0;
}

export type HookCall = { runtime: RuntimeId; budgetMs: number; serve?: string } | { problem: string };

/** `<runtime> [--budget-ms N]`, or `<runtime> --serve DIR` (the resident hook). */
export function parseHookArgs(args: readonly string[]): HookCall {
  const [name = '', ...rest] = args;
  if (!isRuntimeId(name)) return { problem: `unknown runtime "${escapeForLine(name).slice(0, 40)}" (one of: ${RUNTIME_IDS.join(', ')})` };
  if (rest[0] === '--serve' && rest[1] && rest.length === 2) return { runtime: name, budgetMs: DEFAULT_BUDGET_MS, serve: path.resolve(rest[1]) };
  if (rest.length === 0) return { runtime: name, budgetMs: DEFAULT_BUDGET_MS };
  const budgetMs = Number(rest[1]);
  if (rest[0] === '--budget-ms' && rest.length === 2 && Number.isInteger(budgetMs) && budgetMs > 0) return { runtime: name, budgetMs };
  return {
    problem:
      rest[0] === '--budget-ms'
        ? '--budget-ms needs a positive whole number of milliseconds'
        : `unexpected argument "${escapeForLine(rest[0] ?? '').slice(0, 40)}"`,
  };
}

/**
 * Reports a bad read of stdin, or asks the workspace's resident hook. `answered`: the hook is
 * done (printed or refused); otherwise `startResident` names the workspace when a resident hook
 * may be started there (`TOOLSHED_HOOK_RESIDENT=0` turns the resident hook off).
 */
export async function askResidentFirst(
  name: RuntimeId,
  input: { bytes: Buffer; tooLarge: boolean; timedOut: boolean },
  started: number,
  budgetMs: number,
  io: CliIo,
): Promise<{ answered: boolean; startResident?: string }> {
  if (input.tooLarge) return { answered: refuseHook(io, `the hook event is larger than ${MAX_HOOK_EVENT_BYTES} bytes`) === 0 };
  if (input.timedOut) return { answered: refuseHook(io, `stdin was not closed within ${budgetMs} ms`) === 0 };
  if (process.env.TOOLSHED_HOOK_RESIDENT === '0') return { answered: false };
  let workspace: string;
  try {
    workspace = parseHookEvent(input.bytes.toString('utf8')).cwd ?? process.cwd();
  } catch {
    // The in-process run reports what is wrong with the event.
    return { answered: false };
  }
  const socket = residentSocketPath(doorFolderFor(workspace, toolshedHome()), name);
  if (!socket) return { answered: false };
  const answer = await askResident(socket, input.bytes.toString('utf8'), started + budgetMs);
  if (!answer) return { answered: false, startResident: workspace };
  if (answer.stdout) io.stdout(answer.stdout);
  if (answer.stderr) io.stderr(`${answer.stderr}\n`);
  return { answered: true };
}
