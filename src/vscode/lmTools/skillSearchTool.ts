import type * as vscode from 'vscode';
import { SKILL_SEARCH_TOOL_NAME } from '../../core/platform/toolNames';
import type { ToolshedServices } from '../services';
import { registerSkillTool, type SkillToolServices } from './skillToolRegistration';

export function registerSkillSearchTool(services: SkillToolServices & Pick<ToolshedServices, 'skills'>): vscode.Disposable {
  return registerSkillTool<{ query?: unknown }>(
    services,
    SKILL_SEARCH_TOOL_NAME,
    (input) => `Searching skills for "${typeof input?.query === 'string' ? input.query : ''}"`,
    (input, ctx) => services.skills.search(input, ctx),
  );
}
