import type * as vscode from 'vscode';
import { SKILL_REPORT_FAILURE_TOOL_NAME } from '../../core/platform/toolNames';
import { skillReportFailureInputSchema } from '../../core/learning/feedback/reportToolSchemas';
import type { ToolshedServices } from '../services';
import { learningReportTool } from './learningReportTool';

/** `skill_report_failure`: a model reports a failure worth remembering → a proposed negative skill. */
/** What the chat shows while the call runs: shown before the services are open too. */
export const skillReportFailureMessage = () => 'Proposing a warning from a tool failure';

export function skillReportFailureTool(services: Pick<ToolshedServices, 'learning'>): vscode.LanguageModelTool<unknown> {
  return learningReportTool(services, SKILL_REPORT_FAILURE_TOOL_NAME, skillReportFailureInputSchema, skillReportFailureMessage(), async (input) => {
    const proposal = await services.learning.writes.reportFailure(input, 'language-model-tool');
    return proposal
      ? `Proposed the warning "${proposal.candidate.title}" for the user to review${proposal.count > 1 ? ` (reported ${proposal.count} times)` : ''}. Nothing changes until they approve it.`
      : 'Nothing was proposed.';
  });
}
