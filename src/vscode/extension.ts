import * as vscode from 'vscode';
import { TOOLSHED_VERSION } from '../core/platform/version';
import { trackActivations } from './chat/activityTracking';
import { registerChatParticipant } from './chat/toolshedParticipant';
import { lookUpChatModels } from './chat/requestModel';
import { registerLanguageModelTools } from './lmTools/registerLanguageModelTools';
import { registerManageTools } from './tools/manageToolsCommand';
import { registerTestEmbeddingEndpointCommand } from './tools/testEmbeddingEndpointCommand';
import { createOutputChannelLogger } from './outputChannelLogger';
import { createServices, type ToolshedServices } from './services';
import { registerSkillSurfaces } from './registerSkillSurfaces';
import { proposedSkillsGroup } from './learning/proposedGroup';
import { registerProposalCommands } from './learning/proposalCommands';
import { registerAnswerRating } from './chat/learningChat';
import { registerExportPackCommand } from './learning/exportPackCommand';
import { registerSnapshotCommands } from './learning/snapshotCommands';
import { nativeSkillsGroup } from './views/nativeSkillsGroup';
import { registerPromoteSkillCommand } from './views/promoteSkillCommand';
import { registerLedgerView } from './views/ledgerTreeView';
import { registerMcpServerDefinitions } from './skills/mcpServerDefinitions';
import { refreshAgentLauncher, registerSetUpAgentRuntimes } from './runtimes/setUpAgentRuntimes';
import { publishSkillsToDoors } from './runtimes/doorSkillsPublisher';
import { workspaceProjectId } from './skills/skillPackManager';

/**
 * Composition root: builds the services once, then wires `registerX(context, services)` calls.
 * Everything registered is pushed to `context.subscriptions` and so disposed on deactivate.
 */
export async function activate(context: vscode.ExtensionContext): Promise<ToolshedApi> {
  const channel = vscode.window.createOutputChannel('Toolshed', { log: true });
  context.subscriptions.push(channel);
  const logger = createOutputChannelLogger(channel);
  logger.info(`Toolshed ${TOOLSHED_VERSION} activating (VS Code ${vscode.version})`);

  context.subscriptions.push(vscode.commands.registerCommand('toolshed.showLog', () => channel.show(true)));

  let services: ToolshedServices;
  try {
    services = await createServices(context, logger);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.error(`Toolshed could not start: ${message}`);
    void vscode.window.showErrorMessage(`Toolshed could not start: ${message}`, 'Show Log').then((choice) => {
      if (choice) channel.show(true);
    });
    throw error;
  }
  context.subscriptions.push(trackActivations(services));
  registerLanguageModelTools(context, services);
  registerManageTools(context, services);
  registerLedgerView(context, services.ledger);
  registerMcpServerDefinitions(context, services.skillPacks);
  registerSetUpAgentRuntimes(context, services.logger);
  refreshAgentLauncher(context.extensionPath, services.logger);
  publishSkillsToDoors(context, services, workspaceProjectId);
  registerTestEmbeddingEndpointCommand(context, { embeddings: () => services.settings.current.embeddings, logger: services.logger });
  const chatHandler = registerChatParticipant(context, services);

  // Packs load in the background (progress in the status bar): activation stays fast. The skill
  // tools wait only until the load is under way (`skillPacks.answerable`: a warm start answers
  // from the saved index, each returned skill checked against its file); what needs the whole
  // library (the participant's turn, lists, the directory) awaits `skillPacks.ready`. Started
  // before the views register, so the Skill Directory's header waits for this load instead of
  // counting the list it replaces.
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Toolshed: loading skill packs' }, (progress) =>
    services.skillPacks.reload(progress),
  );

  const { directory, diagnostics } = registerSkillSurfaces(context, services, [
    proposedSkillsGroup(services.learning),
    nativeSkillsGroup(services.nativeSkills),
  ]);
  // Commands write through the services; the views follow services.skillChanges (no refresh callbacks).
  registerProposalCommands(context, services.learning);
  registerAnswerRating(context, services.learning);
  registerSnapshotCommands(context, services.learning, services.skills);
  registerExportPackCommand(context, services);
  registerPromoteSkillCommand(context, {
    skills: services.skills,
    directory,
    tenantId: () => services.settings.current.scope.tenantId,
    promote: (name, to, options) => services.learning.writes.promote(name, to, options),
  });

  // Until some extension asks, VS Code may not list third-party chat models in the picker.
  void lookUpChatModels().then((models) =>
    logger.info(`Chat models available: ${models.join(', ') || 'none (sign in to Copilot or install a model provider)'}`),
  );

  return {
    version: TOOLSHED_VERSION,
    storageUri: context.storageUri,
    handleChatRequest: chatHandler,
    services,
    onDidUpdateSkillDiagnostics: diagnostics.onDidUpdate,
  };
}

/**
 * Awaits pending store saves (debounced writes would otherwise be lost when the host exits);
 * registrations are then disposed through context.subscriptions. The services are reached
 * through our own exports, so no module-level state is needed.
 */
export async function deactivate(): Promise<void> {
  const api = vscode.extensions.getExtension<ToolshedApi>(TOOLSHED_EXTENSION_ID)?.exports;
  await api?.services.flush();
}

/** `publisher.name` from package.json. */
export const TOOLSHED_EXTENSION_ID = 'toolshed-dev.toolshed';

/** What `vscode.extensions.getExtension('toolshed-dev.toolshed').exports` gives. */
export interface ToolshedApi {
  readonly version: string;
  /** The workspace storage folder (undefined without a workspace). */
  readonly storageUri: vscode.Uri | undefined;
  /** The @toolshed request handler, for integrations and end-to-end tests that drive it directly. */
  readonly handleChatRequest: vscode.ChatRequestHandler;
  /** Toolshed's services (stores, settings, activity). Not a stable API: for tests and diagnostics. */
  readonly services: ToolshedServices;
  /** Fires after a skill document's diagnostics were published, clean ones too (tests wait on it). */
  readonly onDidUpdateSkillDiagnostics: vscode.Event<vscode.Uri>;
}
