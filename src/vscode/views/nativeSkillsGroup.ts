import * as vscode from 'vscode';
import { nativeSkillsLine } from '../../core/skills/packs/nativeAgentSkills';
import type { DirectoryGroup } from './directoryGroup';

/** What the group reads: the skills VS Code's own agent skills offer (NativeAgentSkills satisfies it). */
export interface NativeSkillNames {
  readonly onDidChange: vscode.Event<void>;
  names(): ReadonlySet<string>;
}

type NativeNode = { kind: 'summary'; count: number };

/** The Skill Directory's note on which skills VS Code offers too, and a suffix on each of them. */
export function nativeSkillsGroup(native: NativeSkillNames): DirectoryGroup<NativeNode> {
  return {
    onDidChange: native.onDidChange,
    roots: () => {
      const count = native.names().size;
      return count > 0 ? [{ kind: 'summary', count }] : [];
    },
    children: () => [],
    treeItem: (node) => {
      const item = new vscode.TreeItem(nativeSkillsLine(node.count), vscode.TreeItemCollapsibleState.None);
      item.id = 'nativeAgentSkills';
      item.iconPath = new vscode.ThemeIcon('info');
      item.tooltip =
        `Skills marked "VS Code agent skill" live in a folder of chat.agentSkillsLocations. ` +
        `Set chat.useAgentSkills to false to have Toolshed offer them in agent mode instead.`;
      item.contextValue = 'nativeAgentSkills';
      return item;
    },
    skillSuffix: (name) => (native.names().has(name) ? 'VS Code agent skill' : undefined),
  };
}
