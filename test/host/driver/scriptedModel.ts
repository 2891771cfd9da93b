import * as vscode from 'vscode';

/**
 * A deterministic language model for host tests: each request plays the next scripted reply
 * and is recorded as plain JSON, so a test can drive a chat participant / tool loop end to end
 * and assert exactly what was sent each round.
 */
export const SCRIPTED_VENDOR = 'toolshed-scripted';
export const SCRIPTED_MODEL_ID = 'scripted';

/** One streamed part: a string is a text part. Real vscode parts are passed through as they are. */
export type ScriptedPart =
  string | { text: string } | { toolCall: { name: string; input?: object; callId?: string } } | vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;

export type ScriptedReplyValue = string | ScriptedPart[];

/**
 * A reply: fixed parts, or a function of the request being answered (e.g. to echo a tool
 * result). A function may be async and may throw (the request then fails with that error).
 */
export type ScriptedReply =
  ScriptedReplyValue | ((request: RecordedRequest, context: { token: vscode.CancellationToken }) => ScriptedReplyValue | Promise<ScriptedReplyValue>);

export type RecordedPart =
  | { type: 'text'; value: string }
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'toolResult'; callId: string; content: RecordedPart[] }
  | { type: 'promptTsx'; value: unknown }
  | { type: 'data'; mimeType: string; text: string }
  | { type: 'unknown'; value: string };

export interface RecordedMessage {
  role: 'user' | 'assistant' | 'system' | `role-${number}`;
  name?: string;
  content: RecordedPart[];
}

export interface RecordedRequest {
  /** 0-based: the n-th request since the last setScript()/reset(). */
  index: number;
  modelId: string;
  messages: RecordedMessage[];
  /** Names of `options.tools`, in the order sent. */
  toolNames: string[];
  tools: Array<{ name: string; description: string; inputSchema?: unknown }>;
  toolMode: 'auto' | 'required' | `mode-${number}`;
  modelOptions: Record<string, unknown>;
}

/** What tests get from `getExtension('toolshed-test.toolshed-test-driver').exports.scriptedModel`. */
export interface ScriptedModelControl {
  readonly vendor: string;
  readonly modelId: string;
  /** Replaces the pending replies and clears the recorded requests. */
  setScript(replies: ScriptedReply[]): void;
  /** Every request since the last setScript()/reset(), oldest first (plain JSON). */
  readonly requests: readonly RecordedRequest[];
  /** Replies not yet played. */
  readonly remaining: number;
  /** Clears the script and the recorded requests. */
  reset(): void;
}

function roleName(role: number): RecordedMessage['role'] {
  if (role === vscode.LanguageModelChatMessageRole.User) return 'user';
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  if (role === 3) return 'system'; // proposed System role
  return `role-${role}`;
}

function toJson(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value ?? null));
  } catch {
    return String(value);
  }
}

// Duck-typed, because parts may come from any extension's API object.
export function recordPart(part: unknown): RecordedPart {
  const p = part as Record<string, unknown> | null;
  if (p && typeof p === 'object') {
    if (typeof p.callId === 'string' && typeof p.name === 'string' && 'input' in p) {
      return { type: 'toolCall', callId: p.callId, name: p.name, input: toJson(p.input) };
    }
    if (typeof p.callId === 'string' && Array.isArray(p.content)) {
      return { type: 'toolResult', callId: p.callId, content: p.content.map(recordPart) };
    }
    if (typeof p.value === 'string') return { type: 'text', value: p.value };
    if (typeof p.mimeType === 'string' && p.data instanceof Uint8Array) {
      return { type: 'data', mimeType: p.mimeType, text: Buffer.from(p.data).toString('utf8') };
    }
    if ('value' in p) return { type: 'promptTsx', value: toJson(p.value) };
  }
  return { type: 'unknown', value: JSON.stringify(toJson(part)) };
}

