import type * as vscode from 'vscode';
import type { Logger } from '../core/platform/ports';

/** What one change touched. */
export interface SkillChange {
  /**
   * The skill list itself changed — packs loaded or a file re-indexed; a learned skill approved, merged, un-merged, imported,
   * promoted, retired by an export or changed by another window — so whatever was read from it is stale. False when only
   * proposals, feedback counters or whether learning is on changed.
   */
  readonly skills: boolean;
}

/**
 * The one change event for what the skill views show: packs, learned skills, proposals and feedback counters. The service
 * layer fires it (the pack manager, learning's writes, the shared-store sync), once per change and after the change is
 * made; the Skill Directory subscribes once. Commands and tools write through the services and never refresh a view.
 * Plain TypeScript (no runtime `vscode`), so it is tested in Node.
 */
export class SkillChanges {
  private readonly listeners = new Set<(change: SkillChange) => void>();

  constructor(private readonly logger: Pick<Logger, 'error'>) {}

  readonly onDidChange: vscode.Event<SkillChange> = (listener, thisArgs?: unknown, disposables?: vscode.Disposable[]) => {
    const bound = (change: SkillChange) => listener.call(thisArgs, change);
    this.listeners.add(bound);
    const subscription = { dispose: () => void this.listeners.delete(bound) };
    disposables?.push(subscription);
    return subscription;
  };

  fire(change: SkillChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        // One failing view must not keep the others stale (vscode.EventEmitter behaves the same way);
        // the failure goes to Toolshed's own log, where every other problem is reported.
        this.logger.error(`A skill change listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
