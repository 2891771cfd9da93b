import type { EventSink } from '../platform/ports';
import { TOOL_SEARCH_TOOL_NAME } from '../platform/toolNames';
import type { CancellationSignal, ChatMessage, ChatModelPort, ChatPart, ToolDefinition } from '../platform/chatTypes';
import type { PlannerProgress, PlannerSkills, PlannerToolRun, SkillUse, ToolExecutor } from './plannerPorts';
import { PARTICIPANT_PREAMBLE, joinBlocks } from './promptBlocks';
import { toolRunRefusal } from '../trust/restrictedMode';
import { requestMatchReason } from '../tools/requestMatchRecord';
import type { GatedTool } from '../tools/requestMatch';
import { searchExchangeText, SearchSavingsLedger } from './searchSavings';
import type { SearchSaving } from './searchSavings';

/**
 * The tool-calling loop of the @toolshed participant (the pattern of VS Code's chat sample
 * and Copilot's toolCallingLoop): send → stream text and collect tool calls → run them →
 * feed results back → repeat, with a round cap and cooperative cancellation.
 *
 * What makes it Toolshed's: the tools offered are recomputed every round from the run's
 * visible catalog, so a tool found by `tool_search` in round N is offered in round N+1; a call
 * to anything not offered goes through `resolveCall`, which activates it or answers with the
 * same no-leak error for denied, hidden and unknown names.
 */

export interface PlannerRequest {
  prompt: string;
  /** Earlier turns of this conversation, already flattened to text messages. */
  history: ChatMessage[];
}

export interface PlannerDeps {
  model: ChatModelPort;
  tools: PlannerToolRun;
  skills?: PlannerSkills;
  executor: ToolExecutor;
  progress: PlannerProgress;
  events: EventSink;
  signal: CancellationSignal;
}

export interface PlannerOptions {
  maxRounds: number;
  /** Add the `<tool_discovery>` / `<skill_discovery>` guidance blocks. */
  discoveryBlocks: boolean;
  /** Tool names never offered to this loop (e.g. `tool_invoke`, which is for agent mode). */
  hiddenFromLoop?: readonly string[];
  /** Restricted Mode: tools are found but never run (the same rule and answer as agent mode's tool_invoke). */
  refuseToolRuns?: boolean;
  /**
   * `toolshed.learning.autoActivateTools` on: at most this many deferred tools the injected
   * skills name are activated before the first round (0 or absent = off).
   */
  maxAutoActivatedTools?: number;
}

export interface RoundRecord {
  /** Tool names offered to the model in this round, in order. */
  toolsSent: string[];
  toolCalls: Array<{ name: string; outcome: 'ok' | 'error' | 'activated' | 'denied' }>;
}

export interface TokenReport {
  /** Tokens of the prompt blocks (preamble, discovery, directory, injected skills). */
  promptBlockTokens: number;
  /** Tokens of the tool definitions sent, summed over every round the model was asked. */
  toolDefinitionTokens: number;
  /** Tokens that sending every usable tool in each of those rounds would have cost instead. */
  allToolDefinitionTokens: number;
  /** Tokens of injected skills (part of promptBlockTokens). */
  injectedSkillTokens: number;
  /** Tokens of the active-skill selection call to the model (prompt + answer; 0 when not asked). */
  selectionTokens: number;
  /** The model that chose the active skills (when one was asked and its name is known). */
  selectionModel?: string;
  /** Tool definitions sent, summed over every round (a tool sent in 3 rounds counts 3 times). */
  toolsSent: number;
  /** Tools the run may use (what one round would send without deferral). */
  toolsAvailable: number;
  /** Per round, in order: how many tool definitions were sent and what they cost. */
  perRound: Array<{ tools: number; tokens: number }>;
  /** Model requests made to choose the active skills before the first round (0 or 1). */
  selectionRequests?: number;
  /** Deferred tools activated before the first round because they matched the request, with their relevance. */
  requestMatchedTools?: Array<{ name: string; relevance: number; matchedTerms?: string[] }>;
  /** Deferred tools activated before the first round because an injected skill names them. */
  preActivatedTools?: string[];
  /** What pre-activation measurably saved (see searchSavings.ts); absent when nothing. */
  searchSaving?: SearchSaving;
}

export interface PlannerOutcome {
  text: string;
  rounds: RoundRecord[];
  stoppedBecause: 'done' | 'maxRounds' | 'cancelled';
  usedSkills: SkillUse[];
  tokens: TokenReport;
}

