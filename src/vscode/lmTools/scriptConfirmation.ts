import * as vscode from 'vscode';
import { describeScriptRun } from '../../core/skills/scripts/scriptInvocation';
import type { ToolshedServices } from '../services';

/**
 * prepareInvocation for `tool_invoke` on a skill script: VS Code's confirmation with the exact
 * interpreter, script, arguments, working directory, environment names, the skill's
 * allowed-tools and the static-check warnings. A call that cannot be planned needs no
 * confirmation: invoke answers it with the reason and runs nothing.
 */
export async function prepareScriptConfirmation(
  services: Pick<ToolshedServices, 'scriptRuns'>,
  name: string,
  input: unknown,
): Promise<vscode.PreparedToolInvocation> {
  const planned = await services.scriptRuns.plan(name, input ?? {});
  if (!planned.ok) return { invocationMessage: `Checking \`${name}\`` };
  const { title, lines } = describeScriptRun(planned.plan);
  const message = new vscode.MarkdownString(lines.map((line) => `- ${escapeMarkdown(line)}`).join('\n'));
  return {
    invocationMessage: `Running skill script \`${planned.plan.tool.relativePath}\``,
    confirmationMessages: { title, message },
  };
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>]/g, '\\$&');
}
