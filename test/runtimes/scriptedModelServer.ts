/**
 * A scripted model on 127.0.0.1 for the real agent runtimes (Copilot CLI, Claude Code, Codex):
 * one HTTP server that speaks OpenAI chat completions (streaming and not), OpenAI Responses
 * (streaming) and Anthropic Messages (streaming and not), answers each turn from the test's
 * script, and records every request body (headers redacted) so a test asserts on what the runtime
 * sent the model. Side requests (model lists, token counts, a HEAD probe) get plain answers and
 * are recorded too, marked `side`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

type WireApi = 'chat' | 'responses' | 'anthropic';

/** What the runtime sent in one model request, the same shape whatever the wire format. */
export interface ModelTurn {
  api: WireApi;
  /** The system prompt (every system/developer part, joined). */
  system: string;
  /** The text of every user message (tool results excluded), in order. */
  userTexts: string[];
  /** The names of the tools offered to the model. */
  toolNames: string[];
  /** The text of every tool result the runtime sent back, in order. */
  toolResults: string[];
  /** Every text the model reads (system, developer, user and tool messages), in request order, joined. */
  allText: string;
  /** The whole request body as JSON text (for assertions on anything else). */
  raw: string;
}

type ScriptedReply = { text: string } | { toolCall: { name: string; args: Record<string, unknown> } };

/** Decides the reply to each model turn (side requests never reach it). */
export type ModelScript = (turn: ModelTurn, index: number) => ScriptedReply;

interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** The model turn when this was one (a chat, responses or messages request), else undefined. */
  turn?: ModelTurn;
}

export interface ScriptedModelServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  /** The model turns only (side requests left out), in order. */
  turns(): ModelTurn[];
  /**
   * Hosts a runtime tried to reach through this server as its HTTP(S) proxy (the harness sets
   * HTTPS_PROXY/HTTP_PROXY to it, NO_PROXY to 127.0.0.1): anything here is traffic that would
   * have left the machine. Refused, never forwarded.
   */
  outbound: string[];
  close(): Promise<void>;
}

const SECRET_HEADERS = /^(authorization|x-api-key|api-key|cookie|proxy-authorization|openai-organization|x-goog-api-key)$/i;

/** Answers "OK" to a prompt, and echoes a tool result back when the last thing sent was one. */
const echoToolResults: ModelScript = (turn) =>
  turn.toolResults.length > 0 ? { text: `TOOL SAID: ${turn.toolResults[turn.toolResults.length - 1]}` } : { text: 'OK' };

export async function startScriptedModelServer(script: ModelScript = echoToolResults): Promise<ScriptedModelServer> {
  const requests: RecordedRequest[] = [];
  const outbound: string[] = [];
  let turnCount = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      }
    });
  });

  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    outbound.push(req.url ?? '?');
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });

  function handle(req: IncomingMessage, res: ServerResponse, text: string): void {
    if (req.url && /^[a-z]+:\/\//i.test(req.url)) {
      // A proxied plain-HTTP request names its absolute URL.
      outbound.push(req.url);
      res.writeHead(403).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(req.headers)) headers[key] = SECRET_HEADERS.test(key) ? '[redacted]' : String(value);
    const record: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, headers, body };
    requests.push(record);
    const p = url.pathname;
    const b = (body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && p.endsWith('/chat/completions')) {
      const turn = chatTurn(b, text);
      record.turn = turn;
      return replyChat(res, script(turn, turnCount++), b.stream === true, String(b.model ?? 'scripted'));
    }
    if (req.method === 'POST' && p.endsWith('/responses')) {
      const turn = responsesTurn(b, text);
      record.turn = turn;
      return replyResponses(res, script(turn, turnCount++), String(b.model ?? 'scripted'), namespacesOf(b));
    }
    if (req.method === 'POST' && p.endsWith('/messages/count_tokens')) return json(res, { input_tokens: Math.ceil(text.length / 4) });
    if (req.method === 'POST' && p.endsWith('/messages')) {
      const turn = anthropicTurn(b, text);
      record.turn = turn;
      return replyAnthropic(res, script(turn, turnCount++), b.stream === true, String(b.model ?? 'scripted'));
    }
    if (req.method === 'GET' && p.endsWith('/models')) {
      return json(res, {
        object: 'list',
        data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'toolshed-tests', type: 'model', display_name: 'Scripted' }],
        models: [],
        has_more: false,
      });
    }
    json(res, {});
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    outbound,
    turns: () => requests.flatMap((r) => (r.turn ? [r.turn] : [])),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Text of a content value in any of the three formats (a string, or a list of parts). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        if (typeof part === 'string') return part;
        const p = (part ?? {}) as Record<string, unknown>;
        if (typeof p.text === 'string') return p.text;
        if (p.content !== undefined) return textOf(p.content);
        if (p.output !== undefined) return textOf(p.output);
        return '';
      })
      .join('\n');
  }
  return '';
}

