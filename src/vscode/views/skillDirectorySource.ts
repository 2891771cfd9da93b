import type { SkillProblem } from '../../core/skills/packs/document/skillProblems';
import type { SkillScope } from '../../core/skills/store/skillScope';

/**
 * The port the Skill Directory view, the palette and the authoring commands read skills
 * through. Deliberately small and view-shaped: the source over the core skill service
 * (`skillServiceDirectorySource.ts`) implements it; tests implement it in memory.
 */

/** One skill as the sidebar shows it. */
export interface SkillView {
  readonly name: string;
  readonly title: string;
  readonly trigger: string;
  readonly description: string;
  readonly taskType: string;
  readonly tags: readonly string[];
  /** `invalid` skills failed validation (see `problems`); `inactive` ones lack a requirement. */
  readonly status: 'active' | 'inactive' | 'invalid';
  /** Why a skill is inactive or invalid (one line). */
  readonly statusReason?: string;
  /** Retired in this workspace (shown as inactive; Restore Skill brings it back). */
  readonly retired?: boolean;
  readonly problems?: readonly SkillProblem[];
  /** Absolute path of the file that defines it (absent for learned skills). */
  readonly sourceFile?: string;
  /** 1-based line of its definition in `sourceFile`. */
  readonly sourceLine?: number;
  readonly packName: string;
  readonly format?: string;
  readonly stepCount?: number;
  /** The skill's `cluster` label, when it has one. */
  readonly cluster?: string;
  /** A merged learned skill's lineage, one line per entry (see describeLineage). */
  readonly lineage?: readonly string[];
  /** The scope of a learned skill (project → tenant → global; it can be promoted). */
  readonly learnedScope?: SkillScope;
}

/** One pack (a folder or file set) with its skills. */
export interface PackView {
  readonly name: string;
  /** Folder or file the pack was loaded from. */
  readonly root?: string;
  /** `builtIn` packs ship with Toolshed; `workspace` ones live in the open folder; `cluster` is a group of the cluster view. */
  readonly kind: 'builtIn' | 'workspace' | 'user' | 'configured' | 'learned' | 'cluster';
  readonly skills: readonly SkillView[];
  /** Problems not attached to one skill (unreadable files, pack not found, …). */
  readonly problems?: readonly SkillProblem[];
}

/** A subscription function shaped like `vscode.Event<void>` (kept structural so this file stays pure). */
type ChangeEvent = (listener: () => void) => { dispose(): void };

/** Shaped like `vscode.Progress` / `vscode.CancellationToken` (structural, so this file stays pure). */
export interface ReloadProgress {
  report(value: { message?: string; increment?: number }): void;
}
export interface CancellationLike {
  readonly isCancellationRequested: boolean;
  readonly onCancellationRequested: (listener: (e: unknown) => unknown) => { dispose(): unknown };
}

export interface ReloadSummary {
  readonly packs: number;
  readonly skills: number;
  readonly problems: number;
  readonly cancelled?: boolean;
}

/** A pack's skills as the directory's summary counts them. */
export interface PackStatuses {
  readonly skills: ReadonlyArray<Pick<SkillView, 'status'>>;
}

export interface SkillDirectorySource {
  /**
   * Restricted Mode: how many workspace skills are hidden (their packs are not in `packs()`),
   * or undefined when the workspace is trusted.
   */
  restrictedMode?(): Promise<string | undefined>;
  /** The current packs, in display order. Cheap: the view calls it on every refresh. */
  packs(): readonly PackView[];
  /**
   * Only each pack's skills' statuses (what the view's description and badge count), where that is
   * cheaper than `packs()`: the view's header is kept current while the tree is not shown.
   */
  statuses?(): readonly PackStatuses[];
  /**
   * Resolves when the skill load under way at activation has finished (undefined when none is):
   * the header is counted once, from what the load leaves, not also from the list it is replacing.
   */
  firstLoad?(): Promise<unknown> | undefined;
  /** Fires when packs or skills changed (reload, file saved, settings changed). */
  readonly onDidChange: ChangeEvent;
  /** Reloads every pack; reports progress and stops early when cancelled. */
  reload(progress?: ReloadProgress, token?: CancellationLike): Promise<ReloadSummary>;
  /** Re-indexes one skill file (on save); unknown files are ignored. */
  reindexFile(file: string): Promise<void>;
  /** Removes a deleted file's skills. */
  forgetFile?(file: string): Promise<void>;
  /** The full check over all packs, including cross-file rules (duplicate names). */
  validateAll(): Promise<readonly SkillProblem[]>;
}

export function findSkill(packs: readonly PackView[], name: string): SkillView | undefined {
  for (const pack of packs) {
    const skill = pack.skills.find((s) => s.name === name);
    if (skill) return skill;
  }
  return undefined;
}
