import type * as vscode from 'vscode';
import type { ToolshedServices } from '../services';
import { registerSkillGetTool } from './skillGetTool';
import { registerSkillListTool } from './skillListTool';
import { registerSkillReportFailureTool } from './skillReportFailureTool';
import { registerSkillReportOutcomeTool } from './skillReportOutcomeTool';
import { registerSkillSearchTool } from './skillSearchTool';
import { registerSkillLoadTool } from './skillTool';
import { registerToolInvokeTool } from './toolInvokeTool';
import { registerToolSearchTool } from './toolSearchTool';

/** Registers the tools declared in `contributes.languageModelTools`. */
export function registerLanguageModelTools(context: vscode.ExtensionContext, services: ToolshedServices): void {
  context.subscriptions.push(
    registerToolSearchTool(services),
    registerToolInvokeTool(services),
    registerSkillSearchTool(services),
    registerSkillGetTool(services),
    registerSkillListTool(services),
    registerSkillLoadTool(services),
    registerSkillReportOutcomeTool(services),
    registerSkillReportFailureTool(services),
  );
}
