import * as vscode from 'vscode';
import { SKILL_REPORT_FAILURE_TOOL_NAME } from '../../core/platform/toolNames';
import { skillReportFailureInputSchema } from '../../core/learning/feedback/reportToolSchemas';
import { describeToolInputError } from '../../core/schema/zodSchemas';
import type { ToolshedServices } from '../services';
import { learningOffMessage } from './skillReportOutcomeTool';
import { textResult } from './toolResults';

/** `skill_report_failure`: a model reports a failure worth remembering → a proposed negative skill. */
export function registerSkillReportFailureTool(services: ToolshedServices): vscode.Disposable {
  return vscode.lm.registerTool<unknown>(SKILL_REPORT_FAILURE_TOOL_NAME, {
    prepareInvocation: () => ({ invocationMessage: 'Proposing a warning from a tool failure' }),
    async invoke(options) {
      const learning = services.learning;
      if (!learning.enabled) return textResult(learningOffMessage());
      try {
        const input = skillReportFailureInputSchema.parse(options.input);
        const proposal = await learning.service.reportFailure(input, 'language-model-tool');
        learning.notifyChanged();
        return textResult(proposal
          ? `Proposed the warning "${proposal.candidate.title}" for the user to review${proposal.count > 1 ? ` (reported ${proposal.count} times)` : ''}. Nothing changes until they approve it.`
          : 'Nothing was proposed.');
      } catch (error) {
        return textResult(describeToolInputError(SKILL_REPORT_FAILURE_TOOL_NAME, error));
      }
    },
  });
}
