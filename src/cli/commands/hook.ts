import { askResidentFirst, claimResidentStart, DEFAULT_BUDGET_MS, parseHookArgs, readStdin, refuseHook } from './hookIo';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { serveResidentHook } from '../../core/runtimes/residentHook';
import { TOOLSHED_VERSION } from '../../core/platform/version';
import { doorFolderFor, toolshedHome } from '../../core/runtimes/doors/doorFolder';
import { runPromptHook } from '../../core/runtimes/promptHook';
import { MAX_HOOK_EVENT_BYTES, RUNTIME_IDS } from '../../core/runtimes/runtimeDescriptors';
import type { RuntimeId } from '../../core/runtimes/runtimeDescriptors';
import type { CliCommand, CliIo } from '../cliCommand';
import { onStopSignals } from '../stopSignals';

/**
 * `--serve DIR`: the resident hook (see residentHook.ts). The start lock stays until it listens
 * or knows it will not: opening a large library can take seconds on a busy machine, and a prompt
 * meanwhile must not start a second one.
 */
async function serve(runtime: RuntimeId, workspace: string): Promise<number> {
  const lock = path.join(doorFolderFor(workspace, toolshedHome()), `hook.${runtime}.starting`);
  const release = () => rmSync(lock, { force: true });
  // A logout or shutdown signals the resident hook: it ends as after its idle time, saved.
  const stopped = new AbortController();
  const removeStopHandlers = onStopSignals(() => stopped.abort());
  try {
    await serveResidentHook({
      runtime,
      workspaceFolder: workspace,
      version: TOOLSHED_VERSION,
      toolshedHome: toolshedHome(),
      onSettled: release,
      stop: stopped.signal,
    });
  } finally {
    removeStopHandlers();
    release();
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
    '',
    '       toolshed hook <runtime> --serve DIR',
    '',
    "The resident hook for the workspace DIR (the hook starts it on its own): keeps the workspace's skills open so",
    'the next prompts are answered over a socket in its door folder; stops after 30 minutes without a prompt, or once',
    'the workspace or its door folder is gone.',
    'TOOLSHED_HOOK_RESIDENT=0 in the environment turns the resident hook off.',
  ].join('\n'),
  async run(args, io) {
    const started = Date.now();
    const call = parseHookArgs(args);
    if ('problem' in call) return refuseHook(io, call.problem);
    if (call.serve) return serve(call.runtime, call.serve);
    try {
      const input = await readStdin(MAX_HOOK_EVENT_BYTES, started + call.budgetMs);
      const resident = await askResidentFirst(call.runtime, input, started, call.budgetMs, io);
      return resident.answered ? 0 : await answerInProcess(call.runtime, input.bytes, started, call.budgetMs, resident.startResident, io);
    } catch (error) {
      return refuseHook(io, error instanceof Error ? error.message : String(error));
    }
  },
};

/**
 * The hook without a resident process: pre-flight over a door opened for this event (the
 * fast path `dist/hookClient.js` comes here when no resident hook answered); then starts a
 * resident hook for the next prompt when `startFor` names the workspace. That resident hook
 * checks the whole library as it opens, so this process does not wait for its own check: it
 * answers (a warm start answers before the check ends), keeps its answer's use counts, and
 * exits (DoorSession.handOver) — unless the last resident hook died while starting, when it
 * checks and saves as a run without one does.
 */
export async function answerInProcess(
  name: RuntimeId,
  bytes: Buffer,
  started: number,
  budgetMs: number,
  startFor: string | undefined,
  io: CliIo,
): Promise<number> {
  let timedOut = false;
  const resident = startFor ? claimResidentStart(name, startFor) : undefined;
  const handOver = resident?.fresh === true;
  const answer = await runPromptHook(bytes, {
    runtime: name,
    cwd: process.cwd(),
    budgetMs: Math.max(1, budgetMs - (Date.now() - started)),
    onTimeout: () => {
      timedOut = true;
    },
    handOver,
  });
  // Started after the answer's use counts are saved: the resident hook reads them as it opens.
  resident?.start();
  if (answer.stdout) io.stdout(answer.stdout);
  if (answer.stderr) io.stderr(`${answer.stderr}\n`);
  // The door that ran out of time, or was handed over, may still be loading in this process: do not wait for it.
  if (timedOut || handOver) exitWhenWritten();
  return 0;
}

/** Exits once what was written to stdout and stderr has left the process (a pipe may take it later than the write call: macOS). */
function exitWhenWritten(): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(0)));
}
