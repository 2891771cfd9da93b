import * as vscode from 'vscode';
import type { SkillProblem } from '../../core/skills/packs/document/skillProblems';
import { SKILL_FILE_GLOBS } from '../../core/skills/packs/document/skillFileNames';
import { completionsAt, keyAt } from './completionModel';
import { fieldDoc, fieldHoverMarkdown } from './fieldDocs';
import { quickFixesFor } from './quickFixes';
import { DIAGNOSTIC_SOURCE, toRange } from './skillDiagnostics';
import { skillFileKind } from './skillFileKinds';

/** Every skill file, whatever language VS Code gives it (and in any scheme, e.g. untitled). */
export const SKILL_DOCUMENT_SELECTOR: vscode.DocumentSelector = SKILL_FILE_GLOBS.map((pattern) => ({ pattern }));

export class SkillCompletionProvider implements vscode.CompletionItemProvider {
  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
    const kind = skillFileKind(document.fileName);
    if (!kind) return [];
    const text = document.getText();
    return completionsAt(text, document.offsetAt(position), kind).map((model) => {
      const item = new vscode.CompletionItem(
        model.label,
        model.kind === 'property' ? vscode.CompletionItemKind.Property : vscode.CompletionItemKind.EnumMember,
      );
      item.insertText = model.isSnippet ? new vscode.SnippetString(model.insertText) : model.insertText;
      item.range = new vscode.Range(document.positionAt(model.replaceStart), document.positionAt(model.replaceEnd));
      item.detail = model.detail;
      item.documentation = new vscode.MarkdownString(model.documentation);
      if (model.sortText) item.sortText = model.sortText;
      return item;
    });
  }
}

export class SkillHoverProvider implements vscode.HoverProvider {
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const kind = skillFileKind(document.fileName);
    if (!kind) return undefined;
    const at = keyAt(document.getText(), document.offsetAt(position), kind);
    if (!at) return undefined;
    const doc = fieldDoc(kind, at.key);
    if (!doc) return undefined;
    return new vscode.Hover(new vscode.MarkdownString(fieldHoverMarkdown(doc)), new vscode.Range(document.positionAt(at.start), document.positionAt(at.end)));
  }
}

/**
 * Quick fixes keyed on the problem code of Toolshed's diagnostics. Diagnostics in the context
 * are copies, so the problem (with its `data`) is looked up by code and range.
 */
export class SkillCodeActionProvider implements vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly problemsFor: (uri: vscode.Uri) => readonly SkillProblem[]) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const kind = skillFileKind(document.fileName);
    if (!kind) return [];
    const problems = this.problemsFor(document.uri);
    const text = document.getText();
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      const code = typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : String(diagnostic.code ?? '');
      // VS Code may clamp a range to the document, so fall back to the same code on the same line.
      const sameCode = problems.filter((p) => p.code === code);
      const problem =
        sameCode.find((p) => toRange(p).isEqual(diagnostic.range)) ??
        sameCode.find((p) => p.line - 1 === diagnostic.range.start.line) ??
        (sameCode.length === 1 ? sameCode[0] : undefined);
      if (!problem) continue;
      for (const fix of quickFixesFor(text, kind, document.fileName, problem)) {
        const action = new vscode.CodeAction(fix.title.replace(/`/g, ''), vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.isPreferred = fix.isPreferred ?? false;
        action.edit = new vscode.WorkspaceEdit();
        for (const edit of fix.edits) {
          action.edit.replace(document.uri, new vscode.Range(document.positionAt(edit.start), document.positionAt(edit.end)), edit.newText);
        }
        actions.push(action);
      }
    }
    return actions;
  }
}
