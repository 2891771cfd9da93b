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

/**
 * Token economy: what a run sends — the visible tool definitions plus prompt blocks —
 * counted through the TokenCounter port (len/4 by default, the model's own counter in VS Code).
 */

export interface ToolDefinition {
  name: string;
  /** The description as sent, examples rendered in. */
  description: string;
  inputSchema: unknown;
}

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
