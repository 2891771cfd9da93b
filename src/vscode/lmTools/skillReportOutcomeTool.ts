import type * as vscode from 'vscode';
import { SKILL_REPORT_OUTCOME_TOOL_NAME } from '../../core/platform/toolNames';
import { skillReportOutcomeInputSchema } from '../../core/learning/feedback/reportToolSchemas';
import type { ToolshedServices } from '../services';
import { learningReportTool } from './learningReportTool';

/** `skill_report_outcome`: a model says whether the skills it followed helped (counters only). */
/** What the chat shows while the call runs: shown before the services are open too. */
export const skillReportOutcomeMessage = () => 'Reporting how the skills worked';

export function skillReportOutcomeTool(services: Pick<ToolshedServices, 'skillPacks' | 'skills' | 'learning'>): vscode.LanguageModelTool<unknown> {
  return learningReportTool(services, SKILL_REPORT_OUTCOME_TOOL_NAME, skillReportOutcomeInputSchema, skillReportOutcomeMessage(), async (input) => {
    await services.skillPacks.ready;
    const known = input.names.filter((name) => services.skills.inspect(name));
    const unknown = input.names.filter((name) => !known.includes(name));
    const recorded = await services.learning.writes.recordOutcome(known, input.outcome);
    return `Recorded "${input.outcome}" for ${recorded} skill(s).${unknown.length ? ` Unknown skill names ignored: ${unknown.join(', ')} (use the exact names from skill_get).` : ''}`;
  });
}