function chatTurn(b: Record<string, unknown>, raw: string): ModelTurn {
  const messages = (Array.isArray(b.messages) ? b.messages : []) as Array<Record<string, unknown>>;
  const tools = (Array.isArray(b.tools) ? b.tools : []) as Array<Record<string, unknown>>;
  return {
    api: 'chat',
    system: messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => textOf(m.content))
      .join('\n'),
    userTexts: messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)),
    toolNames: tools.map((t) => String((t.function as Record<string, unknown> | undefined)?.name ?? t.name ?? '')),
    toolResults: messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content)),
    allText: messages.map((m) => textOf(m.content)).join('\n'),
    raw,
  };
}

function responsesTurn(b: Record<string, unknown>, raw: string): ModelTurn {
  const input = (Array.isArray(b.input) ? b.input : []) as Array<Record<string, unknown>>;
  const tools = (Array.isArray(b.tools) ? b.tools : []) as Array<Record<string, unknown>>;
  const system = [typeof b.instructions === 'string' ? b.instructions : ''];
  const userTexts: string[] = [];
  const toolResults: string[] = [];
  const all = [...system];
  for (const item of input) {
    all.push(textOf(item.content ?? item.output));
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') toolResults.push(textOf(item.output));
    else if (item.role === 'system' || item.role === 'developer') system.push(textOf(item.content));
    else if (item.role === 'user') userTexts.push(textOf(item.content));
  }
  return {
    api: 'responses',
    system: system.filter(Boolean).join('\n'),
    userTexts,
    toolNames: tools.flatMap((t) =>
      t.type === 'namespace' && Array.isArray(t.tools)
        ? (t.tools as Array<Record<string, unknown>>).map((inner) => `${String(t.name)}__${String(inner.name)}`)
        : [String(t.name ?? t.type ?? '')],
    ),
    toolResults,
    allText: all.join('\n'),
    raw,
  };
}

/**
 * Codex groups an MCP server's tools in a Responses `namespace` tool (`mcp__<server>`); the turn
 * lists them as `mcp__<server>__<tool>`, and a call to that name goes back as the namespace and
 * the tool's own name, as the Responses API does.
 */
function namespacesOf(b: Record<string, unknown>): Map<string, { namespace: string; name: string }> {
  const map = new Map<string, { namespace: string; name: string }>();
  for (const t of (Array.isArray(b.tools) ? b.tools : []) as Array<Record<string, unknown>>) {
    if (t.type !== 'namespace' || !Array.isArray(t.tools)) continue;
    for (const inner of t.tools as Array<Record<string, unknown>>) {
      map.set(`${String(t.name)}__${String(inner.name)}`, { namespace: String(t.name), name: String(inner.name) });
    }
  }
  return map;
}

