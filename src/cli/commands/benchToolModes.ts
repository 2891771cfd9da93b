import { openTag } from '../../core/privacy/promptBlocks';
import { TOOL_SEARCH_TOOL_NAME } from '../../core/platform/toolNames';
import type { CliCommand } from '../cliCommand';
import { readJsonl, readToolCatalog } from './cliInput';
import { loadSqlEngine } from '../../core/sql/sqlEngine';
import { MemoryByteStore } from '../../core/platform/memoryByteStore';
import { modelDeferral, runToolshedTurn } from '../../core/planner/turn/toolshedTurn';
import type { ChatMessage, ChatModelPort, ChatPart, ToolDefinition } from '../../core/platform/chatTypes';
import { serializeDefinitions } from '../../core/planner/plannerLoop';
import { DefinitionTokenCache } from '../../core/tools/modes/deferralMeasure';
import { createToolSearchService } from '../../core/tools/toolSearchService';
import { defaultSettings } from '../../core/config/settingsSchema';
import type { ToolSearchMode, DeferredNamesListing } from '../../core/config/settingsSchema';
import { parseArgs, toolshedOwnTools, toolsAndQueries } from './toolCliSupport';
import { toolSearchRequestText } from './requestText';

interface QueryRow {
  query: string;
  gold: string[];
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const countTokens = async (text: string) => Math.ceil(text.length / 4);

/**
 * A scripted model with perfect judgement, so the numbers isolate what the prompt offers:
 * it calls the gold tool at once when it is offered or named in <available_deferred_tools>
 * (a deferred tool called by name is activated on first use), else it searches with the
 * user's words and calls the gold tool if the results show it, else gives up.
 */
function oracleModel(gold: string, query: string, onSend: (messages: ChatMessage[], tools: ToolDefinition[]) => void): ChatModelPort {
  return {
    async *send(messages: ChatMessage[], tools): AsyncIterable<ChatPart> {
      onSend(messages, tools);
      const texts = messages.flatMap((m) => m.parts.map((p) => (p.kind === 'text' || p.kind === 'toolResult' ? p.text : '')));
      const called = messages.some((m) => m.parts.some((p) => p.kind === 'toolCall' && p.name === gold));
      const searched = messages.some((m) => m.parts.some((p) => p.kind === 'toolCall' && p.name === TOOL_SEARCH_TOOL_NAME));
      if (called) {
        yield { kind: 'text', text: 'done' };
        return;
      }
      const named = tools.some((t) => t.name === gold) || (texts[0] ?? '').split(openTag('available_deferred_tools'))[1]?.includes(gold);
      if (named || (searched && texts.some((t) => t.includes(`"name":"${gold}"`)))) {
        yield { kind: 'toolCall', callId: 'c-gold', name: gold, input: {} };
        return;
      }
      if (!searched) {
        yield { kind: 'toolCall', callId: 'c-search', name: TOOL_SEARCH_TOOL_NAME, input: { query: toolSearchRequestText.text(query) } };
        return;
      }
      yield { kind: 'text', text: 'not found' };
    },
    countTokens,
  };
}

export const benchToolModesCommand: CliCommand = {
  path: ['bench', 'tool-modes'],
  summary: 'Prompt tokens and rounds per request in each tool search mode (scripted model)',
  usage: [
    'Usage: toolshed bench tool-modes --tools FILE.jsonl --queries FILE.jsonl [--max-queries N] [--context TOKENS] [--json]',
    '',
    'Runs the @toolshed turn (the same function the extension calls) with a scripted model over each query, for mode off / always / auto',
    'and for <available_deferred_tools> off / names / namesAndServers. Tokens: 4 characters a token.',
    '--json prints {rows: [{mode, names, tools_sent, prompt_tokens_per_request, names_block_tokens, rounds, found, request_text, requests_cut}]}:',
    "  the turn gets each whole request; request_text says how the scripted model's tool_search query is cut.",
  ].join('\n'),
  async run(args, io) {
    const { flags } = parseArgs(args, { switches: ['json'], values: ['tools', 'queries', 'context', 'max-queries'] });
    const files = toolsAndQueries(flags, 'bench tool-modes', io);
    if (!files) return 2;
    const { toolsFile, queriesFile } = files;
    const maxQueries = Number(flags.get('max-queries') ?? 100);
    const contextWindow = Number(flags.get('context') ?? 128_000);
    const tools = [...readToolCatalog(toolsFile, io), ...toolshedOwnTools()];
    const queries = readJsonl<QueryRow>(queriesFile, '--queries')
      .filter((q) => q.gold.length > 0)
      .slice(0, maxQueries);
    const engine = await loadSqlEngine({});
    const rows: Array<Record<string, unknown>> = [];
    const variants: Array<[ToolSearchMode, DeferredNamesListing]> = [
      ['off', 'off'],
      ['always', 'off'],
      ['always', 'names'],
      ['always', 'namesAndServers'],
      ['auto', 'names'],
    ];
    for (const [mode, listing] of variants) {
      const service = await createToolSearchService({
        engine,
        store: new MemoryByteStore(),
        config: { toolSearch: { mode, listDeferredNames: listing, learnFromUse: false } },
        saveDelayMs: 60_000,
      });
      service.setTools(tools);
      const settings = { ...defaultSettings(), toolSearch: service.config.toolSearch };
      const deferral = modelDeferral(service.config.toolSearch, { id: 'bench', maxInputTokens: contextWindow, countTokens }, new DefinitionTokenCache());
      let promptTokens = 0;
      let sent = 0;
      let rounds = 0;
      let found = 0;
      let namesTokens = 0;
      for (const q of queries) {
        const run = await service.startRun();
        try {
          const gold = q.gold[0]!;
          let executed = false;
          // What the prompt costs over the whole request: instructions + the tools offered, every round.
          const onSend = (messages: ChatMessage[], offered: ToolDefinition[]) => {
            const instructions = messages[0]?.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('') ?? '';
            promptTokens += Math.ceil(instructions.length / 4) + Math.ceil(serializeDefinitions(offered).length / 4);
          };
          const { outcome } = await runToolshedTurn(
            { prompt: q.query, history: [], sessionId: 'bench' },
            {
              settings,
              run,
              decideDeferral: async (toolRun, hidden) => {
                const decision = await deferral(toolRun, hidden);
                const names = toolRun.promptBlocks().find((b) => b.startsWith(openTag('available_deferred_tools'))) ?? '';
                namesTokens += await countTokens(names);
                return decision;
              },
              model: oracleModel(gold, q.query, onSend),
              executor: {
                invoke: async (name) => {
                  if (name === gold) executed = true;
                  return { text: 'ok' };
                },
              },
              progress: { progress: () => undefined, markdown: () => undefined, reference: () => undefined },
              events: { emit: () => undefined },
              signal: { isCancelled: false },
              refuseToolRuns: false,
            },
          );
          sent += outcome.tokens.toolsSent;
          rounds += outcome.rounds.length;
          if (executed) found++;
        } finally {
          run.end();
        }
      }
      const n = Math.max(queries.length, 1);
      rows.push({
        mode,
        names: listing,
        tools: tools.length,
        queries: queries.length,
        tools_sent: round(sent / n),
        prompt_tokens_per_request: round(promptTokens / n, 0),
        names_block_tokens: round(namesTokens / n, 0),
        rounds: round(rounds / n, 2),
        found: round(found / n, 3),
        // The turn takes the whole request; only the scripted model's tool_search query is cut.
        ...toolSearchRequestText.describe(queries.map((q) => q.query)),
      });
      await service.dispose();
    }
    if (flags.has('json')) io.stdout(`${JSON.stringify({ rows })}\n`);
    else for (const row of rows) io.stdout(`${JSON.stringify(row)}\n`);
    return 0;
  },
};
