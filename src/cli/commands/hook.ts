import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import * as path from 'node:path';
import { openDoorSession } from '../../core/runtimes/doorSession';
import { doorFolderFor, toolshedHome } from '../../core/runtimes/doors/doorFolder';
import { runPromptHook } from '../../core/runtimes/promptHook';
import { isRuntimeId, MAX_HOOK_EVENT_BYTES, RUNTIME_IDS } from '../../core/runtimes/runtimeDescriptors';
import type { RuntimeId } from '../../core/runtimes/runtimeDescriptors';
import { escapeForLine } from '../../core/platform/lineText';
import type { CliCommand, CliIo } from '../cliCommand';

/** How long the hook may take before it gives up and adds nothing (reading stdin included). */
const DEFAULT_BUDGET_MS = 3000;
/** A warming lock older than this was left by a process that died. */
const STALE_WARMING_MS = 10 * 60 * 1000;

/**
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

/**
 * Finishes indexing a workspace the hook gave up on, in a detached process, so the next prompt
 * starts warm; at most one per workspace and runtime at a time (a lock file in the door folder).
 */
function warmInBackground(runtime: RuntimeId, workspace: string): void {
  try {
    const folder = doorFolderFor(workspace, toolshedHome());
    mkdirSync(folder, { recursive: true });
    const lock = path.join(folder, `warming.${runtime}.lock`);
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_WARMING_MS) unlinkSync(lock);
    } catch {
      // No lock yet.
    }
    closeSync(openSync(lock, 'wx'));
    const script = process.argv[1];
    if (!script) return;
    spawn(process.execPath, [script, 'hook', runtime, '--warm', workspace], { detached: true, stdio: 'ignore', env: process.env }).unref();
  } catch {
    // Another process is warming it, or the folder cannot be written: the next prompt tries again.
  }
}

/** `--warm DIR`: open the door (index what changed, save) and release the lock. */
async function warm(runtime: RuntimeId, workspace: string): Promise<number> {
  const lock = path.join(doorFolderFor(workspace, toolshedHome()), `warming.${runtime}.lock`);
  try {
    const door = await openDoorSession({ runtime, workspaceFolder: workspace });
    await door.dispose();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // Already gone.
    }
  }
  return 0;
}

export const hookCommand: CliCommand = {
  path: ['hook'],
  summary: "Skill pre-flight as an agent runtime's prompt-submit hook (copilot, claude, codex): reads the event on stdin",
  usage: [
    `Usage: toolshed hook <${RUNTIME_IDS.join('|')}> [--budget-ms N]`,
    '',
    "Run by the runtime on every prompt (Copilot CLI and VS Code's Copilot harness: userPromptSubmitted; Claude Code",
    "and Codex: UserPromptSubmit). Reads the event JSON on stdin (at most 1 MB), runs @toolshed's skill pre-flight with",
    "the default toolshed.skills.* settings over the skill folders that runtime reads (the workspace's own only when",
    "the workspace is trusted) and Toolshed's library (~/.toolshed/skills), and prints the skills that apply in the",
    "runtime's answer format, or nothing. Anything that goes wrong (bad input, a timeout: --budget-ms, default",
    `${DEFAULT_BUDGET_MS}) prints nothing, one line on stderr, and exits 0: the prompt always goes through.`,
  ].join('\n'),
  async run(args, io) {
    const started = Date.now();
    const [name = '', ...rest] = args;
    // Exit 0 even for a mistake in the call: Claude Code and Codex block the prompt on exit code 2.
    const refuse = (reason: string) => {
      io.stderr(`toolshed hook: no skills added: ${escapeForLine(reason)}\n`);
      return 0;
    };
    if (!isRuntimeId(name)) return refuse(`unknown runtime "${name.slice(0, 40)}" (one of: ${RUNTIME_IDS.join(', ')})`);
    if (rest[0] === '--warm' && rest[1]) return warm(name, path.resolve(rest[1]));
    let budgetMs = DEFAULT_BUDGET_MS;
    if (rest[0] === '--budget-ms') {
      budgetMs = Number(rest[1]);
      if (!Number.isInteger(budgetMs) || budgetMs <= 0) return refuse('--budget-ms needs a positive whole number of milliseconds');
    } else if (rest.length > 0) return refuse(`unexpected argument "${escapeForLine(rest[0] ?? '').slice(0, 40)}"`);
    try {
      return await answerEvent(name, budgetMs, started, io);
    } catch (error) {
      return refuse(error instanceof Error ? error.message : String(error));
    }
  },
};

async function answerEvent(name: RuntimeId, budgetMs: number, started: number, io: CliIo): Promise<number> {
  const input = await readStdin(MAX_HOOK_EVENT_BYTES, started + budgetMs);
  const refuse = (reason: string) => {
    io.stderr(`toolshed hook: no skills added: ${escapeForLine(reason)}\n`);
    return 0;
  };
  if (input.tooLarge) return refuse(`the hook event is larger than ${MAX_HOOK_EVENT_BYTES} bytes`);
  if (input.timedOut) return refuse(`stdin was not closed within ${budgetMs} ms`);
  let timedOut = false;
  const answer = await runPromptHook(input.bytes, {
    runtime: name,
    cwd: process.cwd(),
    budgetMs: Math.max(1, budgetMs - (Date.now() - started)),
    onTimeout: (workspace) => {
      timedOut = true;
      warmInBackground(name, workspace);
    },
  });
  if (answer.stdout) io.stdout(answer.stdout);
  if (answer.stderr) io.stderr(`${answer.stderr}\n`);
  // The door that ran out of time is still opening in this process: do not wait for it.
  if (timedOut) setImmediate(() => process.exit(0));
  return 0;
}
