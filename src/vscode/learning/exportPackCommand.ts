import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeSkipped, exportableLearnedSkills, exportLearnedAsPack } from '../../core/learning/snapshot/skillPackExport';
import type { PackExportReport } from '../../core/learning/snapshot/skillPackExport';
import type { PackFolderWriter } from '../../core/platform/ports';
import type { SkillService } from '../../core/skills/skillService';
import { describeScope } from '../../core/skills/store/skillScope';
import type { LearningController } from './learningController';
import type { SkillPackManager } from '../skills/skillPackManager';

/** Arguments that skip the pickers (tests, other commands). */
interface ExportPackArgs {
  names?: string[];
  /** Absolute folder receiving `<name>/SKILL.md` (default: `<workspace folder>/.github/skills`). */
  folder?: string;
}

/** What the command returns: the export report, or why nothing was exported. */
type ExportPackResult = PackExportReport | { error: string } | undefined;

/** What the export uses: the learned skills, their feedback counters, and the pack loader that loads what was written. */
export interface ExportPackDeps {
  readonly skills: Pick<SkillService, 'learnedSkills' | 'packSkillNames'>;
  readonly learning: Pick<LearningController, 'service'>;
  /** Loading a written file retires the learned copy; the loader's change reaches the views. */
  readonly skillPacks: Pick<SkillPackManager, 'reloadFiles'>;
}

/** workspace.fs as the core's PackFolderWriter (it checks first; the core never asks it to overwrite). */
const workspaceWriter: PackFolderWriter = {
  async exists(file) {
    try {
      await vscode.workspace.fs.stat(vscode.Uri.file(file));
      return true;
    } catch {
      return false;
    }
  },
  async writeFile(file, text) {
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(file)));
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file), new TextEncoder().encode(text));
  },
};

/**
 * `toolshed.learning.exportAsSkillPack` — Export Learned Skills as Skill Pack…: from the palette
 * (a multi-select pick of learned skills) or a learned skill's context menu in the Skill
 * Directory. Writes `<workspace>/.github/skills/<name>/SKILL.md`, then loads them, so the learned
 * copies are retired at once. Writing into the workspace follows the one trust rule: nothing the
 * workspace could supply is used in Restricted Mode, so nothing is exported into it either.
 */
export function registerExportPackCommand(context: vscode.ExtensionContext, { skills, learning, skillPacks }: ExportPackDeps): void {
  const run = async (arg?: unknown, options: ExportPackArgs = {}): Promise<ExportPackResult> => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Toolshed: exporting learned skills into the workspace needs a trusted workspace (Manage Workspace Trust).');
      return { error: 'untrusted workspace' };
    }
    const names = options.names ?? namesFromArgument(arg) ?? (await pickLearnedSkills(skills));
    if (!names || names.length === 0) return undefined;
    const folder = options.folder ?? (await pickFolder());
    if (!folder) return undefined;
    const report = await exportLearnedAsPack(
      {
        skills,
        counters: (name) => learning.service.counters(name),
        files: workspaceWriter,
        now: Date.now(),
      },
      folder,
      names,
    );
    // Load what was written now (the file watcher may follow): this retires the learned copies.
    await skillPacks.reloadFiles(report.written.map((written) => written.file));
    showReport(report, folder);
    return report;
  };
  context.subscriptions.push(vscode.commands.registerCommand('toolshed.learning.exportAsSkillPack', run));
}

/** A tree item of a learned skill, a name, or a list of names. */
function namesFromArgument(arg: unknown): string[] | undefined {
  if (typeof arg === 'string') return [arg];
  if (Array.isArray(arg)) return arg.filter((n): n is string => typeof n === 'string');
  const skill = (arg as { type?: string; skill?: { name?: unknown } } | undefined)?.skill;
  return typeof skill?.name === 'string' ? [skill.name] : undefined;
}

async function pickLearnedSkills(skills: Pick<SkillService, 'learnedSkills'>): Promise<string[] | undefined> {
  const candidates = exportableLearnedSkills(skills);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('Toolshed: there is no learned skill to export (none yet, or all exported already).');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((record) => ({ label: record.name, description: describeScope(record), detail: record.trigger, name: record.name })),
    {
      title: 'Export learned skills as a skill pack (.github/skills)',
      placeHolder: 'Which learned skills? They become SKILL.md folders to commit',
      canPickMany: true,
    },
  );
  return picked?.map((p) => p.name);
}

async function pickFolder(): Promise<string | undefined> {
  const roots = vscode.workspace.workspaceFolders ?? [];
  if (roots.length === 0) {
    void vscode.window.showErrorMessage('Toolshed: open a folder first; a skill pack is written into the workspace (.github/skills).');
    return undefined;
  }
  const root =
    roots.length === 1 ? roots[0] : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which workspace folder gets the .github/skills folders?' });
  return root ? path.join(root.uri.fsPath, '.github', 'skills') : undefined;
}

function showReport(report: PackExportReport, folder: string): void {
  const where = vscode.workspace.asRelativePath(folder);
  const skipped = describeSkipped(report);
  if (report.written.length && !skipped.length) {
    void vscode.window.showInformationMessage(
      `Toolshed: exported ${report.written.length} learned skill(s) to ${where}: ${report.written.map((w) => w.name).join(', ')}. Commit them to share them; the learned copies are retired.`,
    );
    return;
  }
  const detail = skipped.slice(0, 5).join(' · ') + (skipped.length > 5 ? ` · and ${skipped.length - 5} more` : '');
  void vscode.window.showWarningMessage(`Toolshed: exported ${report.written.length} learned skill(s) to ${where}; skipped ${skipped.length}: ${detail}`);
}
