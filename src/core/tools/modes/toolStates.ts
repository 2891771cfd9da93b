import picomatch from 'picomatch';
import { TOOL_SEARCH_TOOL_NAME } from '../../platform/toolNames';
import type { ToolState } from '../../config/settingsSchema';

/**
 * `toolshed.tools.state`: the user's own per-tool choice (glob → always | deferred | off).
 * `off` works like a personal deny list, separate from the `deny` policy so that a team's
 * policy and a user's taste never overwrite each other. The most specific pattern wins
 * (an exact name over a glob; then the longer pattern), so "all of server x off, except x_read"
 * can be written as two entries in any order.
 */

export interface ToolStateProblem {
  pattern: string;
  message: string;
}

const VALID_STATES: ReadonlySet<string> = new Set(['always', 'deferred', 'off']);
const MAX_PATTERN_LENGTH = 200;

export class ToolStates {
  readonly problems: ToolStateProblem[] = [];
  private readonly exact = new Map<string, ToolState>();
  private readonly globs: Array<{ pattern: string; test: (name: string) => boolean; state: ToolState }> = [];

  constructor(map: Readonly<Record<string, unknown>> = {}) {
    for (const [pattern, state] of Object.entries(map ?? {})) {
      if (typeof state !== 'string' || !VALID_STATES.has(state)) {
        this.problems.push({ pattern, message: `unknown state ${JSON.stringify(state)} (use "always", "deferred" or "off"); entry ignored` });
        continue;
      }
      if (pattern.trim().length === 0 || pattern.length > MAX_PATTERN_LENGTH) {
        this.problems.push({ pattern, message: `pattern must be 1–${MAX_PATTERN_LENGTH} characters; entry ignored` });
        continue;
      }
      if (!/[*?[\]{}!()+@]/.test(pattern)) {
        this.exact.set(pattern, state as ToolState);
        continue;
      }
      try {
        this.globs.push({ pattern, test: picomatch(pattern, { dot: true }), state: state as ToolState });
      } catch (error) {
        this.problems.push({ pattern, message: `not a valid glob (${error instanceof Error ? error.message : String(error)}); entry ignored` });
      }
    }
    this.globs.sort((a, b) => b.pattern.length - a.pattern.length);
  }

  get isEmpty(): boolean {
    return this.exact.size === 0 && this.globs.length === 0;
  }

  /** The user's state for a tool, if any. `tool_search` itself cannot be deferred or turned off. */
  stateOf(name: string): ToolState | undefined {
    if (name === TOOL_SEARCH_TOOL_NAME) return undefined;
    const exact = this.exact.get(name);
    if (exact) return exact;
    for (const glob of this.globs) {
      try {
        if (glob.test(name)) return glob.state;
      } catch {
        // a matcher that throws on some input is treated as not matching
      }
    }
    return undefined;
  }
}
