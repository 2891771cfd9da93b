import * as vscode from 'vscode';
import { ToolSearchConfigError } from '../../core/tools/toolSearchService';
import { handlePlannerRequest, type PlannerRequestServices } from './plannerRequest';
import { PARTICIPANT_ID } from './sessionMetadata';
import { searchCommand, skillCommand, skillsCommand, toolsCommand, type SlashCommandServices } from './slashCommands';
import { TurnSession, type TurnSessionServices } from './turnSession';
import { registerExplainLastTurnCommand, whyCommand } from './explainLastTurn';
import { learnCommand, learningFollowups, LEARN_COMMAND, recordChatFeedback } from './learningChat';
import type { ToolshedTurnMetadata } from './sessionMetadata';

/** What `@toolshed` uses of the services: its turns, slash commands and planner requests (learning and the log are in each). */
type ChatServices = TurnSessionServices & SlashCommandServices & PlannerRequestServices;

/** Registers `@toolshed`: its planner loop with deferred tools, slash commands and follow-ups. */
export function registerChatParticipant(context: vscode.ExtensionContext, services: ChatServices): vscode.ChatRequestHandler {
  const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
    const session = TurnSession.fromRequest(request, chatContext, services);
    try {
      switch (request.command) {
        case 'skills':
          return await skillsCommand(stream, services, session);
        case 'skill':
          return await skillCommand(request.prompt, stream, services, session);
        case 'tools':
          return await toolsCommand(stream, services, session, request.model, token);
        case 'search':
          return await searchCommand(request.prompt, stream, services, session);
        case 'why':
          return whyCommand(stream, services, session);
        case LEARN_COMMAND:
          return await learnCommand(request.prompt, stream, services, session);
        default:
          return await handlePlannerRequest(request, chatContext, stream, token, services, session);
      }
    } catch (error) {
      const message =
        error instanceof ToolSearchConfigError || error instanceof vscode.LanguageModelError
          ? error.message
          : `Toolshed failed: ${error instanceof Error ? error.message : String(error)}`;
      services.logger.error(message);
      return { errorDetails: { message }, metadata: { toolshed: session.metadataBase() } };
    }
  };

  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'toolshed.svg');
  participant.followupProvider = {
    async provideFollowups(result) {
      const metadata = result.metadata?.toolshed as ToolshedTurnMetadata | undefined;
      if (metadata?.command === 'skills') return [{ prompt: '', command: 'search', label: 'Search tools and skills' }];
      const learned = await learningFollowups(services.learning, metadata);
      if (metadata?.rounds && metadata.rounds.length > 1) return [...learned, { prompt: '', command: 'tools', label: 'Show the tools this conversation used' }];
      return learned;
    },
  };
  registerExplainLastTurnCommand(context, services);
  context.subscriptions.push(participant.onDidReceiveFeedback((feedback) => void recordChatFeedback(services.learning, feedback)));
  context.subscriptions.push(participant);
  return handler;
}
