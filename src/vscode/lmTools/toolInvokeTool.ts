import * as vscode from 'vscode';
import { TOOLSHED_TOOL_NAMES, TOOL_INVOKE_TOOL_NAME } from '../../core/platform/toolNames';
import { NO_SUCH_TOOL_MESSAGE } from '../../core/tools/toolText';
import { AGENT_MODE_SESSION, type ToolshedServices } from '../services';
import { prepareScriptConfirmation } from './scriptConfirmation';
import { textResult } from './toolResults';
import { toolRunRefusal } from '../../core/trust/restrictedMode';

interface ToolInvokeInput {
  name?: unknown;
  input?: unknown;
}

/**
 * `tool_invoke {name, input}`: lets Copilot agent mode — whose tool list Toolshed cannot
 * change — run a deferred tool it found with `tool_search`. Policy-checked (denied, hidden
 * and unknown names get the same answer), refused in untrusted workspaces, and executed via
 * `vscode.lm.invokeTool` with the caller's invocation token so VS Code's confirmations apply.
 */
export function toolInvokeTool(
  services: Pick<ToolshedServices, 'skillScripts' | 'scriptRuns' | 'syncToolCatalog' | 'tools' | 'toolVisibility' | 'activity' | 'settings' | 'logger'>,
): vscode.LanguageModelTool<ToolInvokeInput> {
  return {
    async prepareInvocation(options) {
      const name = typeof options.input?.name === 'string' ? options.input.name : 'a tool';
      // A skill script: VS Code's confirmation shows exactly what will run before anything does.
      if (services.skillScripts.has(name)) return prepareScriptConfirmation(services, name, options.input?.input);
      return { invocationMessage: `Running \`${name}\` through Toolshed` };
    },
    async invoke(options, token) {
      const name = options.input?.name;
      if (!vscode.workspace.isTrusted) return textResult(toolRunRefusal(typeof name === 'string' ? name : 'the tool'));
      if (typeof name !== 'string' || name.trim() === '') {
        return textResult('tool_invoke needs "name": the exact tool name returned by tool_search, and "input": an object with that tool\'s parameters.');
      }
      const input = options.input?.input ?? {};
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        return textResult(`"input" must be an object with the parameters of "${name}".`);
      }
      if ((TOOLSHED_TOOL_NAMES as readonly string[]).includes(name)) {
        return textResult(`Call ${name} directly instead of through tool_invoke.`);
      }
      // A name the catalog does not know yet may have just been published: re-read the list now.
      services.syncToolCatalog({ fresh: !services.tools.registryMap().has(name) });
      const resolution = await services.tools.withRun({ sessionId: AGENT_MODE_SESSION, isVisible: services.toolVisibility() }, (run) => run.resolveCall(name));
      if (!resolution.ok) return textResult(NO_SUCH_TOOL_MESSAGE);
      if (services.skillScripts.has(name)) {
        // Confirmed by VS Code through prepareInvocation's confirmationMessages.
        return textResult((await services.scriptRuns.run(name, input, token, { confirmed: true })).text);
      }
      try {
        const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: options.toolInvocationToken }, token);
        services.activity.recordInvocation({
          toolName: name,
          sessionId: AGENT_MODE_SESSION,
          sessionLabel: services.activity.sessionLabel(AGENT_MODE_SESSION),
          reason: TOOL_INVOKE_TOOL_NAME,
          at: Date.now(),
        });
        recordPick(services, name, true);
        return result;
      } catch (error) {
        recordPick(services, name, false);
        return textResult(`Tool "${name}" failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

/** Agent mode's pick after its tool_search (same session), for the learned prior; best effort. */
function recordPick(services: Pick<ToolshedServices, 'settings' | 'tools' | 'logger'>, name: string, succeeded: boolean): void {
  if (!services.settings.current.toolSearch.learnFromUse) return;
  try {
    services.tools.pickLog.recordOutcome(AGENT_MODE_SESSION, name, succeeded, Date.now());
  } catch (error) {
    services.logger.debug(`Could not record the pick of ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
