import type * as vscode from 'vscode';
import { SKILL_SEARCH_TOOL_NAME } from '../../core/platform/toolNames';
import type { ToolshedServices } from '../services';
import { agentModeSkillTool, type SkillToolServices } from './skillToolRegistration';

export function skillSearchTool(services: SkillToolServices & Pick<ToolshedServices, 'skills'>): vscode.LanguageModelTool<{ query?: unknown }> {
  return agentModeSkillTool<{ query?: unknown }>(
    services,
    SKILL_SEARCH_TOOL_NAME,
    (input) => `Searching skills for "${typeof input?.query === 'string' ? input.query : ''}"`,
    (input, ctx) => services.skills.search(input, ctx),
  );
}
