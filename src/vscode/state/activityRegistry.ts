import * as vscode from 'vscode';
import { describeDeferral, type DeferralDecision } from '../../core/tools/modes/deferralDecision';
import { Disposable } from '../lifecycle';

/** One tool made visible in a chat session, for the Activated Tools view. */
export interface ActivationEntry {
  toolName: string;
  /** The chat session (conversation) it belongs to. */
  sessionId: string;
  /** A short label for the session (its first prompt). */
  sessionLabel: string;
  scope: 'run' | 'session';
  /** How it became visible: found by `tool_search`, or called directly (first use). */
  source: 'search' | 'call';
  /** The query or call that activated it. */
  reason: string;
  at: number;
  calls: number;
}

/**
 * Shared, observable state between the chat participant (which activates tools and pins
 * skills) and the views/commands that show and clear it. Lives for the extension's lifetime;
 * per-conversation state that must survive a reload travels in `ChatResult.metadata` instead.
 */
export class ActivityRegistry extends Disposable {
  private readonly entries = new Map<string, ActivationEntry>();
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly cleared = this._register(new vscode.EventEmitter<string | undefined>());
  /** Fires with the cleared session id (undefined: all sessions), so the tool service forgets them too. */
  readonly onDidClear = this.cleared.event;
  /** Size of the deferred catalog at the last sync (shown in the view description). */
  deferredCatalogSize = 0;
  private readonly sessionLabels = new Map<string, string>();

  /** Names a chat session in the view (its first prompt). */
  setSessionLabel(sessionId: string, label: string): void {
    this.sessionLabels.set(sessionId, label);
  }

  sessionLabel(sessionId: string): string {
    return this.sessionLabels.get(sessionId) ?? sessionId;
  }

  private key(sessionId: string, toolName: string): string {
    return `${sessionId}\u0000${toolName}`;
  }

  recordActivation(entry: Omit<ActivationEntry, 'calls'>): void {
    const key = this.key(entry.sessionId, entry.toolName);
    const existing = this.entries.get(key);
    this.entries.set(key, { ...entry, calls: existing?.calls ?? 0 });
    this.changed.fire();
  }

  recordCall(sessionId: string, toolName: string): void {
    const existing = this.entries.get(this.key(sessionId, toolName));
    if (!existing) return;
    existing.calls++;
    this.changed.fire();
  }

  /**
   * A tool run outside @toolshed (agent mode's `tool_invoke`): listed by what was invoked, one
   * entry per tool with its call count — searches there change no tool list, so they are not shown.
   */
  recordInvocation(entry: Omit<ActivationEntry, 'calls' | 'source' | 'scope'>): void {
    const key = this.key(entry.sessionId, entry.toolName);
    const existing = this.entries.get(key);
    this.entries.set(key, { ...entry, scope: 'session', source: 'call', calls: (existing?.calls ?? 0) + 1 });
    this.changed.fire();
  }

  /** The latest tool-search decision as one line ("43 tools, 9.8k tokens = 7 % of 128k: all sent"). */
  deferralSummary: string | undefined;

  /** Shows a send-or-defer decision in the sidebar (follows `ToolModes.onDidDecide`; bound, so it is passed as it is). */
  readonly showDeferral = (decision: DeferralDecision): void => this.setDeferralSummary(describeDeferral(decision));

  setDeferralSummary(summary: string): void {
    if (summary === this.deferralSummary) return;
    this.deferralSummary = summary;
    this.changed.fire();
  }

  setDeferredCatalogSize(size: number): void {
    if (size === this.deferredCatalogSize) return;
    this.deferredCatalogSize = size;
    this.changed.fire();
  }

  /** All activations, newest first. */
  all(): ActivationEntry[] {
    return [...this.entries.values()].sort((a, b) => b.at - a.at);
  }

  sessions(): Array<{ sessionId: string; label: string; entries: ActivationEntry[] }> {
    const bySession = new Map<string, { sessionId: string; label: string; entries: ActivationEntry[] }>();
    for (const entry of this.all()) {
      const group = bySession.get(entry.sessionId) ?? { sessionId: entry.sessionId, label: entry.sessionLabel, entries: [] };
      group.entries.push(entry);
      bySession.set(entry.sessionId, group);
    }
    return [...bySession.values()];
  }

  /** Forgets activations (of one session, or all); the participant consults `isCleared`. */
  clear(sessionId?: string): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (!sessionId || entry.sessionId === sessionId) this.entries.delete(key);
    }
    if (sessionId) this.clearedAt.set(sessionId, now);
    else this.clearedAllAt = now;
    this.cleared.fire(sessionId);
    this.changed.fire();
  }

  /** When each session was last cleared (a later turn may activate and carry tools again). */
  private readonly clearedAt = new Map<string, number>();
  private clearedAllAt = 0;

  /**
   * Whether session-scoped activations carried in a conversation's metadata (recorded at
   * `recordedAt`) were cleared by the user since, so the participant must not restore them.
   */
  isCleared(sessionId: string, recordedAt: number): boolean {
    return recordedAt <= Math.max(this.clearedAt.get(sessionId) ?? 0, this.clearedAllAt);
  }
}
