import type { Clock, TokenCounter, ToolshedEvent } from '../platform/ports';
import { TOOLSHED_TOOL_NAMES } from '../platform/toolNames';
import { type ActivationSet } from './toolActivation';
import type { ActivationRecord, ActivationScope, ActivationSource } from './toolActivation';
import type { ToolCatalog } from './toolCatalog';
import { describeWithExamples } from './examples/toolExamples';
import type { ToolIndex } from './index/toolIndex';
import type { RankerOptions } from './index/toolRanker';
import type { ToolRecord } from './toolRecord';
import { findForRun, searchOutputOf } from './runSearch';
import type { RunSearchScope } from './runSearch';
import { gateDiscoveredHits, matchRequestTools, REQUEST_RELATIVE_CUT } from './requestMatch';
import type { GatedTool, JudgedTool } from './requestMatch';
import { requestMatchReason } from './requestMatchRecord';
import type { RequestMatchRecord } from './requestMatchRecord';
import { MAX_TOOLS_PER_REQUEST } from './modes/deferralDecision';
import { describeInputProblem, toolSearchInputSchema } from './toolSearchSchema';
import type { ToolSearchOutput } from './toolSearchSchema';
import { NO_SUCH_TOOL_MESSAGE, TOOL_DISCOVERY_BLOCK, redactToolNames, truncate } from './toolText';
import { redact } from '../privacy/redaction';
import { tokenReport } from './tokenEconomy';
import type { TokenReport, ToolDefinition } from './tokenEconomy';
import type { DeferralDecision } from './modes/deferralDecision';
import { capRequestTools, sendCandidates, SendTier } from './modes/requestToolSet';
import type { RequestToolSet } from './modes/requestToolSet';
import { renderDeferredNamesBlock } from './modes/deferredNamesBlock';
import { parseDirectSelect, SELECT_PREFIX, selectionForLog, selectOutcome } from './modes/directSelect';
import { withFallbackQuery } from '../search/embedding/semanticStage';
import type { SemanticStage } from '../search/embedding/semanticStage';
import type { ToolPickLog } from './pickPrior/toolPickLog';
import { logTermsOf, recordShown } from './pickPrior/searchPrior';

/**
 * One chat request's view of the tools (docs/contracts.md#activation-scopes): the visible catalog it sends and may
 * resolve, `tool_search` over what it may see, and activation (run scope: state lives here;
 * session scope: state lives in the session, which this run holds the lock of until `end()`).
 *
 * Visibility is recomputed from the live registry on every read, so a catalog or policy change
 * mid-run takes effect at once, and nothing outside registry ∩ visibility is ever returned.
 */

export interface RunHost {
  catalog: ToolCatalog;
  index: ToolIndex;
  clock: Clock;
  tokenCounter: TokenCounter;
  emit(event: ToolshedEvent): void;
  ranker?: RankerOptions;
  /** Called after activations change (tree views refresh). */
  changed(): void;
  /** Result lists and picks of this workspace, when learning is available. */
  picks?: ToolPickLog;
  /** The embedding stage of hybrid ranking, when an embedder is on. */
  semantic?: SemanticStage;
  /**
   * Fetches a query's vector ahead of a search (an endpoint embedder only; absent for an
   * in-process one); resolves to why there is none (the endpoint failed), else undefined.
   */
  embedQuery?(text: string): Promise<string | undefined>;
}

export type ResolveResult = { ok: true; tool: ToolRecord; activated: boolean } | { ok: false; error: string };

export type SearchResult = { ok: true; output: ToolSearchOutput } | { ok: false; error: string };

const OWN_TOOLS: ReadonlySet<string> = new Set(TOOLSHED_TOOL_NAMES);

export class ToolRun {
  private ended = false;
  /** Whether this request defers at all; unset = by mode alone (`auto` unmeasured defers). */
  private deferral: DeferralDecision | undefined;
  private requestSetCache: { key: string; set: RequestToolSet; sent: ReadonlySet<string> } | undefined;
  /** Names the caller never offers in this request (its loop hides them): outside the 128 cap, never deferred or found. */
  private callerHidden: ReadonlySet<string> = new Set();
  /** The turn's request once embedded (prepareTurn): the query meaning for searches without their own vector. */
  private turnRequest: string | undefined;
  private lexicalBecause: string | undefined;
  private requestMatch: RequestMatchRecord | undefined;

