import { EventEmitter } from 'node:events';
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolshedSettings } from '../../core/config/settingsSchema';
import { MemoryByteStore } from '../../core/platform/memoryByteStore';
import type { ToolDefinition } from '../../core/platform/chatTypes';
import { neutralizeBlockTags } from '../../core/privacy/promptBlocks';
import { redact } from '../../core/privacy/redaction';
import { loadSqlEngine } from '../../core/sql/sqlEngine';
import type { SqlEngine } from '../../core/sql/sqlEngine';
import { parseToolExamplesFile } from '../../core/tools/examples/toolExamples';
import { createToolSearchService } from '../../core/tools/toolSearchService';
import type { ToolSearchService } from '../../core/tools/toolSearchService';
import type { ToolInput, ToolRecord } from '../../core/tools/toolRecord';
import type { ToolRun } from '../../core/tools/toolRun';
import { redactToolNames } from '../../core/tools/toolText';
import { GatewayCoreSet } from './gatewayCoreSet';
import { GatewayNames } from './gatewayNames';
import type { GatewayLedger } from './gatewayLedger';
import { capResult, definitionTokens, errorResult, NO_SUCH_GATEWAY_TOOL, renderFoundTools } from './gatewayText';
import { DEFAULT_UPSTREAM_LIMITS, Upstream, UpstreamError } from './upstream';
import type { UpstreamLimits, UpstreamState } from './upstream';
import type { UpstreamSpec } from './upstreamConfig';

/**
 * Toolshed as an MCP gateway: the user's other MCP servers (upstreams) behind one search tool
 * and one call tool. Their tools are indexed with Toolshed's tool-search service (the same
 * ranking, policy, examples and relevance gate as `@toolshed`); one long-lived run is the
 * client's session (a stdio gateway serves one client). The model sees only the tools the run
 * lists (the user's pins, the learned core set of gatewayCoreSet.ts, and with `expose: 'found'`
 * what its searches activated); everything else is found with `find_tools` and run with `call_tool`.
 *
 * Upstream text (descriptions, answers, errors) is third-party text: names of tools the policy
 * hides are scrubbed from it and Toolshed's prompt-block tags in it are neutralised.
 */

export type ExposeMode = 'search' | 'found';

export interface GatewayOptions {
  upstreams: readonly UpstreamSpec[];
  /** Parsed settings (gatewaySettings.ts); only toolSearch allow/deny/alwaysLoadedPatterns/learnCoreSet, tools.state and toolExamples are read. */
  settings?: ToolshedSettings;
  /** `found`: tools a search finds are listed as real tools for the rest of the session (clients that refresh on `tools/list_changed`). */
  expose?: ExposeMode;
  limits?: Partial<UpstreamLimits>;
  /** A forwarded answer is cut at this many characters (default 100,000). */
  maxResultChars?: number;
  /** `*.tools.yaml` texts with examples for upstream tools (by served name). */
  exampleFiles?: readonly { text: string; fileName: string }[];
  ledger?: GatewayLedger;
  /**
   * The workspace's door folder, whose journal (the one `ledger` writes to) the learned core set
   * is folded from; absent, or `toolshed.toolSearch.learnCoreSet` false: no learned core set.
   */
  coreSetFolder?: string;
  log?: (line: string) => void;
  engine?: SqlEngine;
}

export interface GatewaySearchAnswer {
  text: string;
  found: string[];
  /** Tokens of the definitions in the answer (name, description with examples, schema). */
  tokens: number;
  isError: boolean;
}

const DEFAULT_MAX_RESULT_CHARS = 100_000;
const DEFAULT_SEARCH_LIMIT = 5;

export class McpGateway {
  /** `state` (server name, UpstreamState), `tools` (the catalog changed), `listed` (the directly listed tools changed). */
  readonly events = new EventEmitter();
  private readonly names = new GatewayNames();
  private readonly upstreams = new Map<string, Upstream>();
  private listedKey = '';
  private hiddenCache: { version: number; names: Set<string> } | undefined;
  private closed = false;
  private readonly pendingDecisions: Parameters<GatewayLedger>[0][] = [];
  private readonly coreSet: GatewayCoreSet | undefined;
  /** Every upstream's first start (ready or failed); searches wait for it so the first finds the whole catalog. */
  private firstStarts: Promise<void> = Promise.resolve();

