import type { ToolshedSettings } from '../../config/settingsSchema';
import type { CancellationSignal, ChatMessage, ChatModelPort } from '../../platform/chatTypes';
import type { EventSink } from '../../platform/ports';
import type { SkillRequestContext, SkillService } from '../../skills/skillService';
import type { DeferralDecision } from '../../tools/modes/deferralDecision';
import { describeDeferral } from '../../tools/modes/deferralDecision';
import { DefinitionTokenCache, applyModelDeferral } from '../../tools/modes/deferralMeasure';
import type { MeasureInput, MeasureModel } from '../../tools/modes/deferralMeasure';
import type { ToolRun } from '../../tools/toolRun';
import { coreSetFooterLine } from '../../ledger/learnedCoreSet';
import type { CoreSetEntry } from '../../ledger/ledgerStore';
import { runPlanner } from '../plannerLoop';
import type { PlannerOutcome } from '../plannerLoop';
import type { PlannerProgress, PlannerSkills, PlannerToolRun, ToolExecutor } from '../plannerPorts';
import { plannerToolRunFrom } from '../plannerToolRun';
import { createSingleSkillTool, withSingleSkillTool } from '../plannerSingleSkill';
import { responseFooter } from '../responseFooter';
import { modelSkillSummarizer } from '../skillSummarizer';
import type { TurnLedger, TurnLedgerWrite } from '../turnLedger';
import { hiddenFromLoop } from './hiddenFromLoop';
import { explainSkills, explainTools, explainTurn } from './turnExplanation';
import type { SkillsPreflightSeen, TurnExplanation } from './turnExplanation';
import { skillPreflight } from './skillPreflight';

/**
 * One @toolshed turn, assembled in one place: the tools the loop hides, send-or-defer for the
 * request's model, skill pre-flight and the skill tools the tool style offers, the planner loop,
 * the `request_tokens` event, the footer and the ledger's envelope (the learned core set applied
 * before round 1, the turn recorded and the core set learned after it). The extension calls it
 * with its adapters (model, executor, progress, learning hooks, its workspace's ledger); every
 * bench that measures a turn calls it with scripted ones, so the numbers are those of the path
 * users run.
 */

/** What the turn reads of the settings. */
type TurnSettings = Pick<ToolshedSettings, 'skills' | 'toolSearch' | 'learning'>;

/** The skills side of a turn; absent, or `settings.skills.enabled` off, = no skills. */
interface TurnSkills {
  service: SkillService;
  /** The request's skill context (scope, tool gate, trust, frame). */
  context: SkillRequestContext;
  /** Pinned in the Skill Directory or for this conversation (`/skill`). */
  pinnedNames: readonly string[];
  /** The model that chooses active skills (`model` / `hybrid`), asked for only when selection needs one; absent = search order. */
  selectionModel?: () => Promise<{ model: ChatModelPort; modelName?: string }>;
}

/** Hooks the caller wraps around the turn (the extension's learning); each defaults to pass-through. */
interface TurnHooks {
  /** The pre-flight budget when part of `skills.maxTokens` is lent to something else (learned warnings). */
  skillsMaxTokens?: number;
  decorateSkills?(skills: PlannerSkills | undefined): PlannerSkills | undefined;
  wrapExecutor?(executor: ToolExecutor): ToolExecutor;
}

export interface TurnRequest {
  prompt: string;
  /** Earlier turns of this conversation, already flattened to text messages. */
  history: ChatMessage[];
  /** Names the conversation in the `request_tokens` event. */
  sessionId: string;
}

export interface TurnDeps {
  settings: TurnSettings;
  run: ToolRun;
  /** Decides send-or-defer for this run with the request's model (`modelDeferral`, or the extension's ToolModes), never counting `hidden`. */
  decideDeferral(run: ToolRun, hidden: readonly string[]): Promise<DeferralDecision>;
  model: ChatModelPort;
  skills?: TurnSkills;
  executor: ToolExecutor;
  progress: PlannerProgress;
  events: EventSink;
  signal: CancellationSignal;
  /** Restricted Mode: tools are found but never run (the one trust rule). */
  refuseToolRuns: boolean;
  hooks?: TurnHooks;
  /**
   * The ledger the turn is counted in (planner/turnLedger.ts); absent = none. With
   * `toolshed.toolSearch.learnCoreSet` on, its learned core set is activated in the run once
   * send-or-defer is decided (within its budget of this turn's model context; not in Restricted
   * Mode), and the promotion rule runs after the turn is recorded.
   */
  ledger?: TurnLedger;
}

export interface TurnResult {
  outcome: PlannerOutcome;
  /** Tools the learned core set sent from round 1, with why (also said in the footer). */
  coreSet: CoreSetEntry[];
  deferral: DeferralDecision;
  /** The footer to stream under the answer ('' when there is nothing to say). */
  footer: string;
  /** The tools the loop hid in this turn. */
  hidden: string[];
  /** Why each skill and tool was used or left out, from what this turn recorded (Explain Last Turn). */
  explanation: TurnExplanation;
  /** What the ledger kept of this turn (absent without `deps.ledger`). */
  ledger?: TurnLedgerWrite;
}

/** Send-or-defer under `config` (`toolshed.toolSearch`), measured with `model`'s tokenizer (cached per catalog in `cache`). */
export function modelDeferral(config: MeasureInput['config'], model: MeasureModel, cache = new DefinitionTokenCache()): TurnDeps['decideDeferral'] {
  return (run, hidden) => applyModelDeferral(run, config, model, cache, new Set(hidden));
}