  constructor(
    readonly id: string,
    private readonly host: RunHost,
    readonly scope: ActivationScope,
    private readonly activations: ActivationSet,
    private readonly isVisiblePredicate: (tool: ToolRecord) => boolean,
    readonly sessionId: string | undefined,
    private readonly release: () => void,
  ) {}

  private get config() {
    return this.host.catalog.config;
  }

  /** In the registry AND visible under this run's ToolVisibilityPolicy. */
  private permitted(record: ToolRecord | undefined): record is ToolRecord {
    if (!record) return false;
    try {
      return this.isVisiblePredicate(record);
    } catch {
      return false; // a failing predicate hides (fail closed)
    }
  }

  /**
   * Sets whether this request defers (toolshed.toolSearch.mode, measured for the request's model).
   * `hidden`: names the caller never sends (e.g. tool_invoke in @toolshed's loop); they take no
   * slot of the per-request cap, so the model really gets as many tools as the decision says.
   */
  applyDeferral(decision: DeferralDecision, hidden: ReadonlySet<string> = new Set()): void {
    this.deferral = decision;
    this.callerHidden = hidden;
    this.requestSetCache = undefined;
  }

  get deferralDecision(): DeferralDecision | undefined {
    return this.deferral;
  }

  /** True when this request holds tools back (by mode and decision); the 128 cap may defer some anyway. */
  get defers(): boolean {
    return this.deferral ? this.deferral.deferred : this.config.search.mode !== 'off';
  }

  /** Sent with this request without having been activated (pinned, own, or not deferred). */
  private isAlwaysVisible(record: ToolRecord): boolean {
    return this.requestSet().sent.has(record.name) && !this.activations.has(record.name);
  }

  /** Why a permitted tool would be sent, or undefined when it waits for tool_search. */
  private sendTier(record: ToolRecord): SendTier | undefined {
    if (OWN_TOOLS.has(record.name) && record.loadingMode === 'always') return SendTier.Own;
    if (this.activations.has(record.name)) return SendTier.Activated;
    if (record.loadingMode === 'always') return SendTier.Pinned;
    if (!this.defers && this.config.toolStates.stateOf(record.name) !== 'deferred') return SendTier.Undeferred;
    return undefined;
  }

  /** What this request sends (at most 128 tools) — recomputed when the catalog or activations change. */
  private requestSet(): { set: RequestToolSet; sent: ReadonlySet<string> } {
    const registry = this.host.catalog.registry();
    const key = `${this.host.catalog.version}|${this.activations.size}|${this.defers}`;
    if (this.requestSetCache?.key === key) return this.requestSetCache;
    const candidates = sendCandidates({
      defers: this.defers,
      registry,
      pinned: () => this.host.catalog.pinnedRecords(),
      activated: () => this.activations.list().map((a) => a.toolName),
      tierOf: (record) => (this.permitted(record) && !this.callerHidden.has(record.name) ? this.sendTier(record) : undefined),
    });
    const set = capRequestTools(candidates);
    this.requestSetCache = { key, set, sent: new Set(set.sent.map((r) => r.name)) };
    return this.requestSetCache;
  }

  /** The tools to list in this request's prompt, by name (never more than 128). */
  visibleTools(): ToolRecord[] {
    return [...this.requestSet().set.sent];
  }

  /** Tools that wanted to be sent but did not fit the 128-tool cap (deferred for this request). */
  overCapTools(): ToolRecord[] {
    return [...this.requestSet().set.overCap];
  }

  isVisible(name: string): boolean {
    const record = this.host.catalog.registry().get(name);
    return this.permitted(record) && this.requestSet().sent.has(name);
  }

  /** Permitted tools this request does not send: what tool_search can find and load. */
  deferredTools(): ToolRecord[] {
    const sent = this.requestSet().sent;
    return this.permittedTools().filter((record) => !sent.has(record.name) && !this.callerHidden.has(record.name));
  }

