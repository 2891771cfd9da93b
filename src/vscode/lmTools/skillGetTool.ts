import type * as vscode from 'vscode';
import { SKILL_GET_TOOL_NAME } from '../../core/platform/toolNames';
import type { ToolshedServices } from '../services';
import { agentModeSkillTool, type SkillToolServices } from './skillToolRegistration';

export function skillGetTool(services: SkillToolServices & Pick<ToolshedServices, 'skills'>): vscode.LanguageModelTool<{ names?: unknown }> {
  return agentModeSkillTool<{ names?: unknown }>(
    services,
    SKILL_GET_TOOL_NAME,
    (input) =>
      `Reading skill${Array.isArray(input?.names) && input.names.length > 1 ? 's' : ''} ${Array.isArray(input?.names) ? input.names.map(String).join(', ') : ''}`,
    (input, ctx) => services.skills.get(input, ctx),
  );
}
