import * as vscode from 'vscode';
import type { CancellationSignal, ChatMessage, ChatModelPort, ChatPart, ToolDefinition } from '../../core/platform/chatTypes';
import { toVsCodeMessages } from './messageConversion';

/** ChatModelPort over the model the user picked for the request (`request.model`). */
export function createLanguageModelAdapter(model: vscode.LanguageModelChat, token: vscode.CancellationToken): ChatModelPort {
  return {
    async *send(messages: ChatMessage[], tools: ToolDefinition[], _signal: CancellationSignal): AsyncIterable<ChatPart> {
      const response = await model.sendRequest(
        toVsCodeMessages(messages),
        {
          tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as object | undefined })),
          toolMode: vscode.LanguageModelChatToolMode.Auto,
          justification: 'Toolshed answers your @toolshed request with the tools it finds.',
        },
        token,
      );
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          yield { kind: 'text', text: part.value };
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          yield { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
        }
      }
    },
    countTokens: async (text: string) => model.countTokens(text, token),
  };
}

/** Maps a VS Code CancellationToken onto the core's signal. */
export function signalOf(token: vscode.CancellationToken): CancellationSignal {
  return {
    get isCancelled() {
      return token.isCancellationRequested;
    },
  };
}
