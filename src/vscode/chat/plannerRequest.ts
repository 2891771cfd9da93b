import * as vscode from 'vscode';
import { runToolshedTurn } from '../../core/planner/turn/toolshedTurn';
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
import { recordChatTurn } from '../doorFolders';

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
  | 'turnExplanations'
  | 'events'
  | 'ledger'
  | 'logger'
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
    const executor = createLmToolExecutor(request.toolInvocationToken, token);
    const learning = await startLearningTurn(services.learning, {
      prompt: request.prompt,
      command: request.command,
      sessionId: session.sessionId,
      maxTokens: settings.skills.maxTokens,
      model,
      languageModel: chosen.model,
    });
    const requestModel = chosen.model;
    const { outcome, deferral, footer, explanation } = await runToolshedTurn(
      { prompt: request.prompt, history: historyMessages(chatContext), sessionId: session.sessionId },
      {
        settings,
        run,
        decideDeferral: (toolRun, hidden) => services.toolModes.decide(toolRun, requestModel, token, hidden),
        model,
        skills: {
          service: services.skills,
          // The frame (the chat command) lifts skills of the same frame or domain (effectiveness rules).
          context: { ...services.skillContext(run, session.pinnedSkills), frame: request.command },
          pinnedNames: [...new Set([...services.pinned.names(), ...session.pinnedSkills])],
          selectionModel: () => selectionModelFor(requestModel, settings, token),
        },
        executor: {
          invoke: async (name, input, signal) => {
            // Skill scripts are Toolshed's own tools: confirmed and run here, not by vscode.lm.
            const result = services.skillScripts.has(name) ? await services.scriptRuns.run(name, input, token) : await executor.invoke(name, input, signal);
            services.activity.recordCall(session.sessionId, name);
            return result;
          },
        },
        progress,
        events: services.events,
        signal: signalOf(token),
        // One trust rule on every path: in Restricted Mode no tool runs (tool_invoke refuses too).
        refuseToolRuns: !vscode.workspace.isTrusted,
        ledger: services.ledger.turns,
        hooks: {
          skillsMaxTokens: learning.skillsMaxTokens,
          decorateSkills: (skills) => learning.decorate(skills),
          wrapExecutor: (inner) => learning.wrap(inner),
        },
      },
    );
    if (footer) stream.markdown(footer);
    services.turnExplanations.record(session.sessionId, explanation);
    recordChatTurn(
      explanation,
      outcome.usedSkills.map((skill) => skill.name),
      outcome.tokens.injectedSkillTokens,
      services.logger,
    );
    const learned = learning.finish(outcome);
    offerAnswerRating(stream, services.learning, learned);

    const metadata: ToolshedTurnMetadata = {
      ...session.metadataBase(),
      activations: session.exportActivations(),
      activeSkills: outcome.usedSkills.filter((skill) => skill.reason).map((skill) => ({ name: skill.name, reason: skill.reason })),
      tokens: outcome.tokens,
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
