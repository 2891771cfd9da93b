import * as vscode from 'vscode';
import type { LedgerStore } from '../core/ledger/ledgerStore';
import type { LedgerReport } from '../core/ledger/ledgerReport';
import type { LedgerTurn } from '../core/ledger/ledgerTurn';
import type { Logger } from '../core/platform/ports';
import type { PlannerOutcome } from '../core/planner/plannerLoop';
import { recordTurn, type TurnLedgerSources } from '../core/planner/turnLedger';

/** How long after a turn the ledger is written to disk (turns in between share one write). */
const SAVE_DELAY_MS = 2000;

/**
 * This workspace's ledger (`ledger.db`): every @toolshed turn is recorded from the outcome its
 * footer was written from, 👍/👎 are counted for the skills they rated, and the Ledger view and
 * `/tools` read it. Writes go to memory at once and to disk a moment later (and on deactivate).
 */
export class WorkspaceLedger implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: LedgerStore,
    private readonly sources: () => TurnLedgerSources,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  recordTurn(outcome: Pick<PlannerOutcome, 'rounds' | 'tokens' | 'usedSkills'>): LedgerTurn | undefined {
    try {
      const entry = recordTurn(this.store, outcome, this.sources(), this.now());
      this.wrote();
      return entry;
    } catch (error) {
      // The answer is already shown: a ledger that cannot count must not fail the turn.
      this.logger.warn(`Ledger: the turn was not recorded (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    }
  }

  recordFeedback(skills: readonly string[], helpful: boolean): void {
    if (skills.length === 0) return;
    this.store.recordFeedback(skills, helpful);
    this.wrote();
  }

  report(days: number): LedgerReport {
    return this.store.report(days);
  }

  /** The store itself, for the learned core set (promotions and undo). */
  get ledger(): LedgerStore {
    return this.store;
  }

  /** Tells the views; the file is written a moment later. */
  wrote(): void {
    this.changed.fire();
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.store.save().catch((error: unknown) => this.logger.warn(`Ledger not saved: ${error instanceof Error ? error.message : String(error)}`));
    }, SAVE_DELAY_MS);
  }

  /** Writes a pending save now. */
  async flush(): Promise<void> {
    if (!this.saveTimer) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    await this.store.save();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
