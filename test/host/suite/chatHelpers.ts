import * as vscode from 'vscode';
import { DRIVER_ID, toolshed, selectScriptedChatModel } from './helpers';
import type { DriverApi } from '../driver/extension';
import type { ScriptedReply } from '../driver/scriptedModel';

/** Everything a chat response stream received, in order, as plain data. */
export interface RecordedStream {
  stream: vscode.ChatResponseStream;
  markdown: () => string;
  /** Transient progress messages (VS Code counts them as steps but hides them once done). */
  progress: string[];
  /** The visible step lines @toolshed wrote into the answer (`> …` lines), in order. */
  steps: () => string[];
  references: string[];
  parts: Array<{ kind: string; value: string }>;
}

/** A ChatResponseStream that records what the participant streamed. */
export function recordingStream(): RecordedStream {
  const parts: Array<{ kind: string; value: string }> = [];
  const progress: string[] = [];
  const references: string[] = [];
  const text = (value: string | vscode.MarkdownString) => (typeof value === 'string' ? value : value.value);
  const stream = new Proxy({} as vscode.ChatResponseStream, {
    get(_target, property: string) {
      return (...args: unknown[]) => {
        switch (property) {
          case 'markdown':
            parts.push({ kind: 'markdown', value: text(args[0] as string) });
            break;
          case 'progress':
            progress.push(String(args[0]));
            parts.push({ kind: 'progress', value: String(args[0]) });
            break;
          case 'reference': {
            const target = args[0] as vscode.Uri | { uri: vscode.Uri };
            const uri = target instanceof vscode.Uri ? target : target.uri;
            references.push(uri.fsPath);
            parts.push({ kind: 'reference', value: uri.fsPath });
            break;
          }
          default:
            parts.push({ kind: property, value: JSON.stringify(args[0] ?? null) });
        }
        return undefined;
      };
    },
  });
  return {
    stream,
    parts,
    progress,
    references,
    markdown: () =>
      parts
        .filter((p) => p.kind === 'markdown')
        .map((p) => p.value)
        .join(''),
    steps: () => parts.filter((p) => p.kind === 'markdown').flatMap((p) => [...p.value.matchAll(/^> (.*?) *$/gm)].map((m) => m[1]!)),
  };
}

export async function driver(): Promise<DriverApi> {
  const extension = vscode.extensions.getExtension<DriverApi>(DRIVER_ID);
  if (!extension) throw new Error('test driver missing');
  return extension.activate();
}

/** Sends one request to @toolshed the way the chat view would, with the scripted model. */
export async function askToolshed(
  prompt: string,
  options: {
    command?: string;
    history?: ReadonlyArray<vscode.ChatRequestTurn | vscode.ChatResponseTurn>;
    token?: vscode.CancellationToken;
    /** The request's model; default the scripted one. `null`: a request without a model. */
    model?: vscode.LanguageModelChat | null;
  } = {},
): Promise<{ result: vscode.ChatResult; recorded: RecordedStream }> {
  const api = await toolshed();
  const model = options.model === null ? undefined : (options.model ?? (await selectScriptedChatModel()));
  const recorded = recordingStream();
  const request = {
    prompt,
    command: options.command,
    references: [],
    toolReferences: [],
    toolInvocationToken: undefined,
    model,
  } as unknown as vscode.ChatRequest;
  const result = (await api.handleChatRequest(
    request,
    { history: options.history ?? [] },
    recorded.stream,
    options.token ?? new vscode.CancellationTokenSource().token,
  )) as vscode.ChatResult;
  return { result, recorded };
}

/** A history turn as VS Code would record it (constructors are internal in the typings). */
export function historyOf(
  prompt: string,
  result: vscode.ChatResult,
  answer: string,
  command?: string,
): Array<vscode.ChatRequestTurn | vscode.ChatResponseTurn> {
  const RequestTurn = vscode.ChatRequestTurn as unknown as new (...args: unknown[]) => vscode.ChatRequestTurn;
  const ResponseTurn = vscode.ChatResponseTurn as unknown as new (...args: unknown[]) => vscode.ChatResponseTurn;
  return [
    new RequestTurn(prompt, command, [], 'toolshed.agent', []),
    new ResponseTurn([new vscode.ChatResponseMarkdownPart(answer)], result, 'toolshed.agent', command),
  ];
}

/** Runs `fn` with workspace settings applied, then restores them. */
export async function withSettings<T>(settings: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  const config = vscode.workspace.getConfiguration();
  const previous = Object.fromEntries(Object.keys(settings).map((key) => [key, config.inspect(key)?.workspaceValue]));
  for (const [key, value] of Object.entries(settings)) await config.update(key, value, vscode.ConfigurationTarget.Workspace);
  try {
    return await fn();
  } finally {
    for (const [key, value] of Object.entries(previous)) await config.update(key, value, vscode.ConfigurationTarget.Workspace);
  }
}

/** The text of the last tool result in a recorded request. */
export function lastToolResultText(request: {
  messages: Array<{ content: Array<{ type: string; content?: Array<{ type: string; value?: unknown }> }> }>;
}): string {
  for (let m = request.messages.length - 1; m >= 0; m--) {
    for (const part of request.messages[m].content) {
      if (part.type === 'toolResult') return (part.content ?? []).map((c) => (typeof c.value === 'string' ? c.value : '')).join('');
    }
  }
  return '';
}

/** Every text a user-role message carried to the model (prompts and tool results). */
export function userFacingTexts(request: { messages: Array<{ role: string; content: unknown[] }> }): string {
  return request.messages
    .filter((m) => m.role === 'user')
    .map((m) => JSON.stringify(m.content))
    .join('\n');
}

/**
 * Two rounds of a scripted model: round 1 calls `tool` with `input` when the request offered it
 * (pre-activated), else asks `tool_search` for `query`; round 2 answers `<prefix>: <the last tool result>`.
 */
export function callWhenOfferedScript(tool: string, input: Record<string, unknown>, query: string, prefix: string): ScriptedReply[] {
  return [
    (request) =>
      (request as unknown as { toolNames: string[] }).toolNames.includes(tool)
        ? [{ toolCall: { name: tool, input } }]
        : [{ toolCall: { name: 'tool_search', input: { query } } }],
    (request) => `${prefix}: ${lastToolResultText(request as never)}`,
  ];
}
