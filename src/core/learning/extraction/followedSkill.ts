import { NameFinder } from '../../search/nameFinder';
import type { LearnedCandidate } from './learnedCandidate';
import type { LearnedSkillPort } from '../learnedSkillPort';
import type { LearningStore } from '../learningStore';
import type { EventSink, Logger } from '../../platform/ports';

/**
 * Whether a turn just followed a skill it was given: every tool the turn ran successfully is
 * named in the steps of one injected (or fetched) skill. Such a turn teaches nothing new —
 * proposing it again would put a near-copy of the skill in Proposed each time the skill is
 * used — so learning counts it as a use of that skill instead.
 */

export interface UsedSkillSteps {
  name: string;
  steps: readonly string[];
}

/** The first used skill whose steps name every tool of the candidate, or undefined. */
export function followedSkill(candidate: Pick<LearnedCandidate, 'citations'>, used: readonly UsedSkillSteps[]): string | undefined {
  const tools = [...new Set(candidate.citations.tools)];
  if (tools.length === 0) return undefined;
  const finder = new NameFinder(tools);
  for (const skill of used) {
    const named = new Set(finder.occurringIn(skill.steps.join('\n')));
    if (tools.every((tool) => named.has(tool))) return skill.name;
  }
  return undefined;
}

/** The steps of the skills a turn used, as the store has them (a name no longer there is skipped). */
export function usedSkillSteps(skills: Pick<LearnedSkillPort, 'inspect'>, names: readonly string[]): UsedSkillSteps[] {
  return names.flatMap((name) => {
    const record = skills.inspect(name);
    return record ? [{ name, steps: record.steps }] : [];
  });
}

/**
 * A followed skill counts as used: +1 use and its decay renewed, by small deltas (written with
 * the ingestion's save; a shared skill's also to the store every window shares).
 */
export function countSkillUse(
  name: string,
  deps: { store: Pick<LearningStore, 'addCountersMany'>; skills: Pick<LearnedSkillPort, 'addSharedCounters'>; logger: Logger; events: EventSink; now: number },
): void {
  const delta = { name, helpful: 0, harmful: 0, use_count: 1, last_used: deps.now, last_validated: deps.now };
  deps.store.addCountersMany([delta]);
  void deps.skills.addSharedCounters([delta]).catch((error: unknown) => {
    deps.logger.warn(
      `A use of "${name}" counted in this window only (the shared skill store was not available): ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  deps.events.emit({ type: 'skill_ingested', payload: { skill_id: name, name, action: 'followed' } });
}