function toResponsePart(part: ScriptedPart, round: number, index: number): vscode.LanguageModelResponsePart {
  if (part instanceof vscode.LanguageModelTextPart || part instanceof vscode.LanguageModelToolCallPart) return part;
  if (typeof part === 'string') return new vscode.LanguageModelTextPart(part);
  if ('toolCall' in part) {
    const { name, input = {}, callId = `call_${round}_${index}` } = part.toolCall;
    return new vscode.LanguageModelToolCallPart(callId, name, input);
  }
  if ('text' in part) return new vscode.LanguageModelTextPart(part.text);
  // A part from another API object: keep its shape.
  const other = part as { callId?: string; name?: string; input?: object; value?: string };
  if (typeof other.callId === 'string' && typeof other.name === 'string') {
    return new vscode.LanguageModelToolCallPart(other.callId, other.name, other.input ?? {});
  }
  return new vscode.LanguageModelTextPart(String(other.value ?? ''));
}

function textLength(value: string | vscode.LanguageModelChatRequestMessage): number {
  if (typeof value === 'string') return value.length;
  return value.content.map((part) => JSON.stringify(recordPart(part))).join('').length;
}

export class ScriptedModel implements vscode.LanguageModelChatProvider, ScriptedModelControl {
  readonly vendor = SCRIPTED_VENDOR;
  readonly modelId = SCRIPTED_MODEL_ID;
  private script: ScriptedReply[] = [];
  private readonly recorded: RecordedRequest[] = [];

  get requests(): readonly RecordedRequest[] {
    return this.recorded;
  }

  get remaining(): number {
    return this.script.length;
  }

  setScript(replies: ScriptedReply[]): void {
    this.script = [...replies];
    this.recorded.length = 0;
  }

  reset(): void {
    this.setScript([]);
  }

  /** The object handed to tests (methods bound, so destructuring works). */
  control(): ScriptedModelControl {
    const requests = (): readonly RecordedRequest[] => this.requests;
    const remaining = (): number => this.remaining;
    return {
      vendor: this.vendor,
      modelId: this.modelId,
      setScript: (replies) => this.setScript(replies),
      get requests() {
        return requests();
      },
      get remaining() {
        return remaining();
      },
      reset: () => this.reset(),
    };
  }

  provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
    return [
      {
        id: SCRIPTED_MODEL_ID,
        name: 'Scripted (Toolshed tests)',
        family: 'scripted',
        version: '1',
        detail: 'Plays replies scripted by the test',
        maxInputTokens: 128_000,
        maxOutputTokens: 16_000,
        capabilities: { toolCalling: true, imageInput: false },
      },
    ];
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const tools = (options.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description,
      ...(tool.inputSchema === undefined ? {} : { inputSchema: toJson(tool.inputSchema) }),
    }));
    const request: RecordedRequest = {
      index: this.recorded.length,
      modelId: model.id,
      messages: messages.map((message) => ({
        role: roleName(message.role),
        ...(message.name ? { name: message.name } : {}),
        content: message.content.map(recordPart),
      })),
      toolNames: tools.map((tool) => tool.name),
      tools,
      toolMode:
        options.toolMode === vscode.LanguageModelChatToolMode.Required
          ? 'required'
          : options.toolMode === vscode.LanguageModelChatToolMode.Auto || options.toolMode === undefined
            ? 'auto'
            : `mode-${options.toolMode as number}`,
      modelOptions: (toJson(options.modelOptions ?? {}) as Record<string, unknown>) ?? {},
    };
    this.recorded.push(request);

    const reply = this.script.shift();
    if (reply === undefined) {
      throw new Error(
        `Scripted model: no reply scripted for request #${request.index} ` + `(call scriptedModel.setScript([...]) with one reply per expected request).`,
      );
    }
    const value = typeof reply === 'function' ? await reply(request, { token }) : reply;
    const parts = typeof value === 'string' ? [value] : value;
    parts.forEach((part, index) => {
      if (!token.isCancellationRequested) progress.report(toResponsePart(part, request.index, index));
    });
  }

  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return Math.ceil(textLength(text) / 4);
  }
}
