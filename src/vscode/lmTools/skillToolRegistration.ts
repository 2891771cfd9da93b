import * as vscode from 'vscode';
import { describeToolInputError } from '../../core/planner/skillsPort';
import type { ToolshedServices } from '../services';
import { jsonResult, textResult } from './toolResults';

/**
 * Shared body of the three skill tools as seen from Copilot agent mode: wait for packs to
 * load, answer within the current trust/scope/tool-policy context, and turn bad input into a
 * message the model can act on.
 */
export function registerSkillTool<T>(
  services: ToolshedServices,
  name: string,
  progressMessage: (input: T) => string,
  answer: (input: T, services: ToolshedServices) => Promise<unknown>,
): vscode.Disposable {
  return vscode.lm.registerTool<T>(name, {
    prepareInvocation: (options) => ({ invocationMessage: progressMessage(options.input) }),
    async invoke(options) {
      if (!services.settings.current.skills.enabled) {
        return textResult('Skills are turned off in this workspace (setting toolshed.skills.enabled). Continue without them.');
      }
      try {
        await services.skillPacks.ready;
        services.syncToolCatalog();
        return jsonResult(await answer(options.input, services));
      } catch (error) {
        return textResult(describeToolInputError(name, error));
      }
    },
  });
}
