import type * as vscode from 'vscode';
import { SKILL_LIST_TOOL_NAME } from '../../core/platform/toolNames';
import type { ToolshedServices } from '../services';
import { registerSkillTool } from './skillToolRegistration';

export function registerSkillListTool(services: ToolshedServices): vscode.Disposable {
  return registerSkillTool<{ page?: unknown }>(
    services,
    SKILL_LIST_TOOL_NAME,
    (input) => `Listing skills${typeof input?.page === 'number' ? ` (page ${input.page})` : ''}`,
    (input, ctx) => services.skills.list(input ?? {}, ctx),
  );
}
