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
import { skillGetMessage, skillGetTool } from './skillGetTool';
import { skillListMessage, skillListTool } from './skillListTool';
import { skillReportFailureMessage, skillReportFailureTool } from './skillReportFailureTool';
import { skillReportOutcomeMessage, skillReportOutcomeTool } from './skillReportOutcomeTool';
import { skillSearchMessage, skillSearchTool } from './skillSearchTool';
import { skillLoadMessage, skillLoadTool } from './skillTool';
import { toolInvokeTool } from './toolInvokeTool';
import { toolSearchMessage, toolSearchTool } from './toolSearchTool';
import { textResult } from './toolResults';

/** What the tools below use of the services, together (each takes only its own part). */
type LanguageModelToolServices = Parameters<typeof toolSearchTool>[0] &
  Parameters<typeof toolInvokeTool>[0] &
  Parameters<typeof skillSearchTool>[0] &
  Parameters<typeof skillReportOutcomeTool>[0] &
  Parameters<typeof skillReportFailureTool>[0];

/**
 * Each tool declared in `contributes.languageModelTools`, made from the services, with its
 * invocation message where that comes from the input alone. `tool_invoke` has none: for a skill
 * script its message is the confirmation of what will run, which needs the services.
 */
const TOOLS: ReadonlyArray<readonly [string, (services: LanguageModelToolServices) => vscode.LanguageModelTool<never>, ((input: never) => string)?]> = [
  [TOOL_SEARCH_TOOL_NAME, toolSearchTool, toolSearchMessage],
  [TOOL_INVOKE_TOOL_NAME, toolInvokeTool],
  [SKILL_SEARCH_TOOL_NAME, skillSearchTool, skillSearchMessage],
  [SKILL_GET_TOOL_NAME, skillGetTool, skillGetMessage],
  [SKILL_LIST_TOOL_NAME, skillListTool, skillListMessage],
  [SKILL_TOOL_NAME, skillLoadTool, skillLoadMessage],
  [SKILL_REPORT_OUTCOME_TOOL_NAME, skillReportOutcomeTool, skillReportOutcomeMessage],
  [SKILL_REPORT_FAILURE_TOOL_NAME, skillReportFailureTool, skillReportFailureMessage],
];

/**
 * Registers the tools declared in `contributes.languageModelTools` at activation, before the
 * services are open: a call made meanwhile is shown at once (its invocation message) and waits for
 * them to answer, or gets the start's error as its answer if they cannot open.
 */
export function registerLanguageModelTools(context: vscode.ExtensionContext, opening: OpeningServices<LanguageModelToolServices>): void {
  for (const [name, make, message] of TOOLS) {
    context.subscriptions.push(
      vscode.lm.registerTool(
        name,
        openingTool(opening, make, (error) => textResult(error.message), message),
      ),
    );
  }
}
