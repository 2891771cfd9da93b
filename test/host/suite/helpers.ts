import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToolshedApi } from '../../../src/vscode/extension';
import type { ToolshedServices } from '../../../src/vscode/services';
import type { DriverApi } from '../driver/extension';
import type { ScriptedModelControl } from '../driver/scriptedModel';
import { testWaits, type TestWait } from '../driver/testWaits';

export const TOOLSHED_ID = 'toolshed-dev.toolshed';
export const DRIVER_ID = 'toolshed-test.toolshed-test-driver';

/** Toolshed's API once its services are open, with them as `services`. */
export interface ReadyToolshed extends ToolshedApi {
  readonly services: ToolshedServices;
}

/**
 * Activates the extension under test and returns its API once its services are open and its
 * surfaces wired (`activate()` returns before: `api.ready`).
 */
export async function toolshed(): Promise<ReadyToolshed> {
  const extension = vscode.extensions.getExtension<ToolshedApi>(TOOLSHED_ID);
  assert.ok(extension, `${TOOLSHED_ID} is not installed in this host`);
  const api = await extension.activate();
  return { ...api, services: await api.ready };
}

/** The scripted language model's control API (see test/host/driver/scriptedModel.ts). */
export async function scriptedModel(): Promise<ScriptedModelControl> {
  const driver = vscode.extensions.getExtension<DriverApi>(DRIVER_ID);
  assert.ok(driver, `${DRIVER_ID} is not installed in this host`);
  return (await driver.activate()).scriptedModel;
}

/** The scripted model as a `LanguageModelChat`, the way product code would select it. */
export async function selectScriptedChatModel(): Promise<vscode.LanguageModelChat> {
  const control = await scriptedModel();
  const [model] = await vscode.lm.selectChatModels({ vendor: control.vendor, id: control.modelId });
  assert.ok(model, 'the scripted model is not registered');
  return model;
}

/**
 * Resolves with `probe()` once it is truthy. UI state in the host settles asynchronously, mostly
 * without an event a test can subscribe to, so this re-checks every 100 ms — with no deadline of
 * its own: the test's timeout is the guard, and its message names `what` (testWaits.ts).
 */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string | (() => string)): Promise<T> {
  const wait: TestWait = { describe: typeof what === 'string' ? () => what : what, ended: false };
  testWaits().add(wait);
  try {
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (wait.ended) throw new Error(`The test ended while waiting for ${wait.describe()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    testWaits().delete(wait);
  }
}

/**
 * Runs `action` and resolves with its result once Toolshed has published the diagnostics of
 * `uri` (clean ones too). Subscribes before acting, so the update cannot be missed; a check that
 * a document has *no* diagnostic waits on this instead of on a fixed delay. No deadline of its
 * own: the test's timeout is the guard, and its message names this wait.
 */
export async function withDiagnosticsPublished<T>(uri: vscode.Uri, action: () => Thenable<T> | Promise<T>): Promise<T> {
  const api = await toolshed();
  let subscription: vscode.Disposable | undefined;
  const what = `Toolshed to publish the diagnostics of ${uri.fsPath}`;
  const wait: TestWait = { describe: () => what, ended: false };
  const published = new Promise<void>((resolve, reject) => {
    subscription = api.onDidUpdateSkillDiagnostics((updated) => updated.fsPath === uri.fsPath && resolve());
    wait.onEnd = () => reject(new Error(`The test ended while waiting for ${what}`));
  });
  testWaits().add(wait);
  try {
    const result = await action();
    await published;
    return result;
  } finally {
    testWaits().delete(wait);
    subscription?.dispose();
  }
}

/**
 * Runs a command that opens a QuickPick and accepts the focused item once it has one, as a
 * person pressing Enter would. The extension host has no event for a QuickPick another
 * extension shows, so Enter is pressed every 400 ms until the command returns (an Enter before
 * the items are there selects nothing); the test's timeout is the guard.
 */
export async function acceptFirst<T>(command: string, args?: unknown): Promise<T | undefined> {
  let done = false;
  const result = Promise.resolve(vscode.commands.executeCommand<T>(command, args)).finally(() => {
    done = true;
  });
  const wait: TestWait = { describe: () => `the QuickPick of ${command} to accept an item`, ended: false };
  testWaits().add(wait);
  try {
    while (!done && !wait.ended) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      if (!done) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
  } finally {
    testWaits().delete(wait);
  }
  if (!done) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  return result;
}
