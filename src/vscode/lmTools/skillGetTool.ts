import type * as vscode from 'vscode';
import { SKILL_GET_TOOL_NAME } from '../../core/platform/toolNames';
import type { ToolshedServices } from '../services';
import { agentModeSkillTool, type SkillToolServices } from './skillToolRegistration';

/** What the chat shows while the call runs: from the input alone, so shown before the services are open too. */
export const skillGetMessage = (input: { names?: unknown }) =>
  `Reading skill${Array.isArray(input?.names) && input.names.length > 1 ? 's' : ''} ${Array.isArray(input?.names) ? input.names.map(String).join(', ') : ''}`;

export function skillGetTool(services: SkillToolServices & Pick<ToolshedServices, 'skills'>): vscode.LanguageModelTool<{ names?: unknown }> {
  return agentModeSkillTool<{ names?: unknown }>(services, SKILL_GET_TOOL_NAME, skillGetMessage, (input, ctx) => services.skills.get(input, ctx));
}
