import type * as vscode from 'vscode';
import { type ToolSearchInputRaw } from '../../core/tools/toolSearchSchema';
import { AGENT_MODE_SESSION, type ToolshedServices } from '../services';
import { jsonResult, textResult } from './toolResults';

/**
 * `tool_search` for Copilot agent mode and any other caller of `vscode.lm.invokeTool`.
 * (The @toolshed participant handles its own calls in-process, where a search also activates.)
 * Agent mode's tool list cannot be changed from here, so results point the model at
 * `tool_invoke` for tools it does not see.
 */
/** What the chat shows while the call runs: from the input alone, so shown before the services are open too. */
export const toolSearchMessage = (input: ToolSearchInputRaw) => `Searching tools for "${typeof input?.query === 'string' ? input.query : ''}"`;

export function toolSearchTool(services: Pick<ToolshedServices, 'syncToolCatalog' | 'tools' | 'toolVisibility'>): vscode.LanguageModelTool<ToolSearchInputRaw> {
  return {
    prepareInvocation: (options) => ({ invocationMessage: toolSearchMessage(options.input) }),
    async invoke(options) {
      services.syncToolCatalog();
      // An embedding endpoint answers asynchronously: the query's vector is fetched first (under
      // the endpoint's timeout; none = lexical ranking), the search itself stays synchronous.
      if (typeof options.input?.query === 'string') await services.tools.embeddings.prepare(options.input.query);
      const result = await services.tools.withRun({ sessionId: AGENT_MODE_SESSION, isVisible: services.toolVisibility() }, (run) => run.search(options.input));
      if (!result.ok) return textResult(result.error);
      return jsonResult({
        ...result.output,
        how_to_call: 'Call a tool you can see directly. For one not in your tool list, call tool_invoke with {"name": "<tool name>", "input": {…}}.',
      });
    },
  };
}
