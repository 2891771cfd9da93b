import type * as vscode from 'vscode';
import { SKILL_LIST_TOOL_NAME } from '../../core/platform/toolNames';
import type { ToolshedServices } from '../services';
import { agentModeSkillTool, type SkillToolServices } from './skillToolRegistration';
import { restrictedModeLine } from '../../core/trust/restrictedMode';
import { unusedWorkspaceSkills } from '../skills/unusedWorkspaceSkills';

/** What the chat shows while the call runs: from the input alone, so shown before the services are open too. */
export const skillListMessage = (input: { page?: unknown }) => `Listing skills${typeof input?.page === 'number' ? ` (page ${input.page})` : ''}`;

export function skillListTool(services: SkillToolServices & Pick<ToolshedServices, 'skills'>): vscode.LanguageModelTool<{ page?: unknown }> {
  return agentModeSkillTool<{ page?: unknown }>(services, SKILL_LIST_TOOL_NAME, skillListMessage, async (input, ctx) => {
    const listed = await services.skills.list(input ?? {}, ctx);
    // Restricted Mode: the model is told what the workspace supplies that is not used, to pass on.
    const unused = await unusedWorkspaceSkills();
    const restricted = unused && restrictedModeLine(unused);
    return restricted ? { ...listed, restricted_mode: restricted } : listed;
  });
}
