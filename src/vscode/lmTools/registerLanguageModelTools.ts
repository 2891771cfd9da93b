import * as vscode from 'vscode';
import {
  SKILL_GET_TOOL_NAME,
  SKILL_LIST_TOOL_NAME,
  SKILL_REPORT_FAILURE_TOOL_NAME,
  SKILL_REPORT_OUTCOME_TOOL_NAME,
  SKILL_SEARCH_TOOL_NAME,
  SKILL_TOOL_NAME,
  TOOL_INVOKE_TOOL_NAME,
  TOOL_SEARCH_TOOL_NAME,
} from '../../core/platform/toolNames';
import { openingTool, type OpeningServices } from '../servicesOpening';
import { skillGetTool } from './skillGetTool';
import { skillListTool } from './skillListTool';
import { skillReportFailureTool } from './skillReportFailureTool';
import { skillReportOutcomeTool } from './skillReportOutcomeTool';
import { skillSearchTool } from './skillSearchTool';
import { skillLoadTool } from './skillTool';
import { toolInvokeTool } from './toolInvokeTool';
import { toolSearchTool } from './toolSearchTool';
import { textResult } from './toolResults';

/** What the tools below use of the services, together (each takes only its own part). */
type LanguageModelToolServices = Parameters<typeof toolSearchTool>[0] &
  Parameters<typeof toolInvokeTool>[0] &
  Parameters<typeof skillSearchTool>[0] &
  Parameters<typeof skillReportOutcomeTool>[0] &
  Parameters<typeof skillReportFailureTool>[0];

/** Each tool declared in `contributes.languageModelTools`, made from the services. */
const TOOLS: ReadonlyArray<readonly [string, (services: LanguageModelToolServices) => vscode.LanguageModelTool<never>]> = [
  [TOOL_SEARCH_TOOL_NAME, toolSearchTool],
  [TOOL_INVOKE_TOOL_NAME, toolInvokeTool],
  [SKILL_SEARCH_TOOL_NAME, skillSearchTool],
  [SKILL_GET_TOOL_NAME, skillGetTool],
  [SKILL_LIST_TOOL_NAME, skillListTool],
  [SKILL_TOOL_NAME, skillLoadTool],
  [SKILL_REPORT_OUTCOME_TOOL_NAME, skillReportOutcomeTool],
  [SKILL_REPORT_FAILURE_TOOL_NAME, skillReportFailureTool],
];

/**
 * Registers the tools declared in `contributes.languageModelTools` at activation, before the
 * services are open: a call made meanwhile waits for them, and gets the start's error as its
 * answer if they cannot open.
 */
export function registerLanguageModelTools(context: vscode.ExtensionContext, opening: OpeningServices<LanguageModelToolServices>): void {
  for (const [name, make] of TOOLS) {
    context.subscriptions.push(
      vscode.lm.registerTool(
        name,
        openingTool(opening, make, (error) => textResult(error.message)),
      ),
    );
  }
}
