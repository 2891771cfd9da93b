import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillDirectorySource } from '../views/skillDirectorySource';
import { NEW_SKILL_FORMATS, newSkillRelativePath, newSkillTemplate, validateNewSkillName, type NewSkillFormat } from './skillTemplates';

/** Arguments that skip the prompts (tests, walkthrough links). */
export interface NewSkillArgs {
  format?: NewSkillFormat;
  name?: string;
  /** Absolute folder to create the skill in. */
  folder?: string;
}

/** Folders a new skill can go in: workspace packs first, then the agent-skills folder. */
function candidateFolders(format: NewSkillFormat, source: SkillDirectorySource): Array<{ label: string; folder: string; detail?: string }> {
  const roots = vscode.workspace.workspaceFolders ?? [];
  const seen = new Set<string>();
  const result: Array<{ label: string; folder: string; detail?: string }> = [];
  const add = (folder: string, detail?: string) => {
    if (seen.has(folder)) return;
    seen.add(folder);
    result.push({ label: vscode.workspace.asRelativePath(folder), folder, ...(detail ? { detail } : {}) });
  };
  for (const pack of source.packs()) {
    if (pack.kind === 'builtIn' || !pack.root) continue;
    const inWorkspace = roots.some((r) => pack.root!.startsWith(r.uri.fsPath));
    if (inWorkspace) add(/\.[a-z]+$/i.test(pack.root) ? path.dirname(pack.root) : pack.root, `pack ${pack.name}`);
  }
  for (const root of roots) {
    if (format === 'skill-md') add(path.join(root.uri.fsPath, '.github', 'skills'), 'agent skills folder (VS Code, Copilot)');
    add(path.join(root.uri.fsPath, 'skills'), 'skills folder');
  }
  return result;
}

/** "Toolshed: New Skill…": asks format, name and folder, writes a valid template and opens it. */
export async function newSkill(source: SkillDirectorySource, args: NewSkillArgs = {}): Promise<vscode.Uri | undefined> {
  const format =
    args.format ??
    (
      await vscode.window.showQuickPick(
        NEW_SKILL_FORMATS.map((f) => ({ label: f.label, detail: f.detail, format: f.format })),
        { title: 'New Skill (1/3): format', placeHolder: 'Which kind of skill file?' },
      )
    )?.format;
  if (!format) return undefined;
  const name =
    args.name ??
    (await vscode.window.showInputBox({
      title: 'New Skill (2/3): name',
      prompt: format === 'skill-md' ? 'Lowercase letters, digits and hyphens; it also names the folder' : 'Letters, digits, `.`, `_` and `-`',
      placeHolder: 'write-tests',
      validateInput: (value) => validateNewSkillName(value, format),
    }));
  if (!name) return undefined;
  const problem = validateNewSkillName(name, format);
  if (problem) {
    void vscode.window.showErrorMessage(`Toolshed: cannot create skill "${name}": ${problem}`);
    return undefined;
  }
  let folder = args.folder;
  if (!folder) {
    const candidates = candidateFolders(format, source);
    if (candidates.length === 0) {
      void vscode.window.showErrorMessage('Toolshed: open a folder first; new skills are created in the workspace.');
      return undefined;
    }
    folder = candidates.length === 1 ? candidates[0]!.folder : (await vscode.window.showQuickPick(candidates, { title: 'New Skill (3/3): folder' }))?.folder;
  }
  if (!folder) return undefined;
  const uri = vscode.Uri.file(path.join(folder, newSkillRelativePath(name, format)));
  try {
    await vscode.workspace.fs.stat(uri);
    void vscode.window.showErrorMessage(`Toolshed: ${vscode.workspace.asRelativePath(uri)} already exists; choose another name.`);
    return undefined;
  } catch {
    // does not exist: good
  }
  await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(uri.fsPath)));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(newSkillTemplate(name, format)));
  const editor = await vscode.window.showTextDocument(uri);
  // Put the cursor on the first thing to change.
  const text = editor.document.getText();
  const at = Math.max(text.indexOf(format === 'skill-md' ? 'description:' : 'trigger'), 0);
  const position = editor.document.positionAt(at);
  editor.selection = new vscode.Selection(position, editor.document.lineAt(position.line).range.end);
  await source.reindexFile(uri.fsPath).catch(() => undefined);
  return uri;
}
