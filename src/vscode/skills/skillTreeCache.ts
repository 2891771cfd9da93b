import type * as vscode from 'vscode';
import type { SkillService, SkillTreePack } from '../../core/skills/skillService';
import type { SkillChange } from '../skillChanges';

/**
 * The skill list by pack, read once per change of it. After every load the Skill Directory's
 * summary, the skill scripts and VS Code's own agent skills each need it, and each reading
 * decodes every stored skill (about half a second at 10,000 skills): reading it once here keeps
 * that cost from being paid three times on the extension host. Create it before anything else
 * subscribes to `changes`, so it is cleared before they read it.
 */
export class SkillTreeCache {
  private tree: SkillTreePack[] | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly skills: Pick<SkillService, 'listPacks' | 'inspect'>,
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

  inspect(name: string): ReturnType<SkillService['inspect']> {
    return this.skills.inspect(name);
  }

  dispose(): void {
    this.subscription.dispose();
    this.tree = undefined;
  }
}
