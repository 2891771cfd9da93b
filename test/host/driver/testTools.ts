import * as vscode from 'vscode';

/**
 * Tools the host tests use as a realistic catalog: ordinary extension tools that Toolshed
 * defers, finds and runs, and one the tests deny by policy. Each records its calls so a test
 * can assert what actually ran.
 */
export interface TestToolCalls {
  readonly calls: Array<{ name: string; input: unknown }>;
  reset(): void;
}

export const TEST_TOOLS = {
  weather: 'fixture_weather_forecast',
  issue: 'fixture_create_issue',
  admin: 'fixture_admin_delete_repository',
  deploy: 'fixture_deploy_preview',
} as const;

export function registerTestTools(context: vscode.ExtensionContext): TestToolCalls {
  const calls: Array<{ name: string; input: unknown }> = [];
  const answer = (name: string, text: (input: Record<string, unknown>) => string): vscode.LanguageModelTool<Record<string, unknown>> => ({
    invoke(options) {
      calls.push({ name, input: JSON.parse(JSON.stringify(options.input ?? {})) });
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text(options.input ?? {}))]);
    },
  });
  context.subscriptions.push(
    vscode.lm.registerTool(
      TEST_TOOLS.weather,
      answer(TEST_TOOLS.weather, (input) => `Forecast for ${String(input.city ?? 'somewhere')}: sunny, 21°C`),
    ),
    vscode.lm.registerTool(
      TEST_TOOLS.issue,
      answer(TEST_TOOLS.issue, (input) => `Created issue "${String(input.title ?? '')}" as #42`),
    ),
    vscode.lm.registerTool(
      TEST_TOOLS.admin,
      answer(TEST_TOOLS.admin, () => 'repository deleted'),
    ),
    // Always fails the same way (values differ per call), for learning's failure signatures.
    vscode.lm.registerTool(TEST_TOOLS.deploy, {
      invoke(options) {
        calls.push({ name: TEST_TOOLS.deploy, input: JSON.parse(JSON.stringify(options.input ?? {})) });
        const n = calls.length;
        throw new Error(`Environment 'preview-${n}' is locked by another deployment (lock ${(0xabc000 + n).toString(16)}f00d)`);
      },
    }),
  );
  return {
    calls,
    reset: () => {
      calls.length = 0;
    },
  };
}
