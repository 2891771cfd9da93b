import * as vscode from 'vscode';
import type { RecordedRequest, ScriptedModel } from './scriptedModel';

/** The text of the newest tool result the model was sent. */
function lastToolResult(request: RecordedRequest): string {
  for (let m = request.messages.length - 1; m >= 0; m--) {
    for (const part of request.messages[m].content) {
      if (part.type === 'toolResult') return part.content.map((c) => (c.type === 'text' ? c.value : '')).join('');
    }
  }
  return '';
}

/**
 * Scripts a realistic @toolshed conversation for page checks that drive the chat UI: the
 * model searches for a weather tool, calls what it found, and answers from its result.
 * Exposed as the command "Toolshed Test: Script Weather Demo" (test driver only).
 */
export function registerDemoScripts(context: vscode.ExtensionContext, model: ScriptedModel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('toolshedTest.scriptWeatherDemo', async () => {
      // Resolving the model once from the extension host makes it available to the chat UI
      // (otherwise a page check running before any in-host test sees "Language model unavailable").
      await vscode.lm.selectChatModels({ vendor: model.vendor, id: model.modelId });
      model.setScript([
        [{ toolCall: { name: 'tool_search', input: { query: 'weather forecast for a city' } } }],
        (request) => {
          const found = JSON.parse(lastToolResult(request) || '{"tools":[]}') as { tools: Array<{ name: string }> };
          const tool = found.tools.find((t) => t.name.includes('weather'))?.name ?? 'fixture_weather_forecast';
          return [{ toolCall: { name: tool, input: { city: 'Oslo' } } }];
        },
        (request) =>
          `Here is the forecast: **${lastToolResult(request)}**. I found the weather tool with \`tool_search\`; it was not in my tool list until then.`,
      ]);
    }),
    // A skill script: tool_search finds count-lines_count_lines, Toolshed asks the user to
    // confirm, the real script runs (or not), and the answer quotes its result.
    vscode.commands.registerCommand('toolshedTest.scriptCountLinesDemo', async () => {
      await vscode.lm.selectChatModels({ vendor: model.vendor, id: model.modelId });
      model.setScript([
        [{ toolCall: { name: 'tool_search', input: { query: 'count the lines of a file' } } }],
        (request) => {
          const found = JSON.parse(lastToolResult(request) || '{"tools":[]}') as { tools: Array<{ name: string }> };
          const tool = found.tools.find((t) => t.name.startsWith('count-lines_'))?.name ?? 'count-lines_count_lines';
          return [{ toolCall: { name: tool, input: { args: ['README.md'], save: true } } }];
        },
        (request) => `Script result: ${lastToolResult(request).replace(/\n/g, ' ')}`,
      ]);
    }),
    // A 3-call turn (two forecasts, one issue) that learning turns into a proposal.
    vscode.commands.registerCommand('toolshedTest.scriptLearningDemo', async () => {
      await vscode.lm.selectChatModels({ vendor: model.vendor, id: model.modelId });
      model.setScript([
        [
          { toolCall: { name: 'fixture_weather_forecast', input: { city: 'Oslo' } } },
          { toolCall: { name: 'fixture_weather_forecast', input: { city: 'Bergen' } } },
        ],
        [{ toolCall: { name: 'fixture_create_issue', input: { title: 'Weekend weather', body: 'Sunny in Oslo and Bergen' } } }],
        'Created issue **#42** with the forecast for Oslo and Bergen.',
      ]);
    }),
  );
}
