import * as vscode from 'vscode';
import { DEMO_TOOLS } from './demoToolCatalog';
import { demoToolAnswer } from './demoToolResults';
import { DEMO_MODEL_LABEL, decideDemoReply, type DemoMessage, type DemoPart } from './demoPolicy';

/**
 * Example extension for `npm start`: an offline, rule-based language model and 100+ example
 * tools, so Toolshed can be tried without any model account. Never part of Toolshed's VSIX.
 */
export const DEMO_VENDOR = 'toolshed-demo';
const DEMO_MODEL_ID = 'toolshed-demo-rules';

function toDemoPart(part: unknown): DemoPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) {
    const text = part.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('');
    return { kind: 'toolResult', callId: part.callId, text };
  }
  return undefined;
}

function toDemoMessage(message: vscode.LanguageModelChatRequestMessage): DemoMessage {
  const role =
    message.role === vscode.LanguageModelChatMessageRole.User ? 'user' : message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'other';
  return { role, parts: message.content.map(toDemoPart).filter((p): p is DemoPart => p !== undefined) };
}

class DemoModel implements vscode.LanguageModelChatProvider {
  provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
    return [
      {
        id: DEMO_MODEL_ID,
        name: 'Toolshed Demo (offline)',
        family: 'toolshed-demo',
        version: '1',
        tooltip: `${DEMO_MODEL_LABEL}: follows fixed rules to show tool search; it does not understand language.`,
        detail: 'offline demo, rule-based',
        maxInputTokens: 128_000,
        maxOutputTokens: 4_000,
        capabilities: { toolCalling: true, imageInput: false },
      },
    ];
  }

  async provideLanguageModelChatResponse(
    _model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
  ): Promise<void> {
    const tools = (options.tools ?? []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    const reply = decideDemoReply(messages.map(toDemoMessage), tools);
    if (reply.kind === 'toolCall') {
      progress.report(new vscode.LanguageModelToolCallPart(`demo_${Date.now().toString(36)}`, reply.name, reply.input));
    } else {
      progress.report(new vscode.LanguageModelTextPart(reply.text));
    }
  }

  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    const value = typeof text === 'string' ? text : JSON.stringify(text.content);
    return Math.ceil(value.length / 4);
  }
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(DEMO_VENDOR, new DemoModel()));
  for (const tool of DEMO_TOOLS) {
    context.subscriptions.push(
      vscode.lm.registerTool<Record<string, unknown>>(tool.name, {
        invoke: (options) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(demoToolAnswer(tool.name, options.input ?? {}))]),
      }),
    );
  }
  // A third-party model shows in the chat's model picker once some extension has asked for it.
  void vscode.lm.selectChatModels({ vendor: DEMO_VENDOR });
}

export function deactivate(): void {}
