import { z } from 'zod';

/**
 * Activation state (docs/contracts.md#activation-scopes). Run scope: an `ActivationSet` owned by one run object.
 * Session scope: one `ActivationSet` per session id, guarded by a per-session lock so runs of
 * the same session are serialised while different sessions proceed in parallel.
 */

export type ActivationScope = 'run' | 'session';
/**
 * How a tool was activated: returned by tool_search, called by the model, restored, named by an
 * injected skill, or matched the user's request before the first round.
 */
export type ActivationSource = 'discovery' | 'first_use' | 'import' | 'skill' | 'request';

export interface ActivationRecord {
  toolName: string;
  scope: ActivationScope;
  source: ActivationSource;
  /** Human-readable why: the tool_search query, or "called by the model". */
  reason: string;
  activatedAt: number;
  calls: number;
}

export class ActivationSet {
  private readonly entries = new Map<string, ActivationRecord>();

  has(name: string): boolean {
    return this.entries.has(name);
  }

  get(name: string): ActivationRecord | undefined {
    return this.entries.get(name);
  }

  /** Adds an activation; returns false when the tool was already active. */
  add(record: ActivationRecord): boolean {
    if (this.entries.has(record.toolName)) return false;
    this.entries.set(record.toolName, record);
    return true;
  }

  countCall(name: string): void {
    const entry = this.entries.get(name);
    if (entry) entry.calls++;
  }

  list(): ActivationRecord[] {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Serialised session activations, e.g. carried in `ChatResult.metadata`. */
export const sessionSnapshotSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  activations: z.array(
    z.object({
      toolName: z.string(),
      source: z.enum(['discovery', 'first_use', 'import', 'skill', 'request']),
      reason: z.string(),
      activatedAt: z.number(),
      calls: z.number().int().min(0),
    }),
  ),
});
export type SessionSnapshot = z.infer<typeof sessionSnapshotSchema>;

/** A FIFO async mutex: `acquire()` resolves with a release function. */
class AsyncLock {
  private tail: Promise<void> = Promise.resolve();
  private holders = 0;

  get busy(): boolean {
    return this.holders > 0;
  }

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => next);
    this.holders++;
    return previous.then(() => {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        this.holders--;
        release();
      };
    });
  }
}

export interface SessionState {
  readonly id: string;
  readonly activations: ActivationSet;
  readonly lock: AsyncLock;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, SessionState>();

  get(id: string): SessionState {
    let state = this.sessions.get(id);
    if (!state) {
      state = { id, activations: new ActivationSet(), lock: new AsyncLock() };
      this.sessions.set(id, state);
    }
    return state;
  }

  peek(id: string): SessionState | undefined {
    return this.sessions.get(id);
  }

  ids(): string[] {
    return [...this.sessions.keys()];
  }

  /** Forgets a session's activations (the lock object stays, so waiting runs are unaffected). */
  clear(id?: string): void {
    if (id === undefined) for (const state of this.sessions.values()) state.activations.clear();
    else this.sessions.get(id)?.activations.clear();
  }
}
