import type * as vscode from 'vscode';
import { SKILL_SEARCH_TOOL_NAME } from '../../core/platform/toolNames';
import type { ToolshedServices } from '../services';
import { agentModeSkillTool, type SkillToolServices } from './skillToolRegistration';

/** What the chat shows while the call runs: from the input alone, so shown before the services are open too. */
export const skillSearchMessage = (input: { query?: unknown }) => `Searching skills for "${typeof input?.query === 'string' ? input.query : ''}"`;

export function skillSearchTool(services: SkillToolServices & Pick<ToolshedServices, 'skills'>): vscode.LanguageModelTool<{ query?: unknown }> {
  return agentModeSkillTool<{ query?: unknown }>(services, SKILL_SEARCH_TOOL_NAME, skillSearchMessage, (input, ctx) => services.skills.search(input, ctx));
}
