import * as vscode from 'vscode';
import type { EmbeddingsConfig } from '../../core/config/settingsSchema';
import type { Logger } from '../../core/platform/ports';
import { checkEmbeddingEndpointLive, describeEndpointCheck } from '../../core/tools/index/endpointCheck';
import type { EndpointCheckReport } from '../../core/tools/index/endpointCheck';

const TEST_EMBEDDING_ENDPOINT_COMMAND = 'toolshed.testEmbeddingEndpoint';

export interface TestEmbeddingEndpointDeps {
  /** The current `toolshed.embeddings` settings. */
  embeddings(): EmbeddingsConfig;
  logger: Logger;
}

/**
 * Toolshed: Test Embedding Endpoint. The answer goes to a notification and the log; the command
 * returns the report, so a test (or a script) reads what the user saw.
 */
export function registerTestEmbeddingEndpointCommand(context: vscode.ExtensionContext, deps: TestEmbeddingEndpointDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(TEST_EMBEDDING_ENDPOINT_COMMAND, async (): Promise<EndpointCheckReport> => {
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Toolshed: testing the embedding endpoint…' },
        () => checkEmbeddingEndpointLive(deps.embeddings(), vscode.workspace.isTrusted),
      );
      const line = describeEndpointCheck(report);
      if (report.ok) {
        deps.logger.info(line);
        void vscode.window.showInformationMessage(line);
      } else {
        deps.logger.warn(line);
        void vscode.window.showWarningMessage(line, 'Open Settings').then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'toolshed.embeddings');
        });
      }
      return report;
    }),
  );
}