  private constructor(
    private readonly service: ToolSearchService,
    private readonly run: ToolRun,
    private readonly options: GatewayOptions,
  ) {
    if (options.coreSetFolder && options.settings?.toolSearch.learnCoreSet !== false)
      this.coreSet = new GatewayCoreSet(options.coreSetFolder, {
        registry: () => service.registryMap(),
        catalogVersion: () => service.catalogVersion,
        isUsable: (tool) => run.isPermitted(tool) && this.names.resolve(tool) !== undefined,
        definitionTokens: (record) => definitionTokens(this.served([record])[0]),
        userStates: options.settings?.tools.state ?? {},
        log: (line) => options.log?.(line),
      });
  }

  static async create(options: GatewayOptions): Promise<McpGateway> {
    const engine = options.engine ?? (await loadSqlEngine());
    const settings = options.settings;
    const service = await createToolSearchService({
      engine,
      store: new MemoryByteStore(),
      config: {
        toolSearch: {
          ...settings?.toolSearch,
          // The gateway always defers (that is its point) and activates what a search finds, for this session.
          mode: 'always',
          defaultLoadingMode: 'deferred',
          activateOn: 'discovery',
          activationScope: 'run',
        },
        ...(settings ? { tools: settings.tools, toolExamples: settings.toolExamples } : {}),
      },
      saveDelayMs: 60_000,
    });
    const examples: Record<string, NonNullable<ToolInput['examples']>[number][]> = {};
    for (const file of options.exampleFiles ?? []) {
      const parsed = parseToolExamplesFile(file.text, file.fileName);
      for (const problem of parsed.problems) options.log?.(problem);
      for (const [tool, list] of Object.entries(parsed.examples)) (examples[tool] ??= []).push(...list);
    }
    if (Object.keys(examples).length > 0) service.setExampleFiles(examples);
    const run = await service.startRun({ runId: 'gateway' });
    const gateway = new McpGateway(service, run, options);
    gateway.startUpstreams();
    return gateway;
  }

  /** Resolves once every upstream's first start has finished (ready or failed). */
  ready(): Promise<void> {
    return this.firstStarts;
  }

  /** Each upstream's name, state and tool count (for status lines and tests). */
  status(): { name: string; slug: string; state: UpstreamState; tools: number; starts: number; problem?: string }[] {
    return [...this.upstreams.values()].map((u) => ({
      name: u.spec.name,
      slug: u.spec.slug,
      state: u.state,
      tools: u.tools.length,
      starts: u.starts,
      ...(u.lastProblem ? { problem: u.lastProblem } : {}),
    }));
  }

  /** Tools listed to the client directly: the user's pins, the learned core set, and under `expose: 'found'` the tools found this session. */
  listedTools(): ToolDefinition[] {
    const records = this.run.visibleTools().filter((record) => this.names.resolve(record.name));
    const shown = this.options.expose === 'found' ? records : records.filter((record) => record.loadingMode === 'always');
    const registry = this.service.registryMap();
    const names = new Set(shown.map((record) => record.name));
    const learned = this.learnedTools().flatMap((tool) => (names.has(tool) ? [] : [registry.get(tool)].filter((r): r is ToolRecord => r !== undefined)));
    return this.served([...shown, ...learned]);
  }

  /** The learned core set's tools listed now (part of `listedTools`). */
  learnedTools(): string[] {
    return this.coreSet?.tools ?? [];
  }

