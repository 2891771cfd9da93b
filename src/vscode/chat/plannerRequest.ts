import * as vscode from 'vscode';
import { SKILL_DISCOVERY_TOOL_NAMES, SKILL_TOOL_NAME, TOOL_INVOKE_TOOL_NAME } from '../../core/platform/toolNames';
import { runPlanner } from '../../core/planner/plannerLoop';
import { plannerSkillsFrom } from '../../core/planner/plannerSkills';
import { preflightOptionsFrom } from '../../core/planner/preflightOptions';
import { modelSkillSummarizer } from '../../core/planner/skillSummarizer';
import { createSingleSkillTool, skillToolsHiddenFromLoop, withSingleSkillTool } from '../../core/planner/plannerSingleSkill';
import { plannerToolRunFrom } from '../../core/planner/plannerToolRun';
import { responseFooter } from '../../core/planner/responseFooter';
import { describeDeferral } from '../../core/tools/modes/deferralDecision';
import type { ToolshedServices } from '../services';
import type { ToolshedSettings } from '../../core/config/settingsSchema';
import { createLanguageModelAdapter, signalOf } from './languageModelAdapter';
import { createResponseProgress } from './responseProgress';
import { chooseRequestModel, chooseSelectionModel } from './requestModel';
import type { TurnSession } from './turnSession';
import { createLmToolExecutor } from './toolExecutor';
import type { ToolshedTurnMetadata } from './sessionMetadata';
import { historyMessages } from './sessionMetadata';
import { startLearningTurn } from './learningTurn';
import { offerAnswerRating } from './learningChat';

/**
 * Toolshed's own tools the @toolshed loop never offers: tool_invoke exists for agent mode (here
 * deferred tools are called directly), the skill tools the tool style leaves out, and with
 * skills turned off every skill tool.
 * `/tools` uses the same list, so it shows exactly what the model receives.
 */
export function hiddenFromLoop(settings: ToolshedSettings): string[] {
  // The tool style decides between skill_search/skill_get/skill_list and the single `skill` tool.
  const skillTools = settings.skills.enabled ? skillToolsHiddenFromLoop(settings.skills.toolStyle) : [...SKILL_DISCOVERY_TOOL_NAMES, SKILL_TOOL_NAME];
  return [TOOL_INVOKE_TOOL_NAME, ...skillTools];
}

/** The model (and its name, for the footer) that chooses the active skills. */
async function selectionModelFor(requestModel: vscode.LanguageModelChat, settings: ToolshedSettings, token: vscode.CancellationToken) {
  const chooser = await chooseSelectionModel(requestModel, settings.skills.selectionModel);
  return { model: createLanguageModelAdapter(chooser, token), modelName: chooser.name };
}

/** What a planner request uses: the tool catalog and modes, skills and their context, scripts, learning, activity, events. */
export type PlannerRequestServices = Pick<
  ToolshedServices,
  | 'settings'
  | 'syncToolCatalog'
  | 'toolCatalogSettling'
  | 'skillPacks'
  | 'toolExamples'
  | 'skillScripts'
  | 'scriptRuns'
  | 'toolModes'
  | 'learning'
  | 'pinned'
  | 'skillContext'
  | 'skills'
  | 'activity'
  | 'events'
  | 'ledger'
>;

/**
 * One @toolshed request without a slash command: pre-flight skills, then the planner loop over
 * the model the user picked, with deferred tools found and activated as it goes.
 */
