import * as vscode from 'vscode';
import type { Logger } from '../../core/platform/ports';
import type { SkillProblem } from '../../core/skills/packs/document/skillProblems';
import type { SkillDirectorySource } from '../views/skillDirectorySource';
import { newSkill, type NewSkillArgs } from './newSkillCommand';
import { SkillDiagnostics } from './skillDiagnostics';
import type { SkillDocumentValidator } from './skillDocumentValidator';
import { SkillFileSync } from './skillFileSync';
import { SKILL_DOCUMENT_SELECTOR, SkillCodeActionProvider, SkillCompletionProvider, SkillHoverProvider } from './skillLanguageFeatures';

export interface AuthoringDeps {
  readonly skills: SkillDirectorySource;
  readonly validateDocument: SkillDocumentValidator;
  readonly logger: Logger;
  /** `observe` when another component (the pack manager) already re-indexes changed files. */
  readonly fileSync?: 'own' | 'observe';
}

interface ValidateResult {
  readonly problems: readonly SkillProblem[];
  readonly errors: number;
  readonly warnings: number;
  readonly files: number;
}

/**
 * Pack authoring: diagnostics that follow skill documents, completions, hovers, quick fixes,
 * re-index on save, "New Skill…" and "Validate Skill Packs". Everything is disposed with the
 * extension.
 */
export function registerAuthoring(context: vscode.ExtensionContext, deps: AuthoringDeps): { diagnostics: SkillDiagnostics; sync: SkillFileSync } {
  const sync = new SkillFileSync(deps.skills, deps.logger, deps.fileSync ?? 'own');
  const diagnostics = new SkillDiagnostics(deps.validateDocument, sync, deps.logger);
  context.subscriptions.push(sync, diagnostics);
  void diagnostics.indexWorkspace().catch((error) => deps.logger.warn(`Indexing skill names failed: ${String(error)}`));

  context.subscriptions.push(
    vscode.languages.registerCompletionItemProvider(SKILL_DOCUMENT_SELECTOR, new SkillCompletionProvider(), ':', ' '),
    vscode.languages.registerHoverProvider(SKILL_DOCUMENT_SELECTOR, new SkillHoverProvider()),
    vscode.languages.registerCodeActionsProvider(SKILL_DOCUMENT_SELECTOR, new SkillCodeActionProvider((uri) => diagnostics.problemsFor(uri)), {
      providedCodeActionKinds: SkillCodeActionProvider.providedCodeActionKinds,
    }),
    vscode.commands.registerCommand('toolshed.newSkill', (args?: NewSkillArgs) => newSkill(deps.skills, isNewSkillArgs(args) ? args : {})),
    vscode.commands.registerCommand('toolshed.validateSkillPacks', () => validateSkillPacks(deps, diagnostics)),
  );
  return { diagnostics, sync };
}

function isNewSkillArgs(value: unknown): value is NewSkillArgs {
  return typeof value === 'object' && value !== null && !(value instanceof vscode.Uri) && ('format' in value || 'name' in value || 'folder' in value);
}

async function validateSkillPacks(deps: AuthoringDeps, diagnostics: SkillDiagnostics): Promise<ValidateResult> {
  const problems = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Toolshed: validating skill packs…' }, () =>
    deps.skills.validateAll(),
  );
  const files = diagnostics.showFullCheck(problems);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  const skills = deps.skills.packs().reduce((n, p) => n + p.skills.length, 0);
  deps.logger.info(`Validate Skill Packs: ${skills} skills, ${errors} errors, ${warnings} warnings in ${files} files`);
  const message =
    problems.length === 0 ? `Toolshed: all ${skills} skills are valid.` : `Toolshed: ${errors} errors and ${warnings} warnings in ${files} skill files.`;
  void (problems.length === 0
    ? vscode.window.showInformationMessage(message)
    : vscode.window.showWarningMessage(message, 'Show Problems').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
      }));
  return { problems, errors, warnings, files };
}