  /** Whether this run could use the tool (visible or activatable), by one lookup. */
  isPermitted(name: string): boolean {
    return this.permitted(this.host.catalog.registry().get(name));
  }

  /** Everything this run could use (visible + activatable); the "all tools" baseline. */
  permittedTools(): ToolRecord[] {
    return [...this.host.catalog.registry().values()].filter((r) => this.permitted(r));
  }

  /** Definitions as sent to the model: descriptions with examples rendered, names scrubbed. */
  toolDefinitions(records: readonly ToolRecord[] = this.visibleTools()): ToolDefinition[] {
    return records.map((record) => ({
      name: record.name,
      description: this.scrub(describeWithExamples(record.description, record.examples, this.config.examples)),
      inputSchema: record.inputSchema,
    }));
  }

  /** Prompt blocks this run adds (discovery guidance, deferred names), when anything is deferred. */
  promptBlocks(): string[] {
    const deferred = this.deferredTools();
    if (deferred.length === 0) return [];
    const search = this.config.search;
    const names = renderDeferredNamesBlock(
      deferred.map((record) => ({ name: record.name, namespace: record.namespace, source: record.source })),
      search.listDeferredNames,
      search.deferredNamesMaxTokens,
    );
    return names ? [TOOL_DISCOVERY_BLOCK, names] : [TOOL_DISCOVERY_BLOCK];
  }

