import * as vscode from 'vscode';
import { noModelAnswer, smallerSibling, substituteModelNote } from '../../core/planner/modelChoice';

/**
 * The model a @toolshed request runs on: the one the user picked when it is available, else
 * the first available model (the answer says so). Until some extension asks for models, a
 * third-party model may not be listed; Toolshed asks at activation (`lookUpChatModels`).
 */
export async function chooseRequestModel(
  requested: vscode.LanguageModelChat | undefined,
): Promise<{ model: vscode.LanguageModelChat; note?: string } | { model: undefined; answer: string }> {
  if (requested && (await isAvailable(requested))) return { model: requested };
  const available = await vscode.lm.selectChatModels();
  const substitute = available.find((model) => model.id !== requested?.id || model.vendor !== requested?.vendor);
  if (!substitute) return { model: undefined, answer: noModelAnswer(requested) };
  return { model: substitute, note: substituteModelNote(requested, substitute) };
}

/**
 * The model that chooses a request's active skills (`toolshed.skills.selectionModel`): with
 * `smaller`, a small model of the request model's vendor when one is available, else the
 * request's own model.
 */
export async function chooseSelectionModel(requestModel: vscode.LanguageModelChat, preference: 'smaller' | 'request'): Promise<vscode.LanguageModelChat> {
  if (preference === 'request') return requestModel;
  try {
    return smallerSibling(requestModel, await vscode.lm.selectChatModels({ vendor: requestModel.vendor })) ?? requestModel;
  } catch {
    return requestModel;
  }
}

async function isAvailable(model: vscode.LanguageModelChat): Promise<boolean> {
  try {
    return (await vscode.lm.selectChatModels({ vendor: model.vendor, id: model.id })).length > 0;
  } catch {
    return false;
  }
}

/** Asks VS Code for the chat models once at activation, so every provider's models are listed. */
export async function lookUpChatModels(): Promise<string[]> {
  try {
    return (await vscode.lm.selectChatModels()).map((model) => `${model.name} (${model.vendor})`);
  } catch {
    return [];
  }
}
