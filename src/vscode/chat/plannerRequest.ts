import * as vscode from 'vscode';
import { runPlanner } from '../../core/planner/plannerLoop';
import { plannerSkillsFrom } from '../../core/planner/skillsPort';
import { plannerToolRunFrom } from '../../core/planner/toolRunPort';
import { SKILL_GET_TOOL_NAME, SKILL_LIST_TOOL_NAME, SKILL_SEARCH_TOOL_NAME } from '../../core/skills/skillToolSchemas';
import { TOOL_INVOKE_TOOL_NAME } from '../lmTools/toolInvokeTool';
import type { ToolshedServices } from '../services';
import { createLanguageModelAdapter, signalOf } from './languageModelAdapter';
import { createResponseProgress } from './responseProgress';
import type { TurnSession } from './turnSession';
import { createLmToolExecutor } from './toolExecutor';
import type { ToolshedTurnMetadata } from './sessionMetadata';
import { historyMessages } from './sessionMetadata';
import { startLearningTurn } from '../learning/learningTurn';

const SKILL_TOOL_NAMES = [SKILL_SEARCH_TOOL_NAME, SKILL_GET_TOOL_NAME, SKILL_LIST_TOOL_NAME];

/**
 * One @toolshed request without a slash command: pre-flight skills, then the planner loop over
 * the model the user picked, with deferred tools found and activated as it goes.
 */
export async function handlePlannerRequest(
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  services: ToolshedServices,
  session: TurnSession,
): Promise<vscode.ChatResult> {
  const settings = services.settings.current;
  services.syncToolCatalog();
  await Promise.all([services.skillPacks.ready, services.toolExamples.ready]);

  const run = await session.startRun();
  try {
    const model = createLanguageModelAdapter(request.model, token);
    const progress = createResponseProgress(stream);
    const executor = createLmToolExecutor(request.toolInvocationToken, token);
    const learning = await startLearningTurn(services.learning, { prompt: request.prompt, command: request.command, sessionId: session.sessionId, maxTokens: settings.skills.maxTokens, model, languageModel: request.model });
    const skills = settings.skills.enabled
      ? plannerSkillsFrom(services.skills, { ...services.skillContext(run, session.pinnedSkills), frame: request.command }, {
          maxTokens: learning.skillsMaxTokens,
          topK: settings.skills.topK,
          pinnedNames: [...new Set([...services.pinned.names(), ...session.pinnedSkills])],
          countTokens: (text) => model.countTokens(text),
        })
      : undefined;

    const outcome = await runPlanner(
      { prompt: request.prompt, history: historyMessages(chatContext) },
      {
        model,
        tools: plannerToolRunFrom(run),
        skills: learning.decorate(skills),
        executor: learning.wrap({
          invoke: async (name, input, signal) => {
            const result = await executor.invoke(name, input, signal);
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
        discoveryBlocks: settings.toolSearch.enabled,
        // tool_invoke exists for agent mode; here deferred tools are called directly. With
        // skills turned off, the skill tools are not offered either.
        hiddenFromLoop: [TOOL_INVOKE_TOOL_NAME, ...(settings.skills.enabled ? [] : SKILL_TOOL_NAMES)],
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
        rounds: outcome.rounds.length,
        stopped_because: outcome.stoppedBecause,
      },
    });
    if (outcome.stoppedBecause === 'maxRounds') {
      stream.markdown(`\n\n_Stopped after ${settings.toolSearch.maxRounds} rounds (setting \`toolshed.toolSearch.maxRounds\`)._`);
    }
    if (tokens.toolsAvailable > tokens.toolsSent && outcome.stoppedBecause !== 'cancelled') {
      const saved = tokens.allToolDefinitionTokens - tokens.toolDefinitionTokens;
      const percent = tokens.allToolDefinitionTokens > 0 ? Math.round((saved / tokens.allToolDefinitionTokens) * 100) : 0;
      stream.markdown(`\n\n_Toolshed sent ${tokens.toolsSent} of ${tokens.toolsAvailable} tools: ${tokens.toolDefinitionTokens.toLocaleString('en-US')} tokens of tool definitions instead of ${tokens.allToolDefinitionTokens.toLocaleString('en-US')} (${percent}% fewer)._`);
    }

    const metadata: ToolshedTurnMetadata = {
      ...session.metadataBase(),
      activations: session.exportActivations(),
      tokens,
      rounds: outcome.rounds,
      stoppedBecause: outcome.stoppedBecause,
      learning: learning.finish(outcome),
    };
    return { metadata: { toolshed: metadata } };
  } finally {
    run.end();
  }
}
