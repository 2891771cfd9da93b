import type { CliCommand } from '../cliCommand';
import { readJsonl, readToolCatalog } from './cliInput';
import { TOOL_SEARCH_TOOL_NAME } from '../../core/platform/toolNames';
import { loadSqlEngine } from '../../core/sql/sqlEngine';
import type { SqlEngine } from '../../core/sql/sqlEngine';
import { MemoryByteStore } from '../../core/platform/memoryByteStore';
import { serializeDefinitions } from '../../core/planner/plannerLoop';
import { modelDeferral, runToolshedTurn } from '../../core/planner/turn/toolshedTurn';
import type { ChatMessage, ChatModelPort, ChatPart, ToolDefinition } from '../../core/platform/chatTypes';
import { analyze } from '../../core/search/textAnalysis';
import { DefinitionTokenCache } from '../../core/tools/modes/deferralMeasure';
import { createToolSearchService } from '../../core/tools/toolSearchService';
import { defaultSettings } from '../../core/config/settingsSchema';
import type { ToolSearchConfig } from '../../core/config/settingsSchema';
import type { ToolInput } from '../../core/tools/toolRecord';
import { queryIdParity } from './benchTools';
import { parseArgs, toolshedOwnTools, toolsAndQueries } from './toolCliSupport';
import type { ParsedArgs } from './toolCliSupport';
import { EMBEDDER_HELP, EMBEDDER_USAGE, embedderFromFlags, reportEndpointFailure, EMBEDDER_SWITCHES, EMBEDDER_VALUES } from './embedderFlag';
import { loadBundledEmbedder } from '../../core/search/embedding/bundledEmbedder';
import type { Embedder } from '../../core/search/embedding/embedder';

/**
 * The turn economy of an @toolshed request: how many model requests and prompt tokens it takes
 * to reach the right tool, on the turn @toolshed runs (runToolshedTurn: the same hidden tools,
 * deferral, pre-activation and loop) over a real tool-search service, with a scripted model. Compared in one run: main's behaviour (no
 * pre-activation, the whole `tool_search` top 5 activated) against the current defaults.
 */

interface QueryRow {
  id?: string;
  query: string;
  gold: string[];
}

const countTokens = async (text: string) => Math.ceil(text.length / 4);
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** A request's key words as a model would type them into tool_search: no stop words, no numbers, at most 8. */
function keyWords(request: string): string {
  const words = request
    .split(/[^\p{L}\p{N}_.-]+/u)
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((w) => w && !/^[0-9.]+$/.test(w) && analyze(w).length > 0);
  return [...new Set(words.map((w) => w.toLowerCase()))].slice(0, 8).join(' ');
}

/** What one send looked like to the model: the whole prompt (messages + tool definitions). */
function promptText(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): string {
  const parts = messages.flatMap((m) => m.parts.map((p) => (p.kind === 'toolCall' ? JSON.stringify({ name: p.name, input: p.input }) : p.text)));
  return `${parts.join('\n')}\n${serializeDefinitions([...tools])}`;
}

/**
 * Calls the gold tool when it is offered; otherwise searches once with the request's key words
 * and calls the gold tool if the results name it (activated on discovery, or on first use when
 * the gate left it out); then answers. Gives up after one search that does not find it.
 */
function scriptedModel(
  gold: string,
  request: string,
  onSend: (messages: ChatMessage[], tools: ToolDefinition[]) => void,
): ChatModelPort & { foundNotOffered: boolean } {
  const model = {
    foundNotOffered: false,
    async *send(messages: ChatMessage[], tools: ToolDefinition[]): AsyncIterable<ChatPart> {
      onSend(messages, tools);
      const calls = messages.flatMap((m) => m.parts.filter((p): p is Extract<ChatPart, { kind: 'toolCall' }> => p.kind === 'toolCall'));
      if (calls.some((c) => c.name === gold)) {
        yield { kind: 'text', text: 'Done.' };
        return;
      }
      const searched = calls.some((c) => c.name === TOOL_SEARCH_TOOL_NAME);
      const found = searched && messages.some((m) => m.parts.some((p) => p.kind === 'toolResult' && p.text.includes(`"name":${JSON.stringify(gold)}`)));
      if (tools.some((t) => t.name === gold) || found) {
        if (!tools.some((t) => t.name === gold)) model.foundNotOffered = true;
        yield { kind: 'toolCall', callId: 'c-gold', name: gold, input: {} };
        return;
      }
      if (!searched) {
        yield { kind: 'toolCall', callId: 'c-search', name: TOOL_SEARCH_TOOL_NAME, input: { query: keyWords(request) || request.slice(0, 500) } };
        return;
      }
      yield { kind: 'text', text: 'No tool for that.' };
    },
    countTokens,
  };
  return model;
}

