import type { SkillService } from '../skills/skillService';

/**
 * What learning needs from the skill store — nothing more (the SkillService satisfies it):
 * whether a name is taken (and by a pack or a learned skill), adding an approved skill as a
 * small delta, removing one, writing back a merged (or un-merged, or imported) learned record,
 * and the counters of shared learned skills. Learning never rewrites the store.
 */
export type LearnedSkillPort = Pick<
  SkillService,
  | 'inspect'
  | 'addLearnedSkill'
  | 'removeLearnedSkill'
  | 'learnedSkills'
  | 'learnedSkill'
  | 'clusteredSkills'
  | 'packSkillNames'
  | 'restoreLearnedSkills'
  | 'addSharedCounters'
  | 'sharedCounters'
>;
