import type * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { ToolRun } from '../../core/tools/toolRun';
import type { ToolshedServices } from '../services';
import { previousTurnMetadata, type ToolshedTurnMetadata } from './sessionMetadata';

/** What a conversation's turn uses: activations and their scope, the session's label, tool visibility. */
export type TurnSessionServices = Pick<ToolshedServices, 'activity' | 'settings' | 'tools' | 'logger' | 'toolVisibility'>;

/**
 * The conversation a request belongs to, reconstructed from the previous @toolshed turn's
 * metadata: its stable session id, label, pinned skills and — with session-scoped activation —
 * the tools activated in earlier turns (unless the user cleared them since).
 */
export class TurnSession {
  readonly pinnedSkills: string[];

  private constructor(
    private readonly services: TurnSessionServices,
    readonly sessionId: string,
    readonly sessionLabel: string,
    private readonly previous: ToolshedTurnMetadata | undefined,
    readonly command: string | undefined,
  ) {
    this.pinnedSkills = [...(previous?.pinnedSkills ?? [])];
    services.activity.setSessionLabel(sessionId, sessionLabel);
  }

  static fromRequest(request: vscode.ChatRequest, chatContext: vscode.ChatContext, services: TurnSessionServices): TurnSession {
    const previous = previousTurnMetadata(chatContext);
    const label = previous?.sessionLabel ?? (request.prompt.trim().slice(0, 60) || `/${request.command ?? 'chat'}`);
    return new TurnSession(services, previous?.sessionId ?? randomUUID(), label, previous, request.command);
  }

  /** The skills active in the conversation's latest @toolshed answer (for `/skills`). */
  get lastActiveSkills(): Array<{ name: string; reason?: string }> {
    return this.previous?.activeSkills ?? [];
  }

  get isSessionScope(): boolean {
    return this.services.settings.current.toolSearch.activationScope === 'session';
  }

  /**
   * Starts this request's tool run. Session scope: restores earlier activations first (once per
   * session, idempotent) and holds the session's lock until the run ends — requests of one
   * conversation are serialised, different conversations run in parallel.
   */
  async startRun(): Promise<ToolRun> {
    const tools = this.services.tools;
    if (this.isSessionScope && this.previous?.activations && !this.services.activity.isCleared(this.sessionId, this.previous.recordedAt)) {
      try {
        await tools.importSession(this.previous.activations);
      } catch (error) {
        this.services.logger.warn(`Could not restore session activations: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return tools.startRun({ sessionId: this.sessionId, isVisible: this.services.toolVisibility() });
  }

  exportActivations(): unknown {
    return this.isSessionScope ? this.services.tools.exportSession(this.sessionId) : undefined;
  }

  metadataBase(): ToolshedTurnMetadata {
    return {
      sessionId: this.sessionId,
      sessionLabel: this.sessionLabel,
      recordedAt: Date.now(),
      pinnedSkills: this.pinnedSkills,
      activeSkills: this.previous?.activeSkills,
      command: this.command,
      activations: this.previous?.activations,
    };
  }
}
