import type { ToolCandidateExplanation, TurnExplanation } from '../../core/planner/turn/turnExplanation';

/** Chat sessions whose last turn is kept; the oldest is dropped first. */
const MAX_SESSIONS = 50;

/**
 * The last @toolshed turn of each chat session, as the turn recorded it (Explain Last Turn):
 * in memory only, never written anywhere, gone when the window closes. The request in it is
 * already redacted.
 */
export class TurnExplanations {
  private readonly bySession = new Map<string, TurnExplanation>();

  record(sessionId: string, explanation: TurnExplanation): void {
    // Re-inserted so the map's order is the order of the latest turns.
    this.bySession.delete(sessionId);
    this.bySession.set(sessionId, explanation);
    if (this.bySession.size > MAX_SESSIONS) this.bySession.delete(this.bySession.keys().next().value as string);
  }

  /** The last turn of one chat session. */
  forSession(sessionId: string): TurnExplanation | undefined {
    return this.bySession.get(sessionId);
  }

  /** The last turn of any session in this window. */
  latest(): TurnExplanation | undefined {
    return [...this.bySession.values()].at(-1);
  }

  /** Each tool pre-activation looked at in the latest turns, as the newest of them decided (Manage Tools). */
  toolCandidates(): Map<string, ToolCandidateExplanation> {
    const byName = new Map<string, ToolCandidateExplanation>();
    for (const turn of [...this.bySession.values()].reverse())
      for (const candidate of turn.tools.candidates) if (!byName.has(candidate.name)) byName.set(candidate.name, candidate);
    return byName;
  }
}