export async function runToolshedTurn(request: TurnRequest, deps: TurnDeps): Promise<TurnResult> {
  const { settings, model, hooks = {} } = deps;
  const hidden = hiddenFromLoop(settings.skills);
  const deferral = await deps.decideDeferral(deps.run, hidden);
  const learnCoreSet = settings.toolSearch.learnCoreSet;
  // No tool runs in Restricted Mode, so sending the core set would only cost definitions.
  const coreSet = deps.ledger && learnCoreSet && !deps.refuseToolRuns ? deps.ledger.applyCoreSet(deps.run, deferral.contextWindow) : [];
  let preflight: SkillsPreflightSeen | undefined;
  const { tools, skills: turnSkills } = await turnTools(request.prompt, deps);
  // What pre-flight decided, kept as the turn used it (before the caller's decoration).
  const skills = turnSkills && { ...turnSkills, preflight: async (prompt: string) => (preflight = await turnSkills.preflight(prompt)) };
  const outcome = await runPlanner(
    { prompt: request.prompt, history: request.history },
    {
      model,
      tools,
      skills: hooks.decorateSkills ? hooks.decorateSkills(skills) : skills,
      executor: hooks.wrapExecutor ? hooks.wrapExecutor(deps.executor) : deps.executor,
      progress: deps.progress,
      events: deps.events,
      signal: deps.signal,
    },
    {
      maxRounds: settings.toolSearch.maxRounds,
      discoveryBlocks: true,
      hiddenFromLoop: hidden,
      refuseToolRuns: deps.refuseToolRuns,
      // Tools from skills: deferred tools the injected skills name, activated before round 1.
      maxAutoActivatedTools: settings.learning.autoActivateTools ? settings.learning.maxAutoActivatedTools : 0,
    },
  );
  const tokens = outcome.tokens;
  deps.events.emit({
    type: 'request_tokens',
    payload: {
      session_id: request.sessionId,
      tools_sent: tokens.toolsSent,
      tools_available: tokens.toolsAvailable,
      tool_definition_tokens: tokens.toolDefinitionTokens,
      all_tool_definition_tokens: tokens.allToolDefinitionTokens,
      prompt_block_tokens: tokens.promptBlockTokens,
      injected_skill_tokens: tokens.injectedSkillTokens,
      selection_tokens: tokens.selectionTokens,
      rounds: outcome.rounds.length,
      stopped_because: outcome.stoppedBecause,
    },
  });
  const footer = responseFooter({
    tokens,
    stoppedBecause: outcome.stoppedBecause,
    maxRounds: settings.toolSearch.maxRounds,
    deferral: describeDeferral(deferral),
    embeddingFailure: deps.run.embeddingFailure,
  });
  const coreLine = outcome.stoppedBecause === 'cancelled' ? undefined : coreSetFooterLine(coreSet);
  const explanation = explainTurn(
    request.prompt,
    outcome,
    explainSkills(settings.skills, preflight, {
      pinnedNames: deps.skills?.pinnedNames ?? [],
      workspaceSkills: deps.skills?.context.includeWorkspacePacks ?? true,
    }),
    explainTools(deps.run.lastRequestMatch, {
      preActivateTools: settings.toolSearch.preActivateTools,
      minRelevance: settings.toolSearch.minRelevance,
      restricted: deps.refuseToolRuns,
      deferral: describeDeferral(deferral),
      hidden,
    }),
  );
  // The ledger counts the turn from the same outcome as the footer.
  const ledger = deps.ledger?.finish(outcome, deferral.contextWindow, learnCoreSet);
  return { outcome, deferral, footer: coreLine ? `${footer}\n\n${coreLine}` : footer, hidden, coreSet, explanation, ...(ledger ? { ledger } : {}) };
}

/** The run's tools and the skills port, with the `skill` tool added when the tool style offers it. */
async function turnTools(prompt: string, deps: TurnDeps): Promise<{ tools: PlannerToolRun; skills?: PlannerSkills }> {
  const tools = plannerToolRunFrom(deps.run);
  const turnSkills = deps.skills;
  const config = deps.settings.skills;
  if (!turnSkills || !config.enabled) return { tools };
  const countTokens = (text: string) => deps.model.countTokens(text);
  const chooser = config.selection === 'search' || !turnSkills.selectionModel ? undefined : await turnSkills.selectionModel();
  const discovery = skillPreflight(turnSkills.service, turnSkills.context, config, {
    // Learned warnings (<skill_warnings>) may share the pre-flight budget.
    maxTokens: deps.hooks?.skillsMaxTokens,
    pinnedNames: turnSkills.pinnedNames,
    countTokens,
    summarize: config.summarize ? modelSkillSummarizer(deps.model, deps.signal) : undefined,
    chooser,
    signal: deps.signal,
  });
  // toolStyle single|both: the `skill` tool with this run's listing (see plannerSingleSkill.ts).
  if (config.toolStyle === 'discovery') return { tools, skills: discovery };
  const single = createSingleSkillTool(turnSkills.service, turnSkills.context, {
    maxEntries: config.singleToolMaxEntries,
    maxTokens: config.singleToolMaxTokens,
    prompt,
    pinnedNames: turnSkills.pinnedNames,
    countTokens,
  });
  return withSingleSkillTool(tools, discovery, single, config.toolStyle);
}
