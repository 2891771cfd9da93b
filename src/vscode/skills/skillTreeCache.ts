import type * as vscode from 'vscode';
import type { SkillService, SkillTreePack } from '../../core/skills/skillService';
import type { SkillChange } from '../skillChanges';

/**
 * The skill list by pack, read once per change of it, and only when the Skill Directory's tree is
 * shown: a reading decodes the tree columns of every stored skill (≈ 0.1 s at 10,000 skills). What
 * runs after every load reads less — the header's counts (`SkillService.packStatuses`, from
 * memory), skill scripts (`skillsWithScripts`), VS Code's own agent skills (`packSkillFiles`, of
 * the packs that may hold them) — so a start builds no list nobody looks at. Create it before
 * anything else subscribes to `changes`, so it is cleared before they read it.
 */
export class SkillTreeCache {
  private tree: SkillTreePack[] | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly skills: Pick<SkillService, 'listPacks'>,
    changes: vscode.Event<SkillChange>,
  ) {
    this.subscription = changes((change) => {
      if (change.skills) this.tree = undefined;
    });
  }

  /** `SkillService.listPacks()` as of the latest change of the skill list (callers must not modify it). */
  listPacks(): SkillTreePack[] {
    this.tree ??= this.skills.listPacks();
    return this.tree;
  }

  dispose(): void {
    this.subscription.dispose();
    this.tree = undefined;
  }
}
