import type * as vscode from 'vscode';
import { registerSkillGetTool } from './skillGetTool';
import { registerSkillListTool } from './skillListTool';
import { registerSkillReportFailureTool } from './skillReportFailureTool';
import { registerSkillReportOutcomeTool } from './skillReportOutcomeTool';
import { registerSkillSearchTool } from './skillSearchTool';
import { registerSkillLoadTool } from './skillTool';
import { registerToolInvokeTool } from './toolInvokeTool';
import { registerToolSearchTool } from './toolSearchTool';

/** What the tools below use of the services, together (each takes only its own part). */
type LanguageModelToolServices = Parameters<typeof registerToolSearchTool>[0] &
  Parameters<typeof registerToolInvokeTool>[0] &
  Parameters<typeof registerSkillSearchTool>[0] &
  Parameters<typeof registerSkillReportOutcomeTool>[0] &
  Parameters<typeof registerSkillReportFailureTool>[0];

/** Registers the tools declared in `contributes.languageModelTools`. */
export function registerLanguageModelTools(context: vscode.ExtensionContext, services: LanguageModelToolServices): void {
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
