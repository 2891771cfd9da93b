import * as vscode from 'vscode';
import { SKILL_REPORT_OUTCOME_TOOL_NAME } from '../../core/platform/toolNames';
import { skillReportOutcomeInputSchema } from '../../core/learning/feedback/reportToolSchemas';
import { describeToolInputError } from '../../core/schema/zodSchemas';
import type { ToolshedServices } from '../services';
import { textResult } from './toolResults';

/** `skill_report_outcome`: a model says whether the skills it followed helped (counters only). */
export function registerSkillReportOutcomeTool(services: ToolshedServices): vscode.Disposable {
  return vscode.lm.registerTool<unknown>(SKILL_REPORT_OUTCOME_TOOL_NAME, {
    prepareInvocation: () => ({ invocationMessage: 'Reporting how the skills worked' }),
    async invoke(options) {
      const learning = services.learning;
      if (!learning.enabled) return textResult(learningOffMessage());
      try {
        const input = skillReportOutcomeInputSchema.parse(options.input);
        await services.skillPacks.ready;
        const known = input.names.filter((name) => services.skills.inspect(name));
        const unknown = input.names.filter((name) => !known.includes(name));
        const recorded = await learning.service.recordOutcome(known, input.outcome);
        learning.notifyChanged();
        return textResult(`Recorded "${input.outcome}" for ${recorded} skill(s).${unknown.length ? ` Unknown skill names ignored: ${unknown.join(', ')} (use the exact names from skill_get).` : ''}`);
      } catch (error) {
        return textResult(describeToolInputError(SKILL_REPORT_OUTCOME_TOOL_NAME, error));
      }
    },
  });
}

export function learningOffMessage(): string {
  return 'Learning is off in this workspace (setting toolshed.learning.mode, and it is always off in an untrusted workspace). Nothing was recorded; continue without it.';
}