  /**
   * Runs a `tool_search` call. `raw` is the model's input (validated here). With
   * `activate: false` (a person searching from the palette or `/search`) nothing is activated.
   */
  search(raw: unknown, options: { activate?: boolean } = {}): SearchResult {
    this.assertLive();
    const parsed = toolSearchInputSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, error: describeInputProblem(parsed.error) };
    const input = parsed.data;
    const selection = parseDirectSelect(input.query);
    const learn = !selection && input.search_type === 'fts' && this.config.search.learnFromUse && this.host.picks !== undefined;
    let logTerms: string[] | undefined;
    const termsForLog = () => (logTerms ??= logTermsOf(input.query));
    const outcome = findForRun(this.searchScope(input.include_always_loaded), input, selection, learn, termsForLog, true);
    // A select: may name tools the run must not see; logs and activation reasons repeat only what was found.
    // Any query is logged redacted and without names of tools the run may not see (a model can
    // type a denied name or a secret into an exact or regex query).
    const loggedQuery = selection ? selectionForLog(outcome, selection) : this.scrub(redact(input.query));
    this.host.emit({
      type: 'tool_search_query',
      payload: {
        query: loggedQuery,
        requested_search_type: input.search_type,
        effective_search_type: outcome.effective,
        results_count: outcome.hits.length,
        run_id: this.id,
        ...(this.sessionId ? { session_id: this.sessionId } : {}),
      },
    });
    if (outcome.error) return { ok: false, error: this.scrub(outcome.error) };
    if (options.activate !== false && !selection && this.config.search.learnFromUse && this.host.picks) {
      recordShown(this.host.picks, this.sessionId ?? this.id, termsForLog(), outcome.hits, this.host.clock.now());
    }
    if (options.activate !== false && (selection || this.config.search.activateOn === 'discovery')) {
      // Names the model asked for (select:, exact) are all loaded; ranked results pass the relevance gate.
      const gated =
        selection || outcome.effective === 'exact'
          ? outcome.hits
          : gateDiscoveredHits(this.host.index, input.query, outcome.hits, this.config.search.minRelevance, this.semantic);
      for (const hit of gated) {
        if (!this.isAlwaysVisible(hit.record)) this.activate(hit.record, 'discovery', `tool_search "${truncate(loggedQuery, 80)}"`);
      }
    }
    return { ok: true, output: searchOutputOf(outcome, input.query, (text) => this.scrub(text)) };
  }

  /**
   * The `select:` search that would load exactly `names` (those this run may use), with the
   * output `tool_search` would give — computed only: nothing is logged, shown or activated. It
   * is the smallest search a model could make for tools it already knows by name (what a
   * pre-activated tool spared it; see planner/searchSavings.ts).
   */
  selectionExchange(names: readonly string[]): { query: string; output: ToolSearchOutput } | undefined {
    this.assertLive();
    const registry = this.host.catalog.registry();
    const permitted = names.filter((name) => this.permitted(registry.get(name)));
    const selection = parseDirectSelect(`${SELECT_PREFIX}${permitted.join(',')}`);
    if (!selection || permitted.length === 0) return undefined;
    const query = `${SELECT_PREFIX}${selection.names.join(',')}`;
    return {
      query,
      output: searchOutputOf(
        selectOutcome(selection, (name) => registry.get(name)),
        query,
        (text) => this.scrub(text),
      ),
    };
  }

  /**
   * The model called `name`. Visible → ok. Not visible but activatable → activated (first use)
   * and ok. Anything else — unknown, denied, hidden — gets the same error text.
   */
  resolveCall(name: string): ResolveResult {
    this.assertLive();
    const record = this.host.catalog.registry().get(name);
    if (this.permitted(record)) {
      if (this.isAlwaysVisible(record) || this.activations.has(name)) {
        this.activations.countCall(name);
        if (this.activations.has(name)) this.host.changed();
        return { ok: true, tool: record, activated: false };
      }
      // Deferred (by mode, state or the 128 cap) but permitted: activated on first use.
      this.activate(record, 'first_use', 'called by the model');
      this.activations.countCall(name);
      return { ok: true, tool: record, activated: true };
    }
    this.host.emit({ type: 'tool_activation_denied', payload: { reason: 'not_found_or_not_permitted', run_id: this.id } });
    return { ok: false, error: NO_SUCH_TOOL_MESSAGE };
  }

  /**
   * Activates tools an injected skill names (docs/skills.md#tools-from-skills), in this run's
   * activation scope, before the model is asked: only permitted tools this request does not
   * already send. Returns the names activated, in the given order (unknown, denied, hidden and
   * already-sent names are skipped silently and do not count toward `max`).
   */
  preActivate(names: readonly string[], max: number, reason: string, source: ActivationSource = 'skill'): string[] {
    this.assertLive();
    const registry = this.host.catalog.registry();
    const activated: string[] = [];
    for (const name of new Set(names)) {
      // Within the per-request cap: a tool activated before round 1 must be one the request sends.
      if (activated.length >= max || this.activations.size + OWN_TOOLS.size >= MAX_TOOLS_PER_REQUEST) break;
      const record = registry.get(name);
      if (!this.permitted(record) || OWN_TOOLS.has(name) || this.activations.has(name) || this.isVisible(name)) continue;
      this.activate(record, source, reason);
      activated.push(name);
    }
    return activated;
  }

  /**
   * Pre-flight for tools: activates up to `toolshed.toolSearch.preActivateTools` deferred tools
   * whose absolute relevance to the request passes the gate (requestMatch.ts), the same way as
   * `preActivate`; returns those activated with their relevance.
   */
  activateForRequest(request: string): GatedTool[] {
    this.assertLive();
    const { preActivateTools: max, minRelevance } = this.config.search;
    let candidates: readonly JudgedTool[] = [];
    let gateMinimum = minRelevance;
    const matches = matchRequestTools(this.searchScope(false), this.host.index, request, max, minRelevance, (seen, minimum) => {
      candidates = seen;
      gateMinimum = minimum;
    });
    // One at a time, so each activation keeps its own reason (the words it matched, its relevance).
    const activated = new Set(matches.flatMap((match) => this.preActivate([match.name], 1, requestMatchReason(match), 'request')));
    this.requestMatch = {
      candidates: [...candidates],
      minRelevance: gateMinimum,
      relativeCut: minRelevance > 0 ? REQUEST_RELATIVE_CUT : 0,
      max,
      passed: matches.map((match) => match.name),
      activated: [...activated],
    };
    return matches.filter((match) => activated.has(match.name));
  }

  /** What the last `activateForRequest` of this run looked at and decided (undefined before one). */
  get lastRequestMatch(): RequestMatchRecord | undefined {
    return this.requestMatch;
  }

  /**
   * With an endpoint embedder, embeds the turn's request once: pre-activation and every
   * `tool_search` of this run whose query has no vector of its own then rank with the request's
   * meaning — one embedding request per turn, not one per search. Never rejects; while the
   * endpoint is down the turn stays lexical (its back-off spares the wait on later turns).
   * The request goes whole: the endpoint embeds its first characters (blanks aside), so skill
   * pre-flight, which passes a longer slice of it, asks for the same vector.
   */
  async prepareTurn(request: string): Promise<void> {
    const text = request.trim();
    if (!text || !this.host.semantic || !this.host.embedQuery) return;
    this.lexicalBecause = await this.host.embedQuery(text);
    this.turnRequest = text;
  }

  /** Why this turn's searches were lexical although an endpoint embedder is on (its failure), or undefined. */
  get embeddingFailure(): string | undefined {
    return this.lexicalBecause;
  }

  /** The embedding stage for this run's searches (a query without a vector takes the turn request's). */
  private get semantic(): SemanticStage | undefined {
    const stage = this.host.semantic;
    return stage && this.turnRequest !== undefined ? withFallbackQuery(stage, this.turnRequest) : stage;
  }

  /** What a ranked search of this run may look at: usable tools, always-sent ones only when asked. */
  private searchScope(includeAlwaysLoaded: boolean): RunSearchScope {
    const registry = this.host.catalog.registry();
    return {
      host: { ...this.host, semantic: this.semantic },
      config: this.config,
      usable: (name) => {
        const record = registry.get(name);
        return this.permitted(record) && !this.callerHidden.has(name) ? record : undefined;
      },
      isCandidate: (name) => {
        const record = registry.get(name);
        return this.permitted(record) && !this.callerHidden.has(name) && (includeAlwaysLoaded || !this.isAlwaysVisible(record));
      },
    };
  }

  /**
   * The outcome of a call the model made after a search: feeds the pick prior.
   * Only the tool name, whether it worked, and when are kept.
   */
  recordOutcome(name: string, succeeded: boolean): void {
    if (!this.config.search.learnFromUse || !this.host.picks) return;
    try {
      this.host.picks.recordOutcome(this.sessionId ?? this.id, name, succeeded, this.host.clock.now());
    } catch {
      // Learning is best effort: it never fails a tool call.
    }
  }

  /** Activations this run sees (run scope: its own; session scope: the session's), permitted only. */
  listActivations(): ActivationRecord[] {
    const registry = this.host.catalog.registry();
    return this.activations.list().filter((a) => this.permitted(registry.get(a.toolName)));
  }

  /** Tokens sent (visible tools + blocks) versus all permitted tools visible. */
  async tokenReport(extraBlocks: readonly string[] = []): Promise<TokenReport> {
    return tokenReport(this.host.tokenCounter, this.toolDefinitions(), this.toolDefinitions(this.permittedTools()), [...this.promptBlocks(), ...extraBlocks]);
  }

  /** Ends the run; a session-scoped run releases its session for the next run. Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.release();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  private activate(record: ToolRecord, source: ActivationSource, reason: string): void {
    const added = this.activations.add({
      toolName: record.name,
      scope: this.scope,
      source,
      reason,
      activatedAt: this.host.clock.now(),
      calls: 0,
    });
    if (!added) return;
    this.host.emit({
      type: 'tool_activated',
      payload: {
        tool_name: record.name,
        activation_scope: this.scope,
        source,
        reason,
        run_id: this.id,
        ...(this.sessionId ? { session_id: this.sessionId } : {}),
      },
    });
    this.host.changed();
  }

  /** Removes names of tools this run may not see from model-facing text. */
  private scrub(text: string): string {
    const registry = this.host.catalog.registry();
    return redactToolNames(text, (token) => {
      if (!this.host.catalog.isKnown(token)) return false;
      return !this.permitted(registry.get(token));
    });
  }

  private assertLive(): void {
    if (this.ended) throw new Error(`Tool run ${this.id} has ended; start a new run for the next request.`);
  }
}
