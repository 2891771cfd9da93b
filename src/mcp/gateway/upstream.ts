import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { redact } from '../../core/privacy/redaction';
import { GATEWAY_DEPTH_ENV } from './upstreamConfig';
import type { UpstreamSpec } from './upstreamConfig';

/**
 * One upstream MCP server, isolated: its own process (SDK `Client` over `StdioClientTransport`),
 * a timeout on every request, a cap on one message's size (the transport's read buffer), stderr
 * drained into a short tail (a flood costs nothing), and a restart with back-off whenever it
 * exits, hangs, or breaks the protocol. Every failure becomes an `UpstreamError` whose text names
 * the server and says what happens next; nothing here throws past the gateway.
 */

export type UpstreamState = 'starting' | 'ready' | 'down' | 'stopped';

export interface UpstreamLimits {
  /** A tool call without an answer by then fails, and the server is restarted (a hung server holds its caller). */
  callTimeoutMs: number;
  /** Connecting plus listing its tools. */
  startTimeoutMs: number;
  /** One JSON-RPC message from the server larger than this stops it (the SDK's read buffer cap). */
  maxMessageBytes: number;
  restartInitialMs: number;
  restartMaxMs: number;
  /** Tools taken from one server (the rest are ignored, with a log line). */
  maxTools: number;
}

export const DEFAULT_UPSTREAM_LIMITS: Readonly<UpstreamLimits> = {
  callTimeoutMs: 60_000,
  startTimeoutMs: 30_000,
  maxMessageBytes: 8 * 1024 * 1024,
  restartInitialMs: 500,
  restartMaxMs: 30_000,
  maxTools: 2_000,
};

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
}

export interface UpstreamHooks {
  stateChanged(upstream: Upstream): void;
  toolsChanged(upstream: Upstream): void;
  log(line: string): void;
}

const STDERR_TAIL_CHARS = 2_000;
const MAX_LIST_PAGES = 100;

export class Upstream {
  private current: UpstreamState = 'down';
  private listed: Tool[] = [];
  private client: Client | undefined;
  /** Bumped whenever a process is given up: callbacks of an older one are ignored. */
  private generation = 0;
  private starting: Promise<void> | undefined;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private restartAt = 0;
  private failures = 0;
  private problem: string | undefined;
  private stderrTail = '';
  /** Times the server was (re)started, the first start included. */
  starts = 0;

  constructor(
    readonly spec: UpstreamSpec,
    private readonly limits: UpstreamLimits,
    private readonly hooks: UpstreamHooks,
  ) {}

  get state(): UpstreamState {
    return this.current;
  }

  /** The tools of its last successful listing (kept while it restarts, so search still finds them). */
  get tools(): readonly Tool[] {
    return this.listed;
  }

  /** Why it last stopped, in words (undefined while it has never failed). */
  get lastProblem(): string | undefined {
    return this.problem;
  }

