/**
 * The planner's view of a chat: plain data, no `vscode` types. The VS Code adapter maps
 * `LanguageModelChatMessage` / `LanguageModelToolCallPart` / `LanguageModelToolResultPart`
 * onto these and back.
 */

export type ChatPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; text: string; isError?: boolean };

export interface ChatMessage {
  role: 'user' | 'assistant';
  parts: ChatPart[];
}

/** What the model is told about one tool (the tool-search core's type, so no copy drifts). */
export type { ToolDefinition } from '../tools/tokenEconomy';
import type { ToolDefinition } from '../tools/tokenEconomy';

/** Cooperative cancellation, mapped from VS Code's CancellationToken. */
export interface CancellationSignal {
  readonly isCancelled: boolean;
}

/** A chat model: the request's `vscode.lm` model in VS Code, a scripted one in tests. */
export interface ChatModelPort {
  /** Streams the reply to `messages` with `tools` offered. */
  send(messages: ChatMessage[], tools: ToolDefinition[], signal: CancellationSignal): AsyncIterable<ChatPart>;
  /** Exact token count of a text for this model. */
  countTokens(text: string): Promise<number>;
}