export async function runPlanner(request: PlannerRequest, deps: PlannerDeps, options: PlannerOptions): Promise<PlannerOutcome> {
  const { model, tools, skills, progress, signal } = deps;
  const hidden = new Set(options.hiddenFromLoop ?? []);
  const usedSkills = new Map<string, SkillUse>();
  const noteSkills = (list: SkillUse[]) => {
    for (const skill of list) {
      if (usedSkills.has(skill.name)) continue;
      usedSkills.set(skill.name, skill);
      progress.progress(`Using skill \`${skill.name}\`${skill.reason ? ` (${skill.reason})` : ''}`);
      progress.reference(skill);
    }
  };

  // One embedding of the request (an endpoint embedder) serves every search of the turn.
  await tools.prepareTurn?.(request.prompt);
  // Pre-flight: skills and discovery guidance, before the first round.
  const preflight = skills ? await skills.preflight(request.prompt) : { pinnedBlock: '', relevantBlock: '', used: [], omitted: [] };
  noteSkills(preflight.used);
  if (preflight.omitted.length) {
    progress.progress(
      `Skills left out to stay within the pre-flight budget (toolshed.skills.maxTokens): ${preflight.omitted.map((name) => `\`${name}\``).join(', ')}`,
    );
  }
  if (preflight.note) progress.progress(preflight.note);
  // In Restricted Mode no tool runs, so nothing is activated before the model asks — neither
  // tools a skill names nor tools matching the request: it would only send their definitions.
  const preActivated = await preActivateSuggested(
    preflight.suggestedTools ?? [],
    deps,
    hidden,
    options.refuseToolRuns ? 0 : (options.maxAutoActivatedTools ?? 0),
  );
  const matched = options.refuseToolRuns ? [] : await activateMatching(request.prompt, deps);
  const ledger = new SearchSavingsLedger([...preActivated, ...matched.map((tool) => tool.name)]);
  const directory = skills ? await skills.directory() : '';
  const instructions = joinBlocks([
    PARTICIPANT_PREAMBLE,
    ...(options.discoveryBlocks ? tools.promptBlocks() : []),
    ...(options.discoveryBlocks && skills ? skills.promptBlocks() : []),
    directory,
    preflight.pinnedBlock,
    preflight.relevantBlock,
  ]);

  const messages: ChatMessage[] = [
    { role: 'user', parts: [{ kind: 'text', text: instructions }] },
    ...request.history,
    { role: 'user', parts: [{ kind: 'text', text: request.prompt }] },
  ];

  const offered = async (): Promise<ToolDefinition[]> => (await tools.visibleDefinitions()).filter((definition) => !hidden.has(definition.name));

  const allTools = (await tools.allDefinitions()).filter((definition) => !hidden.has(definition.name));
  const allToolsTokens = await model.countTokens(serializeDefinitions(allTools));
  // Every round resends its tool definitions, so the saving is summed per round sent.
  const tokens: TokenReport = {
    promptBlockTokens: await model.countTokens(instructions),
    toolDefinitionTokens: 0,
    allToolDefinitionTokens: 0,
    injectedSkillTokens: await model.countTokens(joinBlocks([preflight.pinnedBlock, preflight.relevantBlock])),
    selectionTokens: preflight.selectionTokens ?? 0,
    ...(preflight.selectionModel ? { selectionModel: preflight.selectionModel } : {}),
    // A selection prompt is never empty, so tokens spent mean the model was asked.
    selectionRequests: preflight.selectionRequests ?? ((preflight.selectionTokens ?? 0) > 0 ? 1 : 0),
    toolsSent: 0,
    toolsAvailable: allTools.length,
    perRound: [],
    ...(preActivated.length ? { preActivatedTools: preActivated } : {}),
    ...(matched.length ? { requestMatchedTools: matched } : {}),
  };
  const countRound = async (definitions: ToolDefinition[]) => {
    const roundTokens = await model.countTokens(serializeDefinitions(definitions));
    tokens.perRound.push({ tools: definitions.length, tokens: roundTokens });
    tokens.toolsSent += definitions.length;
    tokens.toolDefinitionTokens += roundTokens;
    tokens.allToolDefinitionTokens += allToolsTokens;
  };
  const measureSaving = async () => {
    const saved = ledger.savedTools();
    const exchange = saved.length && tools.selectionExchange ? await tools.selectionExchange(saved) : undefined;
    if (exchange) tokens.searchSaving = { tools: saved, tokens: await model.countTokens(searchExchangeText(exchange.query, exchange.resultText)) };
  };

  const rounds: RoundRecord[] = [];
  let text = '';
  for (let round = 0; round < options.maxRounds; round++) {
    if (signal.isCancelled) return { text, rounds, stoppedBecause: 'cancelled', usedSkills: [...usedSkills.values()], tokens };
    const definitions = await offered();
    const record: RoundRecord = { toolsSent: definitions.map((d) => d.name), toolCalls: [] };
    rounds.push(record);
    await countRound(definitions);

    const calls: Array<Extract<ChatPart, { kind: 'toolCall' }>> = [];
    let roundText = '';
    for await (const part of model.send(messages, definitions, signal)) {
      if (signal.isCancelled) break;
      if (part.kind === 'text') {
        roundText += part.text;
        progress.markdown(part.text);
      } else if (part.kind === 'toolCall') {
        calls.push(part);
      }
    }
    text += roundText;
    if (signal.isCancelled) return { text, rounds, stoppedBecause: 'cancelled', usedSkills: [...usedSkills.values()], tokens };
    if (calls.length === 0) {
      await measureSaving();
      return { text, rounds, stoppedBecause: 'done', usedSkills: [...usedSkills.values()], tokens };
    }

    const assistantParts: ChatPart[] = roundText ? [{ kind: 'text', text: roundText }] : [];
    assistantParts.push(...calls);
    messages.push({ role: 'assistant', parts: assistantParts });

    const results: ChatPart[] = [];
    for (const call of calls) {
      if (signal.isCancelled) break;
      const offeredNames = new Set(record.toolsSent);
      const result = await runOneCall(call, offeredNames, deps, hidden, noteSkills, options.refuseToolRuns === true);
      record.toolCalls.push({ name: call.name, outcome: result.outcome });
      if (result.found) ledger.searched(result.found);
      else ledger.called(call.name);
      results.push({ kind: 'toolResult', callId: call.callId, text: result.text, isError: result.outcome === 'error' || result.outcome === 'denied' });
    }
    messages.push({ role: 'user', parts: results });
  }
  await measureSaving();
  return { text, rounds, stoppedBecause: 'maxRounds', usedSkills: [...usedSkills.values()], tokens };
}

/**
 * Tools from skills (docs/skills.md#tools-from-skills): reports what the injected skills suggest and, when enabled,
 * activates up to `max` of them (deferred ones this run may use) so round 1 already offers them.
 */
async function preActivateSuggested(suggested: readonly string[], deps: PlannerDeps, hidden: ReadonlySet<string>, max: number): Promise<string[]> {
  const candidates = suggested.filter((name) => !hidden.has(name));
  if (candidates.length === 0) return [];
  const activated = max > 0 && deps.tools.preActivate ? await deps.tools.preActivate(candidates, max, 'named by a skill in this request') : [];
  for (const name of activated) deps.progress.progress(`Activated \`${name}\` (named by a skill)`);
  deps.events.emit({ type: 'skills_suggested_tools', payload: { tool_names: candidates, activated_count: activated.length } });
  return activated;
}

