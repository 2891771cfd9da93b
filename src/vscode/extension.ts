import * as vscode from 'vscode';
import { createOutputChannelLogger } from './outputChannelLogger';
import { TOOLSHED_VERSION } from '../core/platform/version';

/**
 * Composition root: builds the ports, wires `registerX(context, deps)` calls, nothing else.
 * Everything registered is pushed to `context.subscriptions` and so disposed on deactivate.
 */
export async function activate(context: vscode.ExtensionContext): Promise<ToolshedApi> {
  const channel = vscode.window.createOutputChannel('Toolshed', { log: true });
  context.subscriptions.push(channel);
  const logger = createOutputChannelLogger(channel);
  logger.info(`Toolshed ${TOOLSHED_VERSION} activating (VS Code ${vscode.version})`);

  context.subscriptions.push(
    vscode.commands.registerCommand('toolshed.showLog', () => channel.show(true)),
  );

  return { version: TOOLSHED_VERSION };
}

export function deactivate(): void {
  // Registrations are disposed through context.subscriptions.
}

/** What `vscode.extensions.getExtension(...).exports` gives other extensions and tests. */
export interface ToolshedApi {
  readonly version: string;
}
