import { isSecretShapedName } from '../../privacy/redaction';

/**
 * What one finished @toolshed turn leaves for learning: plain data collected by the adapter
 * from the planner loop (request, the tool calls it ran in order, their outcome). Values of
 * tool arguments are kept here only until extraction; nothing downstream stores them.
 */

export interface TrajectoryCall {
  tool: string;
  /** The arguments as the model sent them (only their shape is ever kept). */
  input: unknown;
  ok: boolean;
  /** Error text when the call failed (redacted and normalised before anything keeps it). */
  error?: string;
}

export interface Trajectory {
  /** The conversation (TurnSession id) — failure signatures count separate conversations. */
  sessionId: string;
  request: string;
  /** The chat command (`/learn`, …) or undefined for a plain request. */
  command?: string;
  calls: TrajectoryCall[];
  stoppedBecause: 'done' | 'maxRounds' | 'cancelled';
  /** Skills injected or fetched in the turn. */
  skillsUsed: string[];
  at: number;
}

/**
 * Names of the top-level fields of a tool input (never their values), sorted. A key that is
 * itself a secret or an id (`{"ghp_…": true}`, a map keyed by tokens) is a value, so it is left out.
 */
export function argumentShape(input: unknown): string[] {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return [];
  return Object.keys(input as Record<string, unknown>)
    .filter((key) => /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/.test(key) && !isSecretShapedName(key))
    .sort();
}

/** Whether a turn qualifies for positive extraction: finished normally, ≥ 2 successful calls. */
export function isLearnable(trajectory: Trajectory): boolean {
  return trajectory.stoppedBecause === 'done' && trajectory.calls.filter((call) => call.ok).length >= 2;
}

/**
 * The trajectory as learning may keep it: request and errors depersonalized, tool inputs reduced
 * to the names of their fields. Runs before anything is queued, persisted, logged or extracted.
 */
export function sanitizeTrajectory(trajectory: Trajectory, clean: (text: string) => string): Trajectory {
  return {
    ...trajectory,
    request: clean(trajectory.request).slice(0, 2000),
    calls: trajectory.calls.slice(0, 64).map((call) => ({
      tool: call.tool,
      input: Object.fromEntries(argumentShape(call.input).map((field) => [field, null])),
      ok: call.ok,
      ...(call.error !== undefined ? { error: clean(call.error).slice(0, 500) } : {}),
    })),
  };
}
