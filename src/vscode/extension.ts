import * as vscode from 'vscode';
import { TOOLSHED_VERSION } from '../core/platform/version';
import { trackActivations } from './chat/activityTracking';
import { registerChatParticipant } from './chat/toolshedParticipant';
import { registerExplainLastTurnCommand } from './chat/explainLastTurn';
import type { SkillDiagnostics } from './authoring/skillDiagnostics';
import { registerOpeningCommands, ServicesOpening, type TreeViewSlots } from './servicesOpening';
import { createOpeningTreeViews } from './views/openingTreeViews';
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
import { markStart } from '../core/platform/startTrace';

/**
 * Composition root. `activate()` returns before the stores are open (the skill store's open is
 * most of a warm start): what VS Code can reach — the contributed commands, the language-model
 * tools, the chat participant, the views and the MCP server definition — is registered at once
 * and waits for the services (`servicesOpening.ts`), so the workbench's first round trip to a tool
 * overlaps the open. Once `createServices` has opened them, each `registerX(context, services)`
 * wires its surface and `ready` resolves. Everything registered is pushed to
 * `context.subscriptions` and so disposed on deactivate.
 */
export function activate(context: vscode.ExtensionContext): ToolshedApi {
  markStart('activate:enter');
  const activated = Date.now();
  const channel = vscode.window.createOutputChannel('Toolshed', { log: true });
  context.subscriptions.push(channel);
  const logger = createOutputChannelLogger(channel);
  logger.info(`Toolshed ${TOOLSHED_VERSION} activating (VS Code ${vscode.version})`);
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_LOG_COMMAND, () => channel.show(true)));

  const opening = new ServicesOpening<ToolshedServices>();
  const commands = registerOpeningCommands(contributedCommands(context), opening, vscode.commands);
  context.subscriptions.push(commands);
  const views = createOpeningTreeViews(context, opening);
  registerLanguageModelTools(context, opening);
  registerMcpServerDefinitions(context, opening);
  const chatHandler = registerChatParticipant(context, opening);
  const diagnosticsUpdated = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(diagnosticsUpdated);

  logger.info('Opening the stores in the background; tools, commands and the participant wait for them');
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Toolshed: opening the skill store' }, () =>
    opening.ready.catch(() => undefined),
  );
  void createServices(context, logger)
    .then((services) => {
      markStart('services:created');
      // The placeholders go and the commands' own registrations come in one synchronous step.
      commands.replace();
      const { diagnostics } = registerSurfaces(context, services, views);
      context.subscriptions.push(diagnostics.onDidUpdate((uri) => diagnosticsUpdated.fire(uri)));
      markStart('surfaces:registered');
      logger.info(`Toolshed ready: the stores opened ${Date.now() - activated} ms after activation`);
      opening.opened(services);
    })
    .catch((error: unknown) => {
      const startError = opening.failed(error);
      logger.error(`${startError.message}${error instanceof Error && error.stack ? `\n${error.stack}` : ''}`);
      void vscode.window.showErrorMessage(startError.message, 'Show Log').then((choice) => {
        if (choice) channel.show(true);
      });
    });

  // Until some extension asks, VS Code may not list third-party chat models in the picker.
  void lookUpChatModels().then((models) =>
    logger.info(`Chat models available: ${models.join(', ') || 'none (sign in to Copilot or install a model provider)'}`),
  );

  markStart('activate:return');
  return {
    version: TOOLSHED_VERSION,
    storageUri: context.storageUri,
    handleChatRequest: chatHandler,
    ready: opening.ready,
    onDidUpdateSkillDiagnostics: diagnosticsUpdated.event,
  };
}

const SHOW_LOG_COMMAND = 'toolshed.showLog';

/** The commands package.json contributes, but for those registered for good at activation. */
function contributedCommands(context: vscode.ExtensionContext): string[] {
  const manifest = context.extension.packageJSON as { contributes?: { commands?: Array<{ command: string }> } };
  return (manifest.contributes?.commands ?? []).map((entry) => entry.command).filter((id) => id !== SHOW_LOG_COMMAND);
}

/** Wires every surface to the open services (the registrations made at activation wait for this). */
function registerSurfaces(context: vscode.ExtensionContext, services: ToolshedServices, views: TreeViewSlots): { diagnostics: SkillDiagnostics } {
  context.subscriptions.push(trackActivations(services));
  registerManageTools(context, services);
  registerLedgerView(context, views, services.ledger);
  registerSetUpAgentRuntimes(context, services.logger);
  refreshAgentLauncher(context.extensionPath, services.logger);
  publishSkillsToDoors(context, services, workspaceProjectId);
  registerTestEmbeddingEndpointCommand(context, { embeddings: () => services.settings.current.embeddings, logger: services.logger });
  registerExplainLastTurnCommand(context, services);

  // Packs load in the background (progress in the status bar): activation stays fast. The skill
  // tools wait only until the load is under way (`skillPacks.answerable`: a warm start answers
  // from the saved index, each returned skill checked against its file); what needs the whole
  // library (the participant's turn, lists, the directory) awaits `skillPacks.ready`. Started
  // before the views register, so the Skill Directory's header waits for this load instead of
  // counting the list it replaces.
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Toolshed: loading skill packs' }, (progress) =>
    services.skillPacks.reload(progress),
  );

  const { directory, diagnostics } = registerSkillSurfaces(context, services, views, [
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
  return { diagnostics };
}

/**
 * Awaits pending store saves (debounced writes would otherwise be lost when the host exits);
 * registrations are then disposed through context.subscriptions. The services are reached
 * through our own exports, so no module-level state is needed.
 */
export async function deactivate(): Promise<void> {
  const api = vscode.extensions.getExtension<ToolshedApi>(TOOLSHED_EXTENSION_ID)?.exports;
  // Stores still opening are awaited, then saved; stores that never opened have nothing to save.
  const services = await api?.ready.catch(() => undefined);
  await services?.flush();
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
  /**
   * Toolshed's services (stores, settings, activity), once they are open and every surface is wired
   * to them; rejects with the start's error if they cannot open. `activate()` returns before:
   * what a user or another extension calls meanwhile waits for it. Not a stable API: for tests
   * and diagnostics.
   */
  readonly ready: Promise<ToolshedServices>;
  /** Fires after a skill document's diagnostics were published, clean ones too (tests wait on it). */
  readonly onDidUpdateSkillDiagnostics: vscode.Event<vscode.Uri>;
}
