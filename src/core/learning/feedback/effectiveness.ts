import type { TaskType } from '../../config/settingsSchema';

/**
 * Effectiveness rules (docs/skills.md#skills-that-learn, "Feedback"): a skill whose failure
 * ratio is above 0.6 after at least five rated activations loses 0.1; a skill whose frame or
 * domain matches the request's frame gains 0.2. Learned skills are also multiplied by their
 * typed decay. Pack skills never decay.
 */

export interface SkillCounters {
  helpful: number;
  harmful: number;
}

const FAILURE_RATIO_LIMIT = 0.6;
const MIN_ACTIVATIONS = 5;
const FAILURE_PENALTY = 0.1;
const FRAME_BOOST = 0.2;

export function effectivenessPenalty(counters: SkillCounters | undefined): number {
  if (!counters) return 0;
  const activations = counters.helpful + counters.harmful;
  if (activations < MIN_ACTIVATIONS) return 0;
  return counters.harmful / activations > FAILURE_RATIO_LIMIT ? FAILURE_PENALTY : 0;
}

/** The request's frame: the chat command, or the task type detected from its words. */
export interface RequestFrame {
  command?: string;
  taskType?: TaskType;
}

export interface FrameFacts {
  task_type: TaskType;
  domain: string;
  frames: readonly string[];
}

export function frameBoost(frame: RequestFrame | undefined, skill: FrameFacts): number {
  if (!frame) return 0;
  const wanted = new Set([frame.command, frame.taskType].filter((v): v is string => !!v && v !== 'unknown').map((v) => v.toLowerCase()));
  if (wanted.size === 0) return 0;
  const own = [skill.task_type === 'unknown' ? '' : skill.task_type, skill.domain, ...skill.frames].map((v) => v.toLowerCase()).filter(Boolean);
  return own.some((v) => wanted.has(v)) ? FRAME_BOOST : 0;
}

/** score × decay + boost − penalty (decay = 1 for pack skills). */
export function adjustedScore(score: number, parts: { decay: number; boost: number; penalty: number }): number {
  return score * parts.decay + parts.boost - parts.penalty;
}
