import * as path from 'node:path';
import { escapeForLine, hasLineBreakingCharacter } from '../../platform/lineText';
import { RUN_MARKER_VARIABLE } from '../../platform/processSweep';
import { redact } from '../../privacy/redaction';
import type { SkillScriptTool } from './scriptDiscovery';
import { scriptEnvironment } from './scriptEnvironment';
import { inputToArgv } from './scriptInterface';
import type { ProcessOutcome } from './processRunner';

/**
 * One call of a script tool, planned before anything runs: the exact program, argument array,
 * working directory and environment names. The same plan is shown in the confirmation and
 * then executed, so what the user approves is exactly what starts.
 */

export interface ScriptRunPlan {
  tool: SkillScriptTool;
  /** Absolute path of the program started (interpreter, or the script itself). */
  program: string;
  /** Arguments after the program (the script path first when an interpreter runs it). */
  args: string[];
  /** The script's own arguments (for display). */
  scriptArgs: string[];
  cwd: string;
  env: Record<string, string>;
  /** Names of the variables passed (values are never shown), with the run marker the process port adds. */
  envNames: string[];
}

export type PlanResult = { ok: true; plan: ScriptRunPlan } | { ok: false; message: string };

export interface PlanContext {
  /** The first workspace folder; scripts run there. */
  workspaceFolder: string | undefined;
  /** The host's environment (only allow-listed names are copied). */
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** Finds an executable on a PATH value (absolute path, or undefined). */
  resolveProgram(name: string, pathValue: string | undefined): Promise<string | undefined>;
}

export async function planScriptRun(tool: SkillScriptTool, input: unknown, context: PlanContext): Promise<PlanResult> {
  if (!context.workspaceFolder) return { ok: false, message: `${tool.toolName} needs an open workspace folder to run in. Open a folder and try again.` };
  const argv = inputToArgv(input, tool.declaredSchema ? tool.inputSchema : undefined);
  if (!argv.ok) return { ok: false, message: `Invalid input for ${tool.toolName}: ${argv.message}. Fix the arguments and call it again.` };
  const { env, passed } = scriptEnvironment(context.hostEnv, tool.requires);
  const missing = tool.requires.filter((name) => !passed.includes(name));
  if (missing.length)
    return {
      ok: false,
      message: `${tool.toolName} needs the environment variable(s) ${missing.join(', ')}, which are not set or not allowed. Tell the user to set them.`,
    };
  let program: string;
  let args: string[];
  if (tool.kind === 'executable') {
    program = tool.file;
    args = argv.argv;
  } else {
    const resolved = path.isAbsolute(tool.interpreter) ? tool.interpreter : await context.resolveProgram(tool.interpreter, env.PATH);
    if (!resolved) return { ok: false, message: `${tool.toolName} needs \`${tool.interpreter}\`, which was not found on PATH. Tell the user to install it.` };
    program = resolved;
    args = [tool.file, ...argv.argv];
  }
  return {
    ok: true,
    plan: { tool, program, args, scriptArgs: argv.argv, cwd: context.workspaceFolder, env, envNames: [...Object.keys(env), RUN_MARKER_VARIABLE] },
  };
}

/**
 * The confirmation text: exactly what will run, the skill's allowed-tools and the static-check
 * findings. Every value is one line: a newline, ESC or bidi override in an argument (chosen by
 * the model) or in a path is shown escaped, so it cannot forge a line such as "Interpreter: …".
 */
export function describeScriptRun(plan: ScriptRunPlan): { title: string; lines: string[] } {
  const show = escapeForLine;
  const lines = [
    `Skill: ${show(plan.tool.skillName)}`,
    `Interpreter: ${show(plan.program)}`,
    `Script: ${show(plan.tool.file)}`,
    `Arguments: ${plan.scriptArgs.length ? plan.scriptArgs.map(shellQuoted).join(' ') : '(none)'}`,
    `Working directory: ${show(plan.cwd)}`,
    `Environment passed: ${plan.envNames.map(show).join(', ') || '(none)'}`,
    `allowed-tools: ${plan.tool.allowedTools.length ? plan.tool.allowedTools.map(show).join(' ') : '(not restricted by the skill)'}`,
  ];
  for (const risk of plan.tool.risks) {
    lines.push(`⚠ Static check: the script ${risk.message} (line ${risk.line}: ${show(risk.evidence)}) — a pattern check, not a guarantee.`);
  }
  return { title: `Run ${show(plan.tool.relativePath)} of skill "${show(plan.tool.skillName)}"?`, lines };
}

/**
 * One argument as a POSIX shell would read it back: bare when safe, in single quotes otherwise,
 * and in ANSI-C quotes (`$'a\nb'`) when it holds a control or bidi character, which appears as
 * its escape.
 */
function shellQuoted(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  if (hasLineBreakingCharacter(arg)) return `$'${escapeForLine(arg).replace(/'/g, "\\'")}'`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** What the model reads after a run: exit status and the (capped, redacted) output. */
export function formatScriptOutcome(plan: ScriptRunPlan, outcome: ProcessOutcome, timeoutMs: number): { text: string; isError: boolean } {
  const name = plan.tool.toolName;
  if (outcome.spawnError) {
    return {
      text: redact(`${name} could not start ${plan.program}: ${outcome.spawnError}. Check that the interpreter is installed and the script is readable.`),
      isError: true,
    };
  }
  const status = outcome.cancelled
    ? 'cancelled by the user; the process was stopped'
    : outcome.timedOut
      ? `timed out after ${timeoutMs} ms and was stopped (setting toolshed.skills.scriptTimeoutMs)`
      : outcome.exitCode === null
        ? `killed by signal ${outcome.signal ?? 'unknown'}`
        : `exit code ${outcome.exitCode}`;
  const text = [`${name}: ${status}`, '--- stdout ---', outcome.stdout || '(empty)', '--- stderr ---', outcome.stderr || '(empty)'].join('\n');
  return { text: redact(text), isError: outcome.cancelled || outcome.timedOut || outcome.exitCode !== 0 };
}

/** Finds `name` on a PATH value with `isExecutable` (first match wins, like a shell). */
export async function resolveOnPath(
  name: string,
  pathValue: string | undefined,
  isExecutable: (file: string) => Promise<boolean>,
): Promise<string | undefined> {
  if (name.includes('/')) return (await isExecutable(name)) ? name : undefined;
  for (const dir of (pathValue ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}
