import type * as vscode from 'vscode';
import { SKILL_GET_TOOL_NAME } from '../../core/platform/toolNames';
import type { ToolshedServices } from '../services';
import { registerSkillTool, type SkillToolServices } from './skillToolRegistration';

export function registerSkillGetTool(services: SkillToolServices & Pick<ToolshedServices, 'skills'>): vscode.Disposable {
  return registerSkillTool<{ names?: unknown }>(
    services,
    SKILL_GET_TOOL_NAME,
    (input) =>
      `Reading skill${Array.isArray(input?.names) && input.names.length > 1 ? 's' : ''} ${Array.isArray(input?.names) ? input.names.map(String).join(', ') : ''}`,
    (input, ctx) => services.skills.get(input, ctx),
  );
}