  /** Starts the process unless it is running or starting; resolves once it is ready or has failed. */
  start(): Promise<void> {
    if (this.current === 'stopped' || this.current === 'ready') return Promise.resolve();
    this.starting ??= this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  async call(tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const client = this.client;
    if (this.current !== 'ready' || !client) throw new UpstreamError(this.unavailableText());
    try {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.limits.callTimeoutMs })) as CallToolResult;
      this.failures = 0;
      return result;
    } catch (error) {
      throw this.callError(tool, client, error);
    }
  }

  async close(): Promise<void> {
    this.setState('stopped');
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.generation++;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    this.starts++;
    this.setState('starting');
    const { spec, limits } = this;
    const transport = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: { ...spec.env, [GATEWAY_DEPTH_ENV]: '1' },
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
      stderr: 'pipe',
      maxBufferSize: limits.maxMessageBytes,
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const client = new Client({ name: 'toolshed-gateway', version: '1' }, { capabilities: {} });
    const live = () => generation === this.generation;
    client.onerror = (error) => {
      if (live()) this.problem = describeTransportError(error, limits.maxMessageBytes);
    };
    client.onclose = () => {
      if (live()) this.lost(this.problem ? `its process stopped (${this.problem})` : 'its process exited');
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (live()) void this.refresh(client, generation);
    });
    this.client = client;
    try {
      await client.connect(transport, { timeout: limits.startTimeoutMs });
      const tools = await this.listAll(client);
      if (!live()) return;
      this.listed = tools;
      this.problem = undefined;
      this.setState('ready');
      this.hooks.toolsChanged(this);
    } catch (error) {
      if (live()) this.lost(`it did not start (${describeTransportError(error, limits.maxMessageBytes)})`);
    }
  }

  private async refresh(client: Client, generation: number): Promise<void> {
    try {
      const tools = await this.listAll(client);
      if (generation !== this.generation) return;
      this.listed = tools;
      this.hooks.toolsChanged(this);
    } catch (error) {
      this.hooks.log(`MCP server "${this.spec.name}": its new tool list could not be read (${describeTransportError(error, this.limits.maxMessageBytes)})`);
    }
  }

  /** Every page of `tools/list` (a repeated cursor or too many pages ends the listing). */
  private async listAll(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.limits.startTimeoutMs });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor || seen.has(cursor) || tools.length >= this.limits.maxTools) break;
      seen.add(cursor);
    }
    if (tools.length > this.limits.maxTools)
      this.hooks.log(`MCP server "${this.spec.name}": ${tools.length} tools; the first ${this.limits.maxTools} are used`);
    return tools.slice(0, this.limits.maxTools);
  }

  /** Gives up the current process (killed if still running) and schedules the next start. */
  private lost(reason: string): void {
    this.generation++;
    const client = this.client;
    this.client = undefined;
    void client?.close().catch(() => undefined);
    this.problem = reason;
    this.failures++;
    const tail = this.stderrTail.trim().split('\n').pop();
    this.hooks.log(`MCP server "${this.spec.name}" stopped: ${reason}${tail ? ` — last stderr line: ${redact(tail).slice(0, 300)}` : ''}`);
    this.setState('down');
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.current === 'stopped') return;
    const delay = Math.min(this.limits.restartMaxMs, this.limits.restartInitialMs * 2 ** Math.min(20, this.failures - 1));
    this.restartAt = Date.now() + delay;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.start();
    }, delay);
    this.restartTimer.unref?.();
  }

  private callError(tool: string, client: Client, error: unknown): UpstreamError {
    const name = `MCP server "${this.spec.name}"`;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      if (client === this.client) this.lost(`it did not answer ${tool} within ${this.limits.callTimeoutMs} ms`);
      return new UpstreamError(
        `${name} did not answer ${tool} within ${seconds(this.limits.callTimeoutMs)}; Toolshed restarts it. Try again shortly or use another tool.`,
      );
    }
    if (client !== this.client || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
      return new UpstreamError(`${name} stopped while running ${tool} (${this.problem ?? 'its process exited'}); Toolshed restarts it. Try again shortly.`);
    }
    if (error instanceof McpError)
      return new UpstreamError(
        `${name} refused ${tool}: ${describeTransportError(error.message.replace(/^(MCP error -?\d+: )+/, ''), this.limits.maxMessageBytes)}`,
      );
    return new UpstreamError(`${name} returned a malformed answer to ${tool} (${describeTransportError(error, this.limits.maxMessageBytes)}).`);
  }

  private unavailableText(): string {
    const name = `MCP server "${this.spec.name}"`;
    if (this.current === 'stopped') return `${name} has been stopped.`;
    if (this.current === 'starting') return `${name} is starting; try again in a moment.`;
    const wait = Math.max(0, this.restartAt - Date.now());
    return `${name} is not running (${this.problem ?? 'it has not started'}); Toolshed restarts it in ${seconds(wait)}.`;
  }

  private setState(state: UpstreamState): void {
    if (this.current === state) return;
    if (this.current === 'stopped') return;
    this.current = state;
    this.hooks.stateChanged(this);
  }
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** Protocol and transport errors in words (zod's issue lists are cut short; upstream text is redacted). */
function describeTransportError(error: unknown, maxBytes: number): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/ReadBuffer exceeded maximum size/.test(message)) return `it sent a message larger than ${maxBytes} bytes`;
  if (/ENOENT/.test(message)) return `its command was not found: ${message}`;
  const flat = redact(message).replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}
