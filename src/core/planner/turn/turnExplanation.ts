import type { SkillsConfig } from '../../config/settingsSchema';
import { redact } from '../../privacy/redaction';
import { SKILL_RELATIVE_CUT } from '../../skills/relevantSkills';
import type { GateVerdict } from '../../search/gateVerdict';
import type { GatedTool } from '../../tools/requestMatch';
import type { RequestMatchRecord } from '../../tools/requestMatchRecord';
import type { PlannerOutcome } from '../plannerLoop';
import type { SkillPreflightRecord, SkillUse } from '../plannerPorts';

/**
 * Explain Last Turn: why a turn used (or left out) each skill and tool. Built from what the turn
 * recorded while it ran — the relevance each candidate had, the gates in force, the model's
 * choice, what each round sent — never from a second search, so it explains the turn the user
 * saw. Plain data: the extension keeps it per chat session in memory and renders it for `/why`
 * and the command; the CLI renders the same parts for `preflight … --explain`. The request is
 * redacted; names are those the turn showed (gated, never a denied tool).
 */

interface SkillCandidateExplanation {
  name: string;
  relevance?: number;
  injected: boolean;
  /** Why, in words: "injected (best match)", "below toolshed.skills.minRelevance 0.3", … */
  decision: string;
}

export interface SkillsExplanation {
  enabled: boolean;
  selection: SkillsConfig['selection'];
  minRelevance: number;
  /** Share of the best candidate's relevance a candidate also needs (0 when the gate is off). */
  relativeCut: number;
  askModelBelowRelevance: number;
  maxActive: number;
  /** False in Restricted Mode: skills from workspace packs are neither searched nor injected. */
  workspaceSkills: boolean;
  candidates: SkillCandidateExplanation[];
  pinned: Array<{ name: string; decision: string }>;
  /** Whether a model was asked to choose (model / hybrid), which one, what it chose, or why its answer was not used. */
  model?: SkillPreflightRecord['model'];
  /** What pre-flight told the user (a fallback, a model that would have been asked). */
  note?: string;
}

export interface ToolCandidateExplanation extends GatedTool {
  activated: boolean;
  decision: string;
}

export interface ToolsExplanation {
  preActivateTools: number;
  minRelevance: number;
  relativeCut: number;
  candidates: ToolCandidateExplanation[];
  /** Restricted Mode: no tool runs, so none was pre-activated. */
  restricted: boolean;
  /** Tools activated before round 1 because an injected skill names them. */
  fromSkills: string[];
  /** Send-or-defer for this model ("212 tools, 31k tokens = 24 % of 128k: deferred (auto, over 10 %)"). */
  deferral?: string;
  /** Toolshed's own tools the loop hid. */
  hidden: string[];
}

interface RoundExplanation {
  toolsSent: string[];
  definitionTokens: number;
  calls: Array<{ name: string; outcome: string }>;
}

export interface TurnExplanation {
  /** The request, redacted and cut to 300 characters. */
  request: string;
  skills: SkillsExplanation;
  tools: ToolsExplanation;
  rounds: RoundExplanation[];
  tokens: { promptBlocks: number; injectedSkills: number; selection: number; toolDefinitions: number; allToolDefinitions: number };
  stoppedBecause: PlannerOutcome['stoppedBecause'];
}

const fixed = (value: number) => value.toFixed(2);

/**
 * A gate's verdict on a candidate that did not pass, in words, with the numbers the gate compared
 * (undefined for one that passed): the gate decided, this only says it. `settings` names the
 * gate's settings; `configured` is the minimum the setting holds (a long request's sentences are
 * held to a stricter one).
 */
function verdictText(verdict: GateVerdict, settings: { minRelevance: string; cap: string; configured: number }): string | undefined {
  if (verdict.passed) return undefined;
  switch (verdict.rule) {
    case 'stuffed':
      return `not used: ${verdict.reason}`;
    case 'minRelevance':
      return verdict.minimum > settings.configured
        ? `below ${fixed(verdict.minimum)}, the minimum for one sentence of a long request (${fixed(verdict.relevance)})`
        : `below ${settings.minRelevance} ${fixed(verdict.minimum)}`;
    case 'words':
      return `shares ${verdict.shared} of the request's words (${verdict.inName ? 'one' : 'none'} in its name): needs 2, one of them in its name, or 3`;
    case 'relativeCut':
      return `below the relative cut (${verdict.cut} × best ${fixed(verdict.best)} = ${fixed(verdict.cut * verdict.best)})`;
    case 'cap':
      return `over the cap (passed as number ${verdict.position}; ${settings.cap} ${verdict.max})`;
  }
}

export interface SkillsPreflightSeen {
  used: readonly SkillUse[];
  omitted: readonly string[];
  note?: string;
  record?: SkillPreflightRecord;
}

