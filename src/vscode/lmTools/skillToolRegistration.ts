import type * as vscode from 'vscode';
import { describeToolInputError } from '../../core/schema/zodSchemas';
import type { SkillRequestContext } from '../../core/skills/skillService';
import type { ToolshedServices } from '../services';
import { jsonResult, textResult } from './toolResults';
import { markStart } from '../../core/platform/startTrace';

/**
 * The skill context of Copilot agent mode: like @toolshed's, less the SKILL.md skills VS Code's
 * own agent skills already offer there (one skill is never shown twice).
 */
export function agentModeSkillContext(services: Pick<ToolshedServices, 'skillContext' | 'nativeSkills'>): SkillRequestContext {
  return { ...services.skillContext(), nativeSkillNames: services.nativeSkills.names() };
}

/** What the skill tools use: settings, pack loading, the tool catalog, and the request context. */
export type SkillToolServices = Pick<ToolshedServices, 'settings' | 'skillPacks' | 'syncToolCatalog' | 'skillContext' | 'nativeSkills'>;

/**
 * Shared body of the skill tools as seen from Copilot agent mode: wait until the pack
 * load is under way (the skill service decides whether an answer waits for it to end), answer within the current trust/scope/tool-policy context, and turn bad input into a
 * message the model can act on.
 */
export function agentModeSkillTool<T>(
  services: SkillToolServices,
  name: string,
  progressMessage: (input: T) => string,
  answer: (input: T, ctx: SkillRequestContext) => Promise<unknown>,
): vscode.LanguageModelTool<T> {
  return {
    prepareInvocation: (options) => ({ invocationMessage: progressMessage(options.input) }),
    async invoke(options) {
      if (!services.settings.current.skills.enabled) {
        return textResult('Skills are turned off in this workspace (setting toolshed.skills.enabled). Continue without them.');
      }
      try {
        // The load may still be checking the library: the skill service decides whether this answer waits.
        markStart('skilltool:invoke');
        await services.skillPacks.answerable;
        markStart('skilltool:answerable');
        services.syncToolCatalog();
        const answered = await answer(options.input, agentModeSkillContext(services));
        markStart('skilltool:answered');
        const result = jsonResult(answered);
        markStart('skilltool:json');
        return result;
      } catch (error) {
        return textResult(describeToolInputError(name, error));
      }
    },
  };
}