interface Variant {
  label: string;
  toolSearch: Partial<ToolSearchConfig>;
}

/** main's behaviour: nothing before round 1, every tool_search result activated. */
const BEFORE: Variant = { label: 'before (no pre-activation, top 5 activated)', toolSearch: { preActivateTools: 0, minRelevance: 0 } };
/** The defaults: pre-activation and the relevance gate on discovery. */
const AFTER: Variant = { label: 'after (defaults)', toolSearch: {} };

interface TurnRecord {
  id?: string;
  rounds: number;
  requests: number;
  definitionTokens: number;
  promptTokens: number;
  goldFirst: boolean;
  called: boolean;
  preActivated: number;
  vainDefinitions: number;
  vainTokens: number;
  foundNotOffered: boolean;
}

/** One turn per query through runToolshedTurn, over a service with the variant's settings (no skills). */
async function measureTurns(
  engine: SqlEngine,
  tools: readonly ToolInput[],
  queries: readonly QueryRow[],
  variant: Variant,
  embedder?: Embedder,
): Promise<TurnRecord[]> {
  const service = await createToolSearchService({
    engine,
    store: new MemoryByteStore(),
    config: { toolSearch: { learnFromUse: false, ...variant.toolSearch } },
    saveDelayMs: 60_000,
    embedder,
  });
  service.setTools([...tools]);
  await service.embeddings.settled();
  const cache = new DefinitionTokenCache();
  const settings = { ...defaultSettings(), toolSearch: service.config.toolSearch };
  const records: TurnRecord[] = [];
  for (const q of queries) {
    const gold = q.gold[0]!;
    const run = await service.startRun();
    try {
      const sent: ToolDefinition[][] = [];
      let promptTokens = 0;
      let called = false;
      const model = scriptedModel(gold, q.query, (messages, offered) => {
        sent.push(offered);
        promptTokens += Math.ceil(promptText(messages, offered).length / 4);
      });
      const { outcome } = await runToolshedTurn(
        { prompt: q.query, history: [], sessionId: 'bench' },
        {
          settings,
          run,
          decideDeferral: modelDeferral(service.config.toolSearch, { id: 'bench', maxInputTokens: 128_000, countTokens }, cache),
          model,
          executor: {
            invoke: async (name) => {
              if (name === gold) called = true;
              return { text: '{"ok":true}' };
            },
          },
          progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
          events: { emit: () => undefined },
          signal: { isCancelled: false },
          refuseToolRuns: false,
        },
      );
      const matched = new Set((outcome.tokens.requestMatchedTools ?? []).map((t) => t.name));
      // Definitions of tools activated before round 1 that the model never called, every round they were sent.
      const vain = sent.flatMap((offered) => offered.filter((d) => matched.has(d.name) && d.name !== gold));
      records.push({
        id: q.id,
        rounds: outcome.rounds.length,
        requests: outcome.rounds.length + (outcome.tokens.selectionRequests ?? 0),
        definitionTokens: outcome.tokens.toolDefinitionTokens,
        promptTokens,
        goldFirst: outcome.rounds[0]?.toolsSent.includes(gold) ?? false,
        called,
        preActivated: matched.size,
        vainDefinitions: vain.length,
        vainTokens: vain.reduce((sum, d) => sum + Math.ceil(serializeDefinitions([d]).length / 4), 0),
        foundNotOffered: model.foundNotOffered,
      });
    } finally {
      run.end();
    }
  }
  await service.dispose();
  return records;
}

/** Per-turn means of a set of turns (one bench row). */
function summarizeTurns(records: readonly TurnRecord[]) {
  const n = Math.max(records.length, 1);
  const mean = (pick: (r: TurnRecord) => number, digits = 2) => round(records.reduce((sum, r) => sum + pick(r), 0) / n, digits);
  return {
    queries: records.length,
    rounds_per_request: mean((r) => r.rounds),
    model_requests_per_turn: mean((r) => r.requests),
    tool_definition_tokens_per_turn: mean((r) => r.definitionTokens, 0),
    prompt_tokens_per_turn: mean((r) => r.promptTokens, 0),
    gold_in_round_1: mean((r) => Number(r.goldFirst), 3),
    gold_called: mean((r) => Number(r.called), 3),
    pre_activated_per_turn: mean((r) => r.preActivated),
    vain_pre_activated_definitions_per_turn: mean((r) => r.vainDefinitions),
    vain_pre_activated_tokens_per_turn: mean((r) => r.vainTokens, 0),
    found_but_not_activated: mean((r) => Number(r.foundNotOffered), 3),
  };
}

