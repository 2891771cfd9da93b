import type { TaskType } from '../../config/settingsSchema';

/** Typed decay: half-lives in days by task type (browser flows rot fastest). */
export const HALF_LIFE_DAYS: Readonly<Record<TaskType, number>> = { browser: 7, api: 90, code: 180, domain: 365, unknown: 30 };

/** Below this the injected text carries a staleness warning. */
export const STALE_DECAY = 0.25;

const DAY_MS = 24 * 60 * 60 * 1000;

/** `2^(-days / half_life)`, 1 for a skill used now (or in the future: clocks drift). */
export function decayFactor(taskType: TaskType, lastValidatedAt: number, now: number): number {
  const days = Math.max(0, (now - lastValidatedAt) / DAY_MS);
  const halfLife = HALF_LIFE_DAYS[taskType] ?? HALF_LIFE_DAYS.unknown;
  return 2 ** (-days / halfLife);
}

export function daysSince(at: number, now: number): number {
  return Math.max(0, Math.floor((now - at) / DAY_MS));
}