function anthropicTurn(b: Record<string, unknown>, raw: string): ModelTurn {
  const messages = (Array.isArray(b.messages) ? b.messages : []) as Array<Record<string, unknown>>;
  const tools = (Array.isArray(b.tools) ? b.tools : []) as Array<Record<string, unknown>>;
  const userTexts: string[] = [];
  const toolResults: string[] = [];
  const system = [textOf(b.system)];
  for (const m of messages) {
    // Claude Code sends its skill listing and a hook's context as a `system` message after the prompt.
    if (m.role === 'system') system.push(textOf(m.content));
    if (m.role !== 'user') continue;
    const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : ((m.content ?? []) as Array<Record<string, unknown>>);
    const texts = parts.filter((p) => p.type === 'text').map((p) => String(p.text));
    if (texts.length > 0) userTexts.push(texts.join('\n'));
    for (const p of parts) if (p.type === 'tool_result') toolResults.push(textOf(p.content));
  }
  return {
    api: 'anthropic',
    system: system.filter(Boolean).join('\n'),
    userTexts,
    toolNames: tools.map((t) => String(t.name ?? '')),
    toolResults,
    allText: [textOf(b.system), ...messages.map((m) => textOf(m.content))].join('\n'),
    raw,
  };
}

let ids = 0;
const nextId = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(ids++).toString(36)}`;

function sse(res: ServerResponse, events: Array<{ event?: string; data: unknown }>, done?: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`);
  if (done) res.write(`data: ${done}\n\n`);
  res.end();
}

function replyChat(res: ServerResponse, reply: ScriptedReply, stream: boolean, model: string): void {
  const id = nextId('chatcmpl');
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const toolCall =
    'toolCall' in reply
      ? { id: nextId('call'), type: 'function', function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.args) } }
      : undefined;
  const finish = toolCall ? 'tool_calls' : 'stop';
  if (!stream) {
    const message = toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: (reply as { text: string }).text };
    return json(res, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  const chunk = (delta: unknown, finishReason: string | null, extra: Record<string, unknown> = {}) => ({
    data: { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra },
  });
  const events = toolCall
    ? [chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall }] }, null)]
    : [chunk({ role: 'assistant', content: '' }, null), chunk({ content: (reply as { text: string }).text }, null)];
  events.push(chunk({}, finish, { usage }));
  sse(res, events, '[DONE]');
}

function replyResponses(res: ServerResponse, reply: ScriptedReply, model: string, namespaces: Map<string, { namespace: string; name: string }>): void {
  const responseId = nextId('resp');
  const itemId = nextId('item');
  const usage = {
    input_tokens: 10,
    output_tokens: 5,
    total_tokens: 15,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  const item =
    'toolCall' in reply
      ? {
          type: 'function_call',
          id: itemId,
          call_id: nextId('call'),
          ...(namespaces.get(reply.toolCall.name) ?? { name: reply.toolCall.name }),
          arguments: JSON.stringify(reply.toolCall.args),
          status: 'completed',
        }
      : { type: 'message', id: itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
  const base = { id: responseId, object: 'response', created_at: Math.floor(Date.now() / 1000), model };
  const events: Array<{ event: string; data: unknown }> = [
    { event: 'response.created', data: { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } } },
    { event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } } },
  ];
  if (!('toolCall' in reply)) {
    events.push({
      event: 'response.output_text.delta',
      data: { type: 'response.output_text.delta', item_id: itemId, output_index: 0, content_index: 0, delta: reply.text },
    });
  }
  events.push(
    { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
    { event: 'response.completed', data: { type: 'response.completed', response: { ...base, status: 'completed', output: [item], usage } } },
  );
  sse(res, events);
}

function replyAnthropic(res: ServerResponse, reply: ScriptedReply, stream: boolean, model: string): void {
  const id = nextId('msg');
  const block =
    'toolCall' in reply ? { type: 'tool_use', id: nextId('toolu'), name: reply.toolCall.name, input: reply.toolCall.args } : { type: 'text', text: reply.text };
  const stopReason = 'toolCall' in reply ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!stream) {
    return json(res, { id, type: 'message', role: 'assistant', model, content: [block], stop_reason: stopReason, stop_sequence: null, usage });
  }
  const start = block.type === 'tool_use' ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta =
    block.type === 'tool_use'
      ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) }
      : { type: 'text_delta', text: (block as { text: string }).text };
  sse(res, [
    {
      event: 'message_start',
      data: { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } },
    },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: start } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta } },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]);
}
