import type * as vscode from 'vscode';

/**
 * An extra top-level group in the Skill Directory, owned by another concern (learning's
 * "Proposed" skills): the view asks it for roots, children and tree items, and lets it add a
 * short suffix to a skill's description (feedback counts). Keeps that concern out of the view.
 */
export interface DirectoryGroup<T = unknown> {
  /** For what changes apart from the skill change event (which the view follows already). */
  readonly onDidChange?: vscode.Event<void>;
  roots(): T[];
  children(node: T): T[];
  treeItem(node: T): vscode.TreeItem;
  skillSuffix?(name: string): string | undefined;
}
