import * as vscode from 'vscode';

/** A tool result the model reads: one text part (JSON for structured answers). */
export function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

export function jsonResult(value: unknown): vscode.LanguageModelToolResult {
  return textResult(JSON.stringify(value));
}
