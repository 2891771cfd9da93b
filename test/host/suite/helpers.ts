import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToolshedApi } from '../../../src/vscode/extension';
import type { DriverApi } from '../driver/extension';
import type { ScriptedModelControl } from '../driver/scriptedModel';

export const TOOLSHED_ID = 'toolshed-dev.toolshed';
export const DRIVER_ID = 'toolshed-test.toolshed-test-driver';

/** Activates the extension under test and returns its API. */
export async function toolshed(): Promise<ToolshedApi> {
  const extension = vscode.extensions.getExtension<ToolshedApi>(TOOLSHED_ID);
  assert.ok(extension, `${TOOLSHED_ID} is not installed in this host`);
  return extension.activate();
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

/** Polls `probe` until it returns something truthy (UI state in the host settles asynchronously). */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs `action` and resolves with its result once Toolshed has published the diagnostics of
 * `uri` (clean ones too). Subscribes before acting, so the update cannot be missed; a check that
 * a document has *no* diagnostic waits on this instead of on a fixed delay.
 */
export async function withDiagnosticsPublished<T>(uri: vscode.Uri, action: () => Thenable<T> | Promise<T>, timeoutMs = 30_000): Promise<T> {
  const api = await toolshed();
  let subscription: vscode.Disposable | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const published = new Promise<void>((resolve, reject) => {
    subscription = api.onDidUpdateSkillDiagnostics((updated) => updated.fsPath === uri.fsPath && resolve());
    timer = setTimeout(() => reject(new Error(`No diagnostics were published for ${uri.fsPath} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const result = await action();
    await published;
    return result;
  } finally {
    subscription?.dispose();
    clearTimeout(timer);
  }
}

/**
 * Runs a command that opens a QuickPick and accepts the focused item once it has one (as a
 * person pressing Enter would); closes the pick after 15 s if the command never returns.
 */
export async function acceptFirst<T>(command: string, args?: unknown): Promise<T | undefined> {
  let done = false;
  const result = Promise.resolve(vscode.commands.executeCommand<T>(command, args)).finally(() => {
    done = true;
  });
  const deadline = Date.now() + 15_000;
  while (!done && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    if (!done) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  if (!done) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  return result;
}