/**
 * Tools before the model asks: the deferred tools whose absolute relevance to the request passes
 * the gate are activated (the run decides how many, under policy and visibility) and shown.
 */
async function activateMatching(prompt: string, deps: PlannerDeps): Promise<GatedTool[]> {
  const matched = deps.tools.activateForRequest ? await deps.tools.activateForRequest(prompt) : [];
  for (const tool of matched) deps.progress.progress(`Activated \`${tool.name}\` (${requestMatchReason(tool)})`);
  if (matched.length)
    deps.events.emit({
      type: 'tools_matched_request',
      payload: { tool_names: matched.map((tool) => tool.name), relevances: matched.map((tool) => tool.relevance) },
    });
  return matched;
}

async function runOneCall(
  call: { callId: string; name: string; input: unknown },
  offeredNames: Set<string>,
  deps: PlannerDeps,
  hidden: Set<string>,
  noteSkills: (list: SkillUse[]) => void,
  refuseToolRuns: boolean,
): Promise<{ text: string; outcome: RoundRecord['toolCalls'][number]['outcome']; found?: string[] }> {
  const { tools, skills, executor, progress, signal } = deps;
  if (call.name === TOOL_SEARCH_TOOL_NAME && offeredNames.has(TOOL_SEARCH_TOOL_NAME)) {
    const query = typeof (call.input as { query?: unknown })?.query === 'string' ? (call.input as { query: string }).query : '';
    progress.progress(`Searching tools for "${query}"`);
    const outcome = await tools.search(call.input);
    for (const name of outcome.activated) progress.progress(`Activated \`${name}\``);
    return { text: outcome.resultText, outcome: 'ok', found: outcome.found };
  }
  if (skills && skills.handles(call.name) && offeredNames.has(call.name)) {
    progress.progress(`Looking up skills (${call.name})`);
    const outcome = await skills.handle(call.name, call.input);
    noteSkills(outcome.used);
    return { text: outcome.resultText, outcome: 'ok' };
  }
  // Anything else must be resolvable in this run; hidden-from-loop names are answered like
  // unknown ones so the loop never reveals them either.
  if (hidden.has(call.name)) return { text: tools.unknownToolMessage(call.name), outcome: 'denied' };
  const resolution = await tools.resolveCall(call.name);
  if (!resolution.ok) return { text: resolution.message, outcome: 'denied' };
  if (refuseToolRuns) {
    progress.progress(`Not running \`${call.name}\`: Restricted Mode`);
    return { text: toolRunRefusal(call.name), outcome: 'denied' };
  }
  if (resolution.activated) progress.progress(`Activated \`${call.name}\``);
  progress.progress(`Running \`${call.name}\``);
  try {
    const result = await executor.invoke(call.name, call.input, signal);
    tools.recordCall(call.name, !result.isError);
    return { text: result.text, outcome: result.isError ? 'error' : resolution.activated ? 'activated' : 'ok' };
  } catch (error) {
    tools.recordCall(call.name, false);
    return { text: `Tool "${call.name}" failed: ${error instanceof Error ? error.message : String(error)}`, outcome: 'error' };
  }
}

/** Tool definitions as the model sees them, for token counting. */
export function serializeDefinitions(definitions: ToolDefinition[]): string {
  return definitions.map((d) => JSON.stringify({ name: d.name, description: d.description, parameters: d.inputSchema ?? {} })).join('\n');
}
