import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { runSuite, type SuiteResults } from './runSuite';
import { SCRIPTED_VENDOR, ScriptedModel, type ScriptedModelControl } from './scriptedModel';
import { registerTestTools, type TestToolCalls } from './testTools';
import { createToolBatch, type ToolBatchControl } from './testToolBatch';
import { registerDemoScripts } from './demoScripts';

/** What tests get from `vscode.extensions.getExtension('toolshed-test.toolshed-test-driver').exports`. */
export interface DriverApi {
  readonly scriptedModel: ScriptedModelControl;
  /** Calls made to the fixture tools of testTools.ts. */
  readonly testTools: TestToolCalls;
  /** A configurable batch of MCP-style fixture tools (testToolBatch.ts). */
  readonly toolBatch: ToolBatchControl;
  /** This extension's global storage: `<user data>/User/globalStorage/<id>`, so tests can find the user-data folder. */
  readonly globalStorageUri: vscode.Uri;
}

/** Written by test/host/offlineHost.mjs beside this extension's package.json (offline host only). */
interface RunConfig {
  resultsPath: string;
  suiteDir: string;
  mochaPath: string;
  testTimeoutMs?: number;
  grep?: string;
}

export const RUN_CONFIG_FILE = 'toolshed-test-run.json';

export function activate(context: vscode.ExtensionContext): DriverApi {
  const model = new ScriptedModel();
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(SCRIPTED_VENDOR, model));
  const testTools = registerTestTools(context);
  registerDemoScripts(context, model);

  // code-server ignores --extensionTestsPath, so in the offline host this extension runs the
  // suite itself. Deferred so that activate() returns first: tests call getExtension(...).activate().
  const configPath = path.join(context.extensionPath, RUN_CONFIG_FILE);
  if (existsSync(configPath)) {
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as RunConfig;
    setTimeout(() => void runAndReport(config), 0);
  }
  return { scriptedModel: model.control(), testTools, toolBatch: createToolBatch(context), globalStorageUri: context.globalStorageUri };
}

export function deactivate(): void {}

function writeAtomically(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file); // the harness never reads a half-written file
}

async function runAndReport(config: RunConfig): Promise<void> {
  writeAtomically(`${config.resultsPath}.started`, new Date().toISOString());
  let results: SuiteResults;
  try {
    results = await runSuite({ ...config, vscodeVersion: vscode.version });
  } catch (error) {
    const err = error as Error;
    results = {
      passed: 0,
      failed: 1,
      pending: 0,
      durationMs: 0,
      vscodeVersion: vscode.version,
      tests: [{ title: 'load the suite', fullTitle: 'load the suite', state: 'failed', error: err.message, stack: err.stack }],
    };
  }
  writeAtomically(config.resultsPath, JSON.stringify(results, null, 2));
}
