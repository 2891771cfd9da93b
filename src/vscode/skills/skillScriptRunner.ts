import * as vscode from 'vscode';
import type { EventSink, Logger } from '../../core/platform/ports';
import { isExecutableFile, nodeProcesses } from '../../core/platform/nodeProcesses';
import { nodeFileSystem } from '../../core/platform/nodeFileSystem';
import { runProcess } from '../../core/skills/scripts/processRunner';
import { linkedScriptPath } from '../../core/skills/scripts/scriptDiscovery';
import { describeScriptRun, formatScriptOutcome, planScriptRun, resolveOnPath } from '../../core/skills/scripts/scriptInvocation';
import type { ScriptRunPlan } from '../../core/skills/scripts/scriptInvocation';
import type { SettingsAccessor } from '../settingsAccessor';
import type { SkillScriptTools } from './skillScriptTools';

const RUN_CHOICE = 'Run';
const ALLOW_SESSION_CHOICE = 'Allow for this session';

/** What the confirmation shows; the answer is `Run`, `Allow for this session` or undefined (declined). */
export interface ScriptConfirmationRequest {
  title: string;
  detail: string;
  choices: readonly string[];
}
export type ScriptConfirmationPrompt = (request: ScriptConfirmationRequest) => Thenable<string | undefined>;

/** VS Code's modal warning dialog: nothing runs unless the user presses a button. */
const modalConfirmationPrompt: ScriptConfirmationPrompt = (request) =>
  vscode.window.showWarningMessage(request.title, { modal: true, detail: request.detail }, ...request.choices);

/**
 * Runs skill scripts: trust check, plan (exact program, arguments, cwd, environment names),
 * the user's confirmation, then the process with timeout, output cap and cancellation. The
 * `@toolshed` loop confirms here; `tool_invoke` confirms through VS Code's own tool
 * confirmation (its prepareInvocation shows the same description) and passes `confirmed`.
 * "Allow for this session" lasts until the window reloads and covers one script file only.
 */
export class SkillScriptRunner {
  /** Replaceable so a host test can answer the dialog; it receives exactly what the dialog shows. */
  prompt: ScriptConfirmationPrompt = modalConfirmationPrompt;
  private readonly allowedForSession = new Set<string>();

  constructor(
    private readonly scripts: SkillScriptTools,
    private readonly settings: SettingsAccessor,
    private readonly events: EventSink,
    private readonly logger: Logger,
  ) {}

  /** Plans a call without running it (for prepareInvocation and the dialog). */
  async plan(name: string, input: unknown): Promise<{ ok: true; plan: ScriptRunPlan } | { ok: false; message: string }> {
    if (!vscode.workspace.isTrusted) return { ok: false, message: untrustedMessage(name) };
    const tool = this.scripts.get(name);
    if (!tool) return { ok: false, message: `No skill script named "${name}" is available. Use tool_search to find tools.` };
    const linked = await linkedScriptPath(nodeFileSystem, tool.skillFolder, tool.file);
    if (linked) return { ok: false, message: `${name} cannot run: ${linked} Tell the user to reload the skill packs.` };
    return planScriptRun(tool, input, {
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      hostEnv: process.env,
      resolveProgram: (program, pathValue) => resolveOnPath(program, pathValue, isExecutableFile),
    });
  }

  async run(name: string, input: unknown, token: vscode.CancellationToken, options: { confirmed?: boolean } = {}): Promise<{ text: string; isError: boolean }> {
    const planned = await this.plan(name, input);
    if (!planned.ok) return { text: planned.message, isError: true };
    const plan = planned.plan;
    if (!options.confirmed && !this.allowedForSession.has(plan.tool.file)) {
      const { title, lines } = describeScriptRun(plan);
      const answer = await this.prompt({ title, detail: lines.join('\n'), choices: [RUN_CHOICE, ALLOW_SESSION_CHOICE] });
      if (answer === ALLOW_SESSION_CHOICE) this.allowedForSession.add(plan.tool.file);
      else if (answer !== RUN_CHOICE) {
        this.events.emit({ type: 'skill_script_declined', payload: { tool: name } });
        return { text: `The user declined to run ${name}. Do not retry it unless the user asks; continue without it.`, isError: true };
      }
    }
    // Trust can be revoked only by a reload, but check again right before starting.
    if (!vscode.workspace.isTrusted) return { text: untrustedMessage(name), isError: true };
    const timeoutMs = this.settings.current.skills.scriptTimeoutMs;
    const outcome = await runProcess(
      nodeProcesses,
      { command: plan.program, args: plan.args, cwd: plan.cwd, env: plan.env },
      { timeoutMs },
      {
        get isCancelled() {
          return token.isCancellationRequested;
        },
        onCancelled: (listener) => {
          const subscription = token.onCancellationRequested(listener);
          return () => subscription.dispose();
        },
      },
    );
    this.events.emit({
      type: 'skill_script_run',
      payload: {
        tool: name,
        exit_code: outcome.exitCode,
        timed_out: outcome.timedOut,
        cancelled: outcome.cancelled,
        duration_ms: outcome.durationMs,
        stdout_cut: outcome.stdoutCut,
        stderr_cut: outcome.stderrCut,
      },
    });
    if (outcome.spawnError) this.logger.warn(`${name}: ${outcome.spawnError}`);
    return formatScriptOutcome(plan, outcome, timeoutMs);
  }
}

function untrustedMessage(name: string): string {
  return `${name} cannot run: skill scripts run only in a trusted workspace. Ask the user to trust the workspace (Manage Workspace Trust).`;
}
