import * as vscode from 'vscode';
import type { ChatMessage, ChatPart } from '../../core/platform/chatTypes';

/** Core chat messages → `vscode.LanguageModelChatMessage`s. */
export function toVsCodeMessages(messages: ChatMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((message) => {
    const parts = message.parts.map(toVsCodePart);
    return message.role === 'user'
      ? vscode.LanguageModelChatMessage.User(parts as Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart>)
      : vscode.LanguageModelChatMessage.Assistant(parts as Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>);
  });
}

function toVsCodePart(part: ChatPart): vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart {
  switch (part.kind) {
    case 'text':
      return new vscode.LanguageModelTextPart(part.text);
    case 'toolCall':
      return new vscode.LanguageModelToolCallPart(part.callId, part.name, (part.input ?? {}) as object);
    case 'toolResult':
      return new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)]);
  }
}

/** A tool result's content as plain text (text parts joined; other parts summarised). */
export function toolResultText(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(part.value);
      if (typeof part === 'object' && part !== null && 'value' in part && typeof (part as { value: unknown }).value === 'string') {
        return (part as { value: string }).value;
      }
      return '';
    })
    .join('');
}
