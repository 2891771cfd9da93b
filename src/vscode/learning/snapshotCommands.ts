import * as vscode from 'vscode';
import { describeLineage, lineageOf } from '../../core/learning/merge/lineage';
import { SnapshotError } from '../../core/learning/snapshot/snapshot';
import { describeTenantMoves, type ImportReport } from '../../core/learning/snapshot/snapshotTransfer';
import { TOOLSHED_VERSION } from '../../core/platform/version';
import type { SkillService } from '../../core/skills/skillService';
import type { LearningController } from './learningController';

/**
 * Toolshed: Export Learned Skills… / Import Learned Skills… (snapshots) and
 * Toolshed: Undo Learned-Skill Merge… (from a merged skill's lineage). Each command takes an
 * optional Uri / arguments so it can run without a dialog (tests, other commands).
 */
export function registerSnapshotCommands(
  context: vscode.ExtensionContext,
  controller: Pick<LearningController, 'service' | 'writes'>,
  skills: Pick<SkillService, 'learnedSkills'>,
): void {
  const exportSkills = async (target?: vscode.Uri): Promise<{ learned: number; proposals: number } | undefined> => {
    const uri =
      target ?? (await vscode.window.showSaveDialog({ title: 'Export learned skills', filters: { 'Toolshed snapshot': ['jsonl'] }, saveLabel: 'Export' }));
    if (!uri) return undefined;
    const result = controller.service.exportSnapshot(TOOLSHED_VERSION);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(result.text));
    void vscode.window.showInformationMessage(`Toolshed: exported ${result.learned} learned skill(s) and ${result.proposals} proposal(s).`);
    return { learned: result.learned, proposals: result.proposals };
  };

  const importSkills = async (source?: vscode.Uri): Promise<ImportReport | { error: string } | undefined> => {
    const uri =
      source ??
      (
        await vscode.window.showOpenDialog({
          title: 'Import learned skills',
          filters: { 'Toolshed snapshot': ['jsonl'] },
          canSelectMany: false,
          openLabel: 'Import',
        })
      )?.[0];
    if (!uri) return undefined;
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Toolshed: importing learned skills needs a trusted workspace.');
      return { error: 'untrusted workspace' };
    }
    try {
      const report = await controller.writes.importSnapshot(await vscode.workspace.fs.readFile(uri));
      const conflicts = report.conflicts.length
        ? ` ${report.conflicts.length} conflict(s) kept as they were: ${report.conflicts.slice(0, 5).join(', ')}${report.conflicts.length > 5 ? ', …' : ''}.`
        : '';
      void vscode.window.showInformationMessage(
        `Toolshed: imported ${report.added.length} learned skill(s), merged ${report.merged.length}, ${report.unchanged.length} already here; ${report.proposalsAdded} proposal(s) added.${conflicts}${describeTenantMoves(report)}`,
      );
      return report;
    } catch (error) {
      const message = error instanceof SnapshotError ? error.message : `Import failed: ${error instanceof Error ? error.message : String(error)}`;
      void vscode.window.showErrorMessage(`Toolshed: ${message}`);
      return { error: message };
    }
  };

  const undoMerge = async (name?: string, sourceHash?: string): Promise<boolean> => {
    let skill = name;
    let hash = sourceHash;
    if (!skill || !hash) {
      const merged = skills.learnedSkills().filter((r) => lineageOf(r));
      if (merged.length === 0) {
        void vscode.window.showInformationMessage('Toolshed: no learned skill has been merged.');
        return false;
      }
      const pick = await vscode.window.showQuickPick(
        merged.flatMap((record) =>
          lineageOf(record)!.merged_from.map((source) => ({
            label: source.name,
            description: `merged into ${record.name}`,
            detail: describeLineage(record)[0],
            skill: record.name,
            hash: source.source_hash,
          })),
        ),
        { title: 'Undo a learned-skill merge', placeHolder: 'The merged skill is recomputed without it; its proposal is pending again' },
      );
      if (!pick) return false;
      skill = pick.skill;
      hash = pick.hash;
    }
    const done = await controller.writes.unmerge(skill, hash);
    if (!done) void vscode.window.showWarningMessage(`Toolshed: "${skill}" has no such merge to undo.`);
    return Boolean(done);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('toolshed.learning.exportLearnedSkills', exportSkills),
    vscode.commands.registerCommand('toolshed.learning.importLearnedSkills', importSkills),
    vscode.commands.registerCommand('toolshed.learning.undoMerge', undoMerge),
  );
}
