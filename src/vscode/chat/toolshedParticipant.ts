import * as vscode from 'vscode';
import { ToolSearchConfigError } from '../../core/tools/toolSearchService';
import { handlePlannerRequest, type PlannerRequestServices } from './plannerRequest';
import { PARTICIPANT_ID } from './sessionMetadata';
import { searchCommand, skillCommand, skillsCommand, toolsCommand, type SlashCommandServices } from './slashCommands';
import { TurnSession, type TurnSessionServices } from './turnSession';
import { whyCommand } from './explainLastTurn';
import { learnCommand, learningFollowups, LEARN_COMMAND, recordChatFeedback } from './learningChat';
import type { ToolshedTurnMetadata } from './sessionMetadata';
import type { OpeningServices } from '../servicesOpening';

/** What `@toolshed` uses of the services: its turns, slash commands and planner requests (learning and the log are in each). */
type ChatServices = TurnSessionServices & SlashCommandServices & PlannerRequestServices;

/**
 * Registers `@toolshed` at activation, before the services are open: its planner loop with
 * deferred tools, slash commands and follow-ups. A request made meanwhile waits for them (and is
 * answered with the start's error if they cannot open); so does a 👍/👎, which is then recorded.
 */
export function registerChatParticipant(context: vscode.ExtensionContext, opening: OpeningServices<ChatServices>): vscode.ChatRequestHandler {
  const handler: vscode.ChatRequestHandler = async (request, chatContext, stream, token) => {
    let services: ChatServices;
    try {
      services = await opening.whenReady();
    } catch (error) {
      return { errorDetails: { message: error instanceof Error ? error.message : String(error) } };
    }
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
      const services = await opening.whenReady().catch(() => undefined);
      if (!services) return [];
      if (metadata?.command === 'skills') return [{ prompt: '', command: 'search', label: 'Search tools and skills' }];
      const learned = await learningFollowups(services.learning, metadata);
      if (metadata?.rounds && metadata.rounds.length > 1) return [...learned, { prompt: '', command: 'tools', label: 'Show the tools this conversation used' }];
      return learned;
    },
  };
  context.subscriptions.push(
    participant.onDidReceiveFeedback(
      (feedback) =>
        void opening.whenReady().then(
          (services) => recordChatFeedback(services.learning, feedback),
          () => undefined,
        ),
    ),
  );
  context.subscriptions.push(participant);
  return handler;
}
