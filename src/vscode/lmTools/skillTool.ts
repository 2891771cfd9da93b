import type * as vscode from 'vscode';
import { answerSkillCall } from '../../core/planner/plannerSingleSkill';
import type { ToolshedServices } from '../services';
import { agentModeSkillContext, type SkillToolServices } from './skillToolRegistration';
import { textResult } from './toolResults';

/**
 * `skill` in Copilot agent mode. A contributed tool's schema is static, so here `skill_name` is
 * free text (the @toolshed loop sends an enum of the run's listing instead); an unknown name is
 * answered with the closest names the caller may see. package.json shows the tool only when
 * `toolshed.skills.toolStyle` is not `discovery` (a `when` clause).
 */
/** What the chat shows while the call runs: from the input alone, so shown before the services are open too. */
export const skillLoadMessage = (input: { skill_name?: unknown }) => `Loading skill ${typeof input?.skill_name === 'string' ? input.skill_name : ''}`;

export function skillLoadTool(services: SkillToolServices & Pick<ToolshedServices, 'skills'>): vscode.LanguageModelTool<{ skill_name?: unknown }> {
  return {
    prepareInvocation: (options) => ({ invocationMessage: skillLoadMessage(options.input) }),
    async invoke(options) {
      if (!services.settings.current.skills.enabled) {
        return textResult('Skills are turned off in this workspace (setting toolshed.skills.enabled). Continue without them.');
      }
      // The load may still be checking the library: the skill service decides whether this answer waits.
      await services.skillPacks.answerable;
      services.syncToolCatalog();
      return textResult((await answerSkillCall(services.skills, agentModeSkillContext(services), options.input, [])).resultText);
    },
  };
}
