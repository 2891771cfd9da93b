import * as vscode from 'vscode';
import type { ToolExecutor } from '../../core/planner/plannerPorts';
import { toolResultText } from './messageConversion';

/**
 * Runs a tool through `vscode.lm.invokeTool`, passing the chat request's invocation token so
 * VS Code's own confirmations and progress UI still apply to every call.
 */
export function createLmToolExecutor(toolInvocationToken: vscode.ChatParticipantToolToken | undefined, token: vscode.CancellationToken): ToolExecutor {
  return {
    async invoke(name, input) {
      const result = await vscode.lm.invokeTool(name, { input: (input ?? {}) as object, toolInvocationToken }, token);
      return { text: toolResultText(result) };
    },
  };
}