export async function handlePlannerRequest(
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  services: PlannerRequestServices,
  session: TurnSession,
): Promise<vscode.ChatResult> {
  const settings = services.settings.current;
  const progress = createResponseProgress(stream);
  // One fresh read per request (the poll may be up to a second behind): right after start-up MCP
  // servers are still publishing tools; say so while waiting for them.
  services.syncToolCatalog({ fresh: true });
  if (services.toolCatalogSettling.isSettling) {
    progress.progress('Starting MCP servers…');
    await services.toolCatalogSettling.settle(5000, token);
  }
  await Promise.all([services.skillPacks.ready, services.toolExamples.ready]);
  await services.skillScripts.ready;
  services.syncToolCatalog();

  const chosen = await chooseRequestModel(request.model as vscode.LanguageModelChat | undefined);
  if (!chosen.model) {
    progress.markdown(chosen.answer);
    return { metadata: { toolshed: session.metadataBase() } };
  }
  if (chosen.note) progress.markdown(chosen.note);

  const run = await session.startRun();
  try {
    const model = createLanguageModelAdapter(chosen.model, token);
    const hidden = hiddenFromLoop(settings);
    const deferral = await services.toolModes.decide(run, chosen.model, token, hidden);
    const executor = createLmToolExecutor(request.toolInvocationToken, token);
    const learning = await startLearningTurn(services.learning, {
      prompt: request.prompt,
      command: request.command,
      sessionId: session.sessionId,
      maxTokens: settings.skills.maxTokens,
      model,
      languageModel: chosen.model,
    });
    const pinnedNames = [...new Set([...services.pinned.names(), ...session.pinnedSkills])];
    // The frame (the chat command) lifts skills of the same frame or domain (effectiveness rules).
    const skillContext = { ...services.skillContext(run, session.pinnedSkills), frame: request.command };
    const discoverySkills = settings.skills.enabled
      ? plannerSkillsFrom(
          services.skills,
          skillContext,
          preflightOptionsFrom(settings.skills, {
            // Learned warnings (<skill_warnings>) share the pre-flight budget.
            maxTokens: learning.skillsMaxTokens,
            pinnedNames,
            countTokens: (text) => model.countTokens(text),
            summarize: settings.skills.summarize ? modelSkillSummarizer(model, signalOf(token)) : undefined,
            chooser: settings.skills.selection === 'search' ? undefined : await selectionModelFor(chosen.model, settings, token),
            signal: signalOf(token),
          }),
        )
      : undefined;
    const toolStyle = settings.skills.toolStyle;
    // toolStyle single|both: the `skill` tool with this run's listing (see plannerSingleSkill.ts).
    const { tools, skills } =
      discoverySkills && toolStyle !== 'discovery'
        ? withSingleSkillTool(
            plannerToolRunFrom(run),
            discoverySkills,
            createSingleSkillTool(services.skills, skillContext, {
              maxEntries: settings.skills.singleToolMaxEntries,
              maxTokens: settings.skills.singleToolMaxTokens,
              prompt: request.prompt,
              pinnedNames,
              countTokens: (text) => model.countTokens(text),
            }),
            toolStyle,
          )
        : { tools: plannerToolRunFrom(run), skills: discoverySkills };

    const outcome = await runPlanner(
      { prompt: request.prompt, history: historyMessages(chatContext) },
      {
        model,
        tools,
        skills: learning.decorate(skills),
        executor: learning.wrap({
          invoke: async (name, input, signal) => {
            // Skill scripts are Toolshed's own tools: confirmed and run here, not by vscode.lm.
            const result = services.skillScripts.has(name) ? await services.scriptRuns.run(name, input, token) : await executor.invoke(name, input, signal);
            services.activity.recordCall(session.sessionId, name);
            return result;
          },
        }),
        progress,
        events: services.events,
        signal: signalOf(token),
      },
      {
        maxRounds: settings.toolSearch.maxRounds,
        discoveryBlocks: true,
        hiddenFromLoop: hidden,
        // One trust rule on every path: in Restricted Mode no tool runs (tool_invoke refuses too).
        refuseToolRuns: !vscode.workspace.isTrusted,
        // Tools from skills: deferred tools the injected skills name, activated before round 1.
        maxAutoActivatedTools: settings.learning.autoActivateTools ? settings.learning.maxAutoActivatedTools : 0,
      },
    );

    const tokens = outcome.tokens;
    services.events.emit({
      type: 'request_tokens',
      payload: {
        session_id: session.sessionId,
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
    });
    if (footer) stream.markdown(footer);
    // The ledger counts the turn from the same outcome as the footer.
    services.ledger.recordTurn(outcome);
    const learned = learning.finish(outcome);
    offerAnswerRating(stream, services.learning, learned);

    const metadata: ToolshedTurnMetadata = {
      ...session.metadataBase(),
      activations: session.exportActivations(),
      activeSkills: outcome.usedSkills.filter((skill) => skill.reason).map((skill) => ({ name: skill.name, reason: skill.reason })),
      tokens,
      rounds: outcome.rounds,
      stoppedBecause: outcome.stoppedBecause,
      answer: outcome.text,
      deferral,
      learning: learned,
    };
    return { metadata: { toolshed: metadata } };
  } finally {
    run.end();
  }
}
