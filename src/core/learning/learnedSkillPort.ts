import type { TaskType } from '../config/settingsSchema';
import type { SkillRecord } from '../skills/skillSchema';
import type { LearnedSkillInput } from '../skills/store/skillRecords';
import type { SharedCounters } from '../skills/store/learned/sharedSkillStore';
import type { SkillIdentity, SkillScope } from '../skills/store/skillScope';

/**
 * What learning needs from the skill store — nothing more (the SkillService satisfies it):
 * whether a name is taken (and by a pack or a learned skill), adding an approved skill as a
 * small delta, removing one, writing back a merged (or un-merged, or imported) learned record.
 * Learning never rewrites the store.
 */
export interface LearnedSkillPort {
  inspect(name: string): { origin: 'pack' | 'learned'; task_type: TaskType; domain: string; frames: string[]; created_at: number; steps: string[] } | undefined;
  addLearnedSkill(input: LearnedSkillInput): Promise<{ name: string }>;
  /** `scope` names which learned skill when several scopes hold one of that name. */
  removeLearnedSkill(name: string, scope?: SkillScope): Promise<boolean>;
  /** Every learned skill (merge candidates, export); usage counts may lag — see learnedSkill. */
  learnedSkills(): SkillRecord[];
  /** One learned skill of one scope, read fresh (before writing a merge of it back). */
  learnedSkill(identity: SkillIdentity): SkillRecord | undefined;
  /** Active skills a project sees that carry a `cluster` (pack and learned): cluster suggestions on approval. */
  clusteredSkills(projectId: string): SkillRecord[];
  /** Names of all pack skills (any scope). */
  packSkillNames(): Set<string>;
  /** Stores learned records exactly as given (a merge, its undo, an import), all or nothing. */
  restoreLearnedSkills(records: readonly SkillRecord[]): Promise<void>;
  /**
   * Feedback on shared (tenant/global) learned skills goes to the store every window shares, as
   * increments, so 👍 in two windows counts twice; returns the totals of the names it took.
   */
  addSharedCounters(deltas: readonly SharedCounters[]): Promise<SharedCounters[]>;
  /** A shared learned skill's counters summed over every window, or undefined (not shared). */
  sharedCounters(name: string): SharedCounters | undefined;
}
