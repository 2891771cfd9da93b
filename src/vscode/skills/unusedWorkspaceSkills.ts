import * as vscode from 'vscode';
import { parseJsonWithComments } from '../../core/schema/jsonWithComments';
import type { UnusedSkillSource, UnusedWorkspaceSkills } from '../../core/trust/restrictedMode';
import { skillSourceFolder } from '../../core/skills/packs/skillSourceFolder';
import { SKILL_FILE_GLOB } from '../../core/skills/packs/document/skillFileNames';

/** Skill files counted at most (a notice, not an index). */
const MAX_FILES = 5000;

/**
 * What an untrusted workspace supplies that Toolshed does not use: its skill files by folder
 * (`.github/skills`, `.claude/skills`, `.agents/skills`, any folder of `*.skill.*` files) and
 * the packs its `.vscode/settings.json` configures — which VS Code does not even apply in
 * Restricted Mode, so nothing was loaded from them and the loaded packs alone would say "none".
 * Undefined in a trusted workspace. Reading the files to count them is not using them.
 */
export async function unusedWorkspaceSkills(): Promise<UnusedWorkspaceSkills | undefined> {
  if (vscode.workspace.isTrusted) return undefined;
  const counts = new Map<string, number>();
  for (const uri of await vscode.workspace.findFiles(SKILL_FILE_GLOB, '**/node_modules/**', MAX_FILES)) {
    const folder = skillSourceFolder(vscode.workspace.asRelativePath(uri, false));
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  const sources: UnusedSkillSource[] = [...counts].map(([folder, files]) => ({ folder, files })).sort((a, b) => (a.folder < b.folder ? -1 : 1));
  return { sources, settingsPacks: await packsInWorkspaceSettings() };
}

async function packsInWorkspaceSettings(): Promise<string[]> {
  const names: string[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json')));
    } catch {
      continue; // no workspace settings
    }
    const packs = (parseJsonWithComments(text) as Record<string, unknown> | undefined)?.['toolshed.skills.packs'];
    if (!Array.isArray(packs)) continue;
    for (const pack of packs) {
      const name = (pack as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}