  /**
   * The upstream's hints for a served tool (read-only, destructive, idempotent, open world), so a
   * found tool listed as a real tool keeps them: a client that runs read-only tools without asking
   * (Codex) still asks before a destructive one. Only the booleans pass; the title is third-party text.
   */
  hintsOf(name: string): ToolAnnotations | undefined {
    const ref = this.names.resolve(name);
    const annotations = ref && this.upstreams.get(ref.server)?.tools.find((tool) => tool.name === ref.tool)?.annotations;
    if (!annotations) return undefined;
    const hints: ToolAnnotations = {};
    for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
      if (typeof annotations[key] === 'boolean') hints[key] = annotations[key];
    }
    return Object.keys(hints).length > 0 ? hints : undefined;
  }

  /** A `find_tools` call: ranked search (or `select:`), answered with each tool's description, examples and schema. */
  async search(query: string, limit = DEFAULT_SEARCH_LIMIT): Promise<GatewaySearchAnswer> {
    await this.firstStarts;
    const result = this.run.search({ query, limit });
    if (!result.ok) {
      const text = this.thirdParty(result.error);
      this.record({ action: 'search', request: this.thirdParty(query), tokens: 0, found: [], failed: true });
      return { text, found: [], tokens: 0, isError: true };
    }
    const registry = this.service.registryMap();
    const records = result.output.tools
      .map((tool) => registry.get(tool.name))
      .filter((r): r is ToolRecord => r !== undefined && this.names.resolve(r.name) !== undefined);
    const definitions = this.served(records);
    const tokens = definitions.reduce((sum, d) => sum + definitionTokens(d), 0);
    const found = definitions.map((d) => d.name);
    this.coreSet?.searched(found);
    this.record({ action: 'search', request: this.thirdParty(query), tokens, found, failed: false });
    this.checkListed();
    return { text: renderFoundTools(definitions, result.output.note), found, tokens, isError: false };
  }

  /** A `call_tool` call (or a call of a listed tool): forwarded to its upstream; every failure is an error result naming the server. */
  async call(name: string, args: unknown): Promise<CallToolResult> {
    await this.firstStarts;
    const resolved = this.run.resolveCall(name);
    const ref = this.names.resolve(name);
    const upstream = ref && this.upstreams.get(ref.server);
    if (!resolved.ok || !ref || !upstream) {
      // The name may be one the policy hides: the ledger never gets it.
      this.record({ action: 'call', request: '[unavailable tool]', tokens: 0, found: [], failed: true });
      return errorResult(NO_SUCH_GATEWAY_TOOL);
    }
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      this.record({ action: 'call', request: name, tokens: 0, found: [], called: name, failed: true });
      return errorResult(`The arguments for ${name} must be a JSON object.`);
    }
    // A first use activates the tool: under `expose: 'found'` it is then listed.
    if (resolved.activated) this.checkListed();
    const use = this.coreSet?.called(name, resolved.tool.loadingMode === 'always');
    let result: CallToolResult;
    try {
      const answer = await upstream.call(ref.tool, (args ?? {}) as Record<string, unknown>);
      result = capResult(answer, this.options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS, upstream.spec.name, (text) => this.thirdParty(text));
    } catch (error) {
      const text =
        error instanceof UpstreamError ? error.message : `MCP server "${upstream.spec.name}" failed: ${error instanceof Error ? error.message : String(error)}`;
      result = errorResult(this.thirdParty(text));
    }
    const failed = result.isError === true;
    this.run.recordOutcome(name, !failed);
    const tokens = result.content.reduce((sum, part) => sum + Math.ceil((part.type === 'text' ? part.text.length : JSON.stringify(part).length) / 4), 0);
    this.record({
      action: 'call',
      ...{ request: name, tokens, found: [], called: name, server: upstream.spec.name, failed },
      ...(use?.missed ? { missed: true } : {}),
      ...(use?.reason ? { note: use.reason } : {}),
    });
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.writeDecisions();
    await Promise.all([...this.upstreams.values()].map((upstream) => upstream.close()));
    this.run.end();
    await this.service.dispose();
    this.events.removeAllListeners();
  }

  private startUpstreams(): void {
    const starts: Promise<void>[] = [];
    for (const spec of this.options.upstreams) {
      const upstream = new Upstream(
        spec,
        { ...DEFAULT_UPSTREAM_LIMITS, ...this.options.limits },
        {
          stateChanged: (u) => this.events.emit('state', u.spec.name, u.state),
          toolsChanged: (u) => this.reindex(u),
          log: (line) => this.options.log?.(line),
        },
      );
      this.upstreams.set(spec.slug, upstream);
      starts.push(upstream.start());
    }
    this.firstStarts = Promise.all(starts).then(() => this.coreSetChanged(this.coreSet?.start(), false));
  }

  /** An upstream listed its tools (first start, restart, `list_changed`): the catalog is rebuilt from every upstream's last list. */
  private reindex(changed: Upstream): void {
    if (this.closed) return;
    this.names.setServerTools(
      changed.spec.slug,
      changed.tools.map((tool) => tool.name),
    );
    const inputs: ToolInput[] = [];
    for (const upstream of this.upstreams.values()) {
      for (const tool of upstream.tools) {
        const name = this.names.nameOf(upstream.spec.slug, tool.name);
        if (name) inputs.push(toolInputOf(name, upstream.spec.slug, tool));
      }
    }
    this.service.setTools(inputs);
    this.coreSetChanged(this.coreSet?.catalogChanged(), true);
    this.events.emit('tools');
    this.checkListed();
  }

  private checkListed(): void {
    const key = this.listedTools()
      .map((d) => `${d.name}\u0000${d.description}`)
      .join('\u0001');
    if (key === this.listedKey) return;
    this.listedKey = key;
    this.events.emit('listed');
  }

  /**
   * Upstream text made safe to hand a model: names of tools the policy or the user hides (the
   * served name and the server's own) scrubbed, secrets redacted, prompt-block tags neutralised.
   */
  private thirdParty(text: string): string {
    const hidden = this.hiddenNames();
    const scrubbed = hidden.size > 0 ? redactToolNames(text, (token) => hidden.has(token)) : text;
    return neutralizeBlockTags(redact(scrubbed));
  }

  /** Upstream tools not in the registry (denied by policy or turned off), by served and own name. */
  private hiddenNames(): Set<string> {
    const version = this.service.catalogVersion;
    if (this.hiddenCache?.version === version) return this.hiddenCache.names;
    const registry = this.service.registryMap();
    const names = new Set<string>();
    const ownNamesInUse = new Set<string>();
    const hiddenOwnNames: string[] = [];
    for (const [name, ref] of this.names.entries()) {
      if (registry.has(name) && this.run.isPermitted(name)) {
        ownNamesInUse.add(ref.tool);
      } else {
        names.add(name);
        hiddenOwnNames.push(ref.tool);
      }
    }
    // A server's own name for a hidden tool is scrubbed too, unless a usable tool of another server shares it.
    for (const own of hiddenOwnNames) if (!ownNamesInUse.has(own)) names.add(own);
    this.hiddenCache = { version, names };
    return names;
  }

  /**
   * Queues a decision; the ledger writes (files) happen after the answer has gone out, so a
   * forwarded call does not wait on the disk. `close()` writes what is still queued.
   */
  private record(decision: Omit<Parameters<GatewayLedger>[0], 'at'>): void {
    if (!this.options.ledger) return;
    this.pendingDecisions.push({ at: Date.now(), ...decision });
    if (this.pendingDecisions.length === 1) setImmediate(() => this.writeDecisions());
  }

  private writeDecisions(): void {
    const decisions = this.pendingDecisions.splice(0);
    for (const decision of decisions) {
      try {
        this.options.ledger?.(decision);
      } catch (error) {
        this.options.log?.(`The gateway's ledger entry was not written: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    // The calls are in the journal now, with any other gateway process's: the core set learns from them.
    if (!this.closed && decisions.some((decision) => decision.called)) this.coreSetChanged(this.coreSet?.refresh(), true);
  }

  /** Definitions as served: examples rendered, upstream text made safe. */
  private served(records: readonly ToolRecord[]): ToolDefinition[] {
    return this.run.toolDefinitions(records).map((definition) => ({ ...definition, description: this.thirdParty(definition.description) }));
  }

  /** The learned core set changed: logged, recorded for `toolshed why` (`announce`; at start only logged), and listed. */
  private coreSetChanged(changes: readonly string[] | undefined, announce: boolean): void {
    if (!changes?.length) return;
    // A demoted tool may be one no upstream lists any more: named like any hidden tool, never.
    const lines = changes.map((line) => this.thirdParty(line));
    for (const line of lines) this.options.log?.(`toolshed gateway: ${line}`);
    if (announce) this.record({ action: 'core_set', request: 'learned core set', tokens: 0, found: this.learnedTools(), failed: false, note: lines.join(' ') });
    this.checkListed();
  }
}

function toolInputOf(name: string, server: string, tool: Tool): ToolInput {
  return {
    name,
    description: tool.description ?? tool.title ?? '',
    inputSchema: tool.inputSchema,
    namespace: server,
    source: 'mcp',
    tags: ['mcp'],
    ...(tool.annotations?.readOnlyHint === true ? { sideEffects: 'read' as const } : {}),
  };
}