/** Skill pre-flight as the turn ran it: each candidate with its relevance and what became of it. */
export function explainSkills(
  config: SkillsConfig,
  seen: SkillsPreflightSeen | undefined,
  context: { pinnedNames: readonly string[]; workspaceSkills: boolean },
): SkillsExplanation {
  const relativeCut = config.minRelevance > 0 ? SKILL_RELATIVE_CUT : 0;
  const base = {
    enabled: config.enabled,
    selection: config.selection,
    minRelevance: config.minRelevance,
    relativeCut,
    askModelBelowRelevance: config.askModelBelowRelevance,
    maxActive: config.maxActive,
    workspaceSkills: context.workspaceSkills,
  };
  if (!config.enabled || !seen) return { ...base, candidates: [], pinned: [] };
  const used = new Map(seen.used.map((use) => [use.name, use]));
  const omitted = new Set(seen.omitted);
  const record = seen.record;
  const ranked = record?.ranked ?? [];
  const offeredOrder = record?.offered ?? [];
  const offered = new Set(offeredOrder);
  const model = record?.model;
  const settings = { minRelevance: 'toolshed.skills.minRelevance', cap: 'toolshed.skills.maxActive', configured: config.minRelevance };
  const decide = ({ name, relevance, verdict, corroborated }: SkillPreflightRecord['ranked'][number]): { injected: boolean; decision: string } => {
    const use = used.get(name);
    if (use) return { injected: true, decision: `injected (${use.reason ?? 'fetched'})` };
    // The gate's own verdict, when it left the skill out.
    const miss = verdict && verdictText(verdict, settings);
    if (miss) return { injected: false, decision: miss };
    if (omitted.has(name)) return { injected: false, decision: 'left out to stay within the budget (toolshed.skills.maxTokens)' };
    if (record?.offered && !offered.has(name)) return { injected: false, decision: 'not among the candidates the choice was made from' };
    if (model?.asked && !model.fallback) return { injected: false, decision: 'not chosen by the model' };
    if (model?.wouldAsk && relevance !== undefined && relevance < config.askModelBelowRelevance)
      return {
        injected: false,
        decision: `needed a model's confirmation (below toolshed.skills.askModelBelowRelevance ${fixed(config.askModelBelowRelevance)})`,
      };
    if (model?.wouldAsk && corroborated === false && config.askModelBelowRelevance > 0)
      return { injected: false, decision: "needed a model's confirmation (its name and description share too few of the request's words)" };
    const position = offeredOrder.indexOf(name);
    if (position >= config.maxActive)
      return { injected: false, decision: `over the cap (candidate number ${position + 1}; toolshed.skills.maxActive ${config.maxActive})` };
    return { injected: false, decision: 'passed the gate, but was not loaded' };
  };
  const candidates = ranked.map((r) => ({ name: r.name, ...(r.relevance === undefined ? {} : { relevance: r.relevance }), ...decide(r) }));
  const listed = new Set(candidates.map((c) => c.name));
  // Injected without being a search candidate of their own: cluster siblings, skill_get, the `skill` tool.
  for (const use of seen.used)
    if (!listed.has(use.name) && use.reason !== 'pinned')
      candidates.push({
        name: use.name,
        ...(use.relevance === undefined ? {} : { relevance: use.relevance }),
        injected: true,
        decision: `injected (${use.reason ?? 'fetched by the model'})`,
      });
  const pinned = context.pinnedNames.map((name) => ({
    name,
    decision:
      used.get(name)?.reason === 'pinned'
        ? 'injected (pinned)'
        : omitted.has(name)
          ? 'pinned, left out to stay within the budget'
          : 'pinned, but not available here',
  }));
  return { ...base, candidates, pinned, ...(model ? { model } : {}), ...(seen.note ? { note: seen.note } : {}) };
}

/** Tool pre-activation as the run decided it: each candidate with its relevance and what became of it. */
export function explainTools(
  match: RequestMatchRecord | undefined,
  context: {
    preActivateTools: number;
    minRelevance: number;
    restricted: boolean;
    fromSkills?: readonly string[];
    deferral?: string;
    hidden?: readonly string[];
  },
): ToolsExplanation {
  const relativeCut = match?.relativeCut ?? 0;
  const minRelevance = match?.minRelevance ?? context.minRelevance;
  const activated = new Set(match?.activated ?? []);
  const settings = { minRelevance: 'toolshed.toolSearch.minRelevance', cap: 'toolshed.toolSearch.preActivateTools', configured: context.minRelevance };
  // Each candidate as the gate judged it (requestMatch.ts): its verdict, never a second guess.
  const candidates = (match?.candidates ?? []).map(({ verdict, ...candidate }): ToolCandidateExplanation => {
    const decision = activated.has(candidate.name)
      ? 'activated before round 1'
      : verdict.passed
        ? 'passed, already sent in this request'
        : (verdictText(verdict, settings) ?? 'not activated');
    return { ...candidate, activated: activated.has(candidate.name), decision };
  });
  return {
    preActivateTools: match?.max ?? context.preActivateTools,
    minRelevance,
    relativeCut,
    candidates,
    restricted: context.restricted,
    fromSkills: [...(context.fromSkills ?? [])],
    ...(context.deferral ? { deferral: context.deferral } : {}),
    hidden: [...(context.hidden ?? [])],
  };
}

/** The whole turn: skills, tools, and what each round sent. */
export function explainTurn(request: string, outcome: PlannerOutcome, skills: SkillsExplanation, tools: Omit<ToolsExplanation, 'fromSkills'>): TurnExplanation {
  const tokens = outcome.tokens;
  return {
    request: redact(request).slice(0, 300),
    skills,
    tools: { ...tools, fromSkills: tokens.preActivatedTools ?? [] },
    rounds: outcome.rounds.map((round, i) => ({
      toolsSent: round.toolsSent,
      definitionTokens: tokens.perRound[i]?.tokens ?? 0,
      calls: round.toolCalls.map((call) => ({ name: call.name, outcome: call.outcome })),
    })),
    tokens: {
      promptBlocks: tokens.promptBlockTokens,
      injectedSkills: tokens.injectedSkillTokens,
      selection: tokens.selectionTokens,
      toolDefinitions: tokens.toolDefinitionTokens,
      allToolDefinitions: tokens.allToolDefinitionTokens,
    },
    stoppedBecause: outcome.stoppedBecause,
  };
}