export const benchTurnEconomyCommand: CliCommand = {
  path: ['bench', 'turn-economy'],
  summary: 'Rounds, model requests and prompt tokens per @toolshed turn, before and after pre-activation (scripted model)',
  usage: [
    'Usage: toolshed bench turn-economy --tools FILE.jsonl --queries FILE.jsonl [--halves] [--max-queries N]',
    '                                   [--pre-activate N] [--min-relevance X] [--json]',
    `                                   ${EMBEDDER_USAGE} [--calibration FLOOR,CEILING]`,
    '',
    'Runs the real planner loop over each query with a scripted model that calls the gold tool when it is offered,',
    "otherwise searches once with the request's key words and calls the gold tool once found, then answers.",
    "Two variants in one run: main's behaviour (toolSearch.preActivateTools 0, every tool_search result activated)",
    'and the current defaults (--pre-activate / --min-relevance override them, for tuning). Tokens: 4 characters a token.',
    '--halves adds rows for the queries whose id number is odd (tuning half) and even (held out).',
    '--json prints {rows: [{subset, variant, rounds_per_request, model_requests_per_turn, prompt_tokens_per_turn, …}]}.',
    ...EMBEDDER_HELP,
    '--calibration (with --embedder bundled): the cosine → relevance mapping of the fused relevance gate, for tuning;',
    '  FLOOR = CEILING (e.g. 1,1) leaves relevance lexical (the embedding only reorders).',
  ].join('\n'),
  async run(args, io) {
    const { flags } = parseArgs(args, {
      switches: ['json', 'halves', ...EMBEDDER_SWITCHES],
      values: ['tools', 'queries', 'calibration', 'max-queries', 'min-relevance', 'pre-activate', ...EMBEDDER_VALUES],
    });
    const files = toolsAndQueries(flags, 'bench turn-economy', io);
    if (!files) return 2;
    const maxQueries = Number(flags.get('max-queries') ?? Infinity);
    const after: Variant = {
      label: AFTER.label,
      toolSearch: {
        ...(flags.has('pre-activate') ? { preActivateTools: Number(flags.get('pre-activate')) } : {}),
        ...(flags.has('min-relevance') ? { minRelevance: Number(flags.get('min-relevance')) } : {}),
      },
    };
    if (Object.keys(after.toolSearch).length) after.label = `after (${JSON.stringify(after.toolSearch)})`;
    const tools = [...readToolCatalog(files.toolsFile, io), ...toolshedOwnTools()];
    const queries = readJsonl<QueryRow>(files.queriesFile, '--queries')
      .filter((q) => q.gold.length > 0)
      .slice(0, maxQueries);
    const engine = await loadSqlEngine({});
    const subsets: Array<[string, (r: TurnRecord) => boolean]> = [['all', () => true]];
    if (flags.has('halves')) subsets.push(['odd', (r) => queryIdParity(r.id) === 'odd'], ['even', (r) => queryIdParity(r.id) === 'even']);
    const rows = [];
    const embedder = turnEmbedder(flags);
    for (const variant of [BEFORE, after]) {
      const records = await measureTurns(engine, tools, queries, variant, embedder);
      for (const [subset, keep] of subsets) rows.push({ subset, variant: variant.label, ...summarizeTurns(records.filter(keep)) });
    }
    reportEndpointFailure(embedder, io);
    if (flags.has('json')) io.stdout(`${JSON.stringify({ rows })}\n`);
    else for (const row of rows) io.stdout(`${JSON.stringify(row)}\n`);
    return 0;
  },
};

/** `--embedder`, with `--calibration FLOOR,CEILING` overriding the bundled model's relevance mapping. */
function turnEmbedder(flags: ParsedArgs['flags']): Embedder | undefined {
  const calibration = flags.get('calibration');
  if (typeof calibration !== 'string') return embedderFromFlags(flags);
  if (flags.get('embedder') !== 'bundled') throw new Error('--calibration needs --embedder bundled');
  const parts = calibration.split(',').map(Number);
  const [floor, ceiling] = parts;
  // Equal values are allowed: the embedding then reorders but never counts as relevance.
  if (parts.length !== 2 || !parts.every(Number.isFinite) || floor > ceiling) {
    throw new Error(`--calibration needs FLOOR,CEILING (two cosines, FLOOR <= CEILING), got "${calibration}"`);
  }
  const embedder = loadBundledEmbedder(undefined, { floor, ceiling });
  if (!embedder) throw new Error('the bundled word vectors (word-vectors.bin) were not found beside the CLI');
  return embedder;
}
