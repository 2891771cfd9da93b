import * as vscode from 'vscode';
import type { LedgerStore } from '../core/ledger/ledgerStore';
import type { LedgerReport } from '../core/ledger/ledgerReport';
import type { Logger, ToolshedEvent } from '../core/platform/ports';
import { TurnLedger, type LedgerSources as TurnLedgerSources } from '../core/planner/turnLedger';
import type { ToolshedSettings } from '../core/config/settingsSchema';
import type { SkillService } from '../core/skills/skillService';
import type { ToolSearchService } from '../core/tools/toolSearchService';
import { workspaceDoorFolders } from './doorFolders';
import type { CoreSetEntry } from '../core/ledger/ledgerStore';
import { importDoorJournal } from '../core/runtimes/doors/importDoorJournal';

/** What the ledger reads of the catalog and the settings: what a turn's envelope reads, and where the doors' journals are. */
export interface LedgerSources extends TurnLedgerSources {
  /** The door folders of this window's workspace folders: their journals hold the hook's and the MCP server's decisions. */
  doorFolders?: readonly string[];
}

/** The services the ledger reads its sources from, when it needs them. */
export interface LedgerServices {
  tools: Pick<ToolSearchService, 'registryMap' | 'isPolicyAllowed'>;
  skills: Pick<SkillService, 'inspect'>;
  settings: { readonly current: Pick<ToolshedSettings, 'tools'> };
}

/** How long after a turn the ledger is written to disk (turns in between share one write). */
const SAVE_DELAY_MS = 2000;

/**
 * This workspace's ledger (`ledger.db`): every @toolshed turn is recorded by the turn's own
 * envelope (`turns`, run by `runToolshedTurn`), 👍/👎 are counted for the skills they rated, and
 * the Ledger view and `/tools` read it. Writes go to memory at once and to disk a moment later
 * (and on deactivate).
 */
export class WorkspaceLedger implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly retiredChange = new vscode.EventEmitter<void>();
  /** Fires when a skill is retired or restored (the Skill Directory follows it, not every turn). */
  readonly onDidChangeRetired = this.retiredChange.event;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private retired: ReadonlySet<string> | undefined;
  /** The envelope `runToolshedTurn` runs around each @toolshed turn: the core set applied, the turn recorded, the core set learned. */
  readonly turns: TurnLedger;

  constructor(
    private readonly store: LedgerStore,
    private readonly services: LedgerServices,
    private readonly logger: Logger,
    now: () => number = Date.now,
  ) {
    this.turns = new TurnLedger({ store, sources: () => this.sources(), clock: { now }, logger, wrote: () => this.wrote() });
  }

  /**
   * 👍/👎 reach the ledger the way they reach everything else: learning's `skill_feedback` event
   * (other events are ignored; bound, so it is passed as it is).
   */
  readonly followFeedback = (event: ToolshedEvent): void => {
    if (event.type !== 'skill_feedback') return;
    const payload = event.payload as { names?: unknown; outcome?: unknown };
    const names = Array.isArray(payload.names) ? payload.names.filter((name): name is string => typeof name === 'string') : [];
    this.recordFeedback(names, payload.outcome === 'helpful');
  };

  /** The catalog and the settings as they are now, and this window's door folders. */
  private sources(): LedgerSources {
    const { tools, skills, settings } = this.services;
    return {
      registry: tools.registryMap(),
      skill: (name) => skills.inspect(name),
      userStates: settings.current.tools.state,
      isPolicyAllowed: (name) => tools.isPolicyAllowed(name),
      doorFolders: workspaceDoorFolders(),
    };
  }

  /** Undo of one promotion (the Ledger view's row action): not promoted again until a reset. */
  undoPromotion(tool: string): void {
    this.store.undoPromotion(tool);
    this.wrote();
  }

  /** Forgets the learned core set (the reset command). */
  resetCoreSet(): void {
    this.store.resetCoreSet();
    this.wrote();
  }

  /**
   * Retires a skill in this workspace: from the next request on it is neither injected, chosen
   * nor found by skill search (the request context carries the names). False when its name
   * cannot be kept as it is.
   */
  retireSkill(skill: string): boolean {
    const done = this.store.retireSkill(skill);
    if (done) this.retiredChanged();
    return done;
  }

  /** Brings a retired skill back (Restore in the Ledger view). */
  restoreSkill(skill: string): boolean {
    const done = this.store.restoreSkill(skill);
    if (done) this.retiredChanged();
    return done;
  }

  /** Names of the retired skills (read on every request, so kept in memory between changes). */
  retiredSkillNames(): ReadonlySet<string> {
    this.retired ??= new Set(this.store.report(1).retiredSkills.map((row) => row.skill));
    return this.retired;
  }

  private retiredChanged(): void {
    this.retired = undefined;
    this.wrote();
    this.retiredChange.fire();
  }

  coreSet(): CoreSetEntry[] {
    const sources = this.sources();
    return this.store.coreSet().filter((entry) => sources.isPolicyAllowed(entry.tool));
  }

  recordFeedback(skills: readonly string[], helpful: boolean): void {
    if (skills.length === 0) return;
    this.store.recordFeedback(skills, helpful);
    this.wrote();
  }

  /** The period's ledger without the tools the policy denies now (a denied tool is never named), door decisions counted up to now. */
  report(days: number): LedgerReport {
    const sources = this.sources();
    this.importDoors(sources.doorFolders ?? []);
    return this.store.report(days, (tool) => sources.isPolicyAllowed(tool));
  }

  /**
   * Counts the hook's and the MCP server's decisions that their journals hold and the ledger has
   * not counted (the offset is saved with the counts, so a later save by any window never loses
   * or doubles one). A damaged line is skipped and logged.
   */
  importDoors(folders: readonly string[]): void {
    let imported = 0;
    for (const folder of folders) {
      try {
        const result = importDoorJournal(this.store, folder);
        imported += result.imported;
        for (const line of result.skipped) this.logger.warn(`Ledger: door journal in ${folder}: skipped ${line}`);
      } catch (error) {
        this.logger.warn(`Ledger: the door journal in ${folder} was not read (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    if (imported > 0) this.saveLater();
  }

  /** Tells the views; the file is written a moment later. */
  wrote(): void {
    this.changed.fire();
    this.saveLater();
  }

  private saveLater(): void {
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
    this.retiredChange.dispose();
  }
}
