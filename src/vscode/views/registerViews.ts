import type * as vscode from 'vscode';
import type { ActivityRegistry } from '../state/activityRegistry';
import type { PinnedSkills } from '../state/pinnedSkills';
import { registerActivatedToolsView } from './activatedToolsView';
import type { SkillDirectorySource } from './skillDirectorySource';
import type { DirectoryGroup } from './directoryGroup';
import { registerSkillDirectoryView } from './skillDirectoryView';
import type { DirectoryGrouping } from './skillDirectoryView';
import type { ToolDetailsProvider } from './toolDetails';
import type { TreeViewSlots } from '../servicesOpening';

export interface ViewsDeps {
  /** The views created at activation, which these registrations attach their providers to. */
  readonly views: TreeViewSlots;
  readonly skills: SkillDirectorySource;
  readonly pinned: PinnedSkills;
  readonly activity: ActivityRegistry;
  readonly tools: ToolDetailsProvider;
  /** Extra Skill Directory groups (learning's Proposed skills). */
  readonly directoryGroups?: readonly DirectoryGroup[];
  /** By pack (default) or by cluster (`toolshed.skills.directoryGroupBy`). */
  readonly directoryGrouping?: DirectoryGrouping;
}

/** The Toolshed sidebar: Skill Directory and Activated Tools, with their commands. */
export function registerViews(context: vscode.ExtensionContext, deps: ViewsDeps): void {
  registerSkillDirectoryView(context, deps.views, deps.skills, deps.pinned, deps.directoryGroups, deps.directoryGrouping);
  registerActivatedToolsView(context, deps.views, deps.activity, deps.tools);
}
