import * as os from 'node:os';
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { LearningConfig } from '../../core/config/settingsSchema';
import { LearningService } from '../../core/learning/learningService';
import type { CandidateExtractor, IngestResult } from '../../core/learning/learningService';
import { LearningStore } from '../../core/learning/learningStore';
import type { Trajectory } from '../../core/learning/extraction/trajectory';
import type { EventSink, Logger, ByteStore } from '../../core/platform/ports';
import { systemClock } from '../../core/platform/basicPorts';
import type { SkillService } from '../../core/skills/skillService';
import type { SqlEngine } from '../../core/sql/sqlEngine';
import { Disposable } from '../lifecycle';
import { workspaceProjectId } from '../skills/skillPackManager';
import type { SettingsAccessor } from '../settingsAccessor';
import type { SkillChanges } from '../skillChanges';
import { LearningWrites } from './learningWrites';

/** How long the follow-up provider waits for the turn's background extraction. */
const FOLLOWUP_WAIT_MS = 3000;
/** Conversations whose last turn is remembered for `/learn` (oldest forgotten first). */
const REMEMBERED_SESSIONS = 50;

export interface LearningControllerDeps {
  engine: SqlEngine;
  store: ByteStore;
  settings: SettingsAccessor;
  skills: SkillService;
  logger: Logger;
  events: EventSink;
  /** Whether a tool of this name exists here and may be used (a failure report must name one). */
  knownTool(name: string): boolean;
  /** Fired when proposals, learned skills or counters change, or learning turns on or off (the views follow it). */
  changes: Pick<SkillChanges, 'fire'>;
}

/**
 * The VS Code side of learning: owns the core `LearningService` and what lives only in this
 * window — the background extraction of each turn (so follow-ups can wait for it), the last
 * turn of each conversation (for `/learn`), and keeping the skill service's score adjuster in
 * step with the setting and workspace trust. Writes go through `writes`, which fire the skill change event.
 */
export class LearningController extends Disposable {
  private readonly pending = new Map<string, Promise<IngestResult>>();
  private readonly lastTurns = new Map<string, Trajectory>();
  /** Answers rated in this window (one rating each, whichever button or 👍/👎 came first). */
  private readonly ratedTurns = new Set<string>();
  /** Approve, discard, edit, merge, import, feedback, promote: each fires the skill change event once. */
  readonly writes: LearningWrites;

  private constructor(
    readonly service: LearningService,
    private readonly deps: LearningControllerDeps,
  ) {
    super();
    this.writes = new LearningWrites(service, deps.skills, deps.changes);
    // Whether learning is on follows the setting and trust: the Proposed group appears or goes.
    const sync = () => deps.skills.setScoreAdjuster(service.activeAdjuster());
    sync();
    this._register(
      deps.settings.onDidChange(() => {
        sync();
        deps.changes.fire({ skills: false });
      }),
    );
    this._register(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        sync();
        deps.changes.fire({ skills: false });
      }),
    );
  }

  static async create(deps: LearningControllerDeps): Promise<LearningController> {
    const store = await LearningStore.open({ engine: deps.engine, store: deps.store, logger: deps.logger, clock: systemClock });
    const roots = () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    const service = new LearningService({
      store,
      skills: deps.skills,
      config: () => deps.settings.current.learning,
      trusted: () => vscode.workspace.isTrusted,
      personal: () => ({ workspaceRoots: roots(), homeDir: os.homedir(), userName: safeUserName() }),
      scope: () => ({ projectId: workspaceProjectId(), tenantId: deps.settings.current.scope.tenantId }),
      clock: systemClock,
      events: deps.events,
      logger: deps.logger,
      fileExists: (file) => roots().some((root) => existsSync(path.join(root, file))),
      knownTool: (name) => deps.knownTool(name),
      frameFacts: (name) => deps.skills.inspect(name),
    });
    const controller = new LearningController(service, deps);
    controller._register({ dispose: () => store.close() });
    if (service.pendingJobs() > 0) {
      void service.resumeJobs().then((done) => {
        if (done) deps.logger.info(`Learning: finished ${done} extraction job(s) left by an earlier window.`);
        deps.changes.fire({ skills: false });
      });
    }
    return controller;
  }

  get config(): LearningConfig {
    return this.deps.settings.current.learning;
  }

  get enabled(): boolean {
    return this.service.enabled;
  }

  /** Queues post-flight extraction of a finished turn; never awaited by the answer. */
  afterTurn(trajectory: Trajectory, extractor?: CandidateExtractor): void {
    if (!this.enabled) return;
    const sanitized = this.service.sanitize(trajectory);
    this.remember(sanitized);
    const run = this.service.enqueue(sanitized, { extractor }).then((result) => {
      if (result.proposal || result.negative) this.deps.changes.fire({ skills: false });
      return result;
    });
    this.pending.set(trajectory.sessionId, run);
  }

  /** The newest extraction of a conversation (waits up to 3 s; the answer is already shown). */
  async latestResult(sessionId: string): Promise<IngestResult> {
    const run = this.pending.get(sessionId);
    if (!run) return {};
    const timeout = new Promise<IngestResult>((resolve) => setTimeout(() => resolve({}), FOLLOWUP_WAIT_MS));
    return Promise.race([run, timeout]);
  }

  lastTurn(sessionId: string): Trajectory | undefined {
    return this.lastTurns.get(sessionId);
  }

  /** True the first time an answer is rated; false after (bounded: the oldest are forgotten). */
  claimRating(turnId: string): boolean {
    if (this.ratedTurns.has(turnId)) return false;
    this.ratedTurns.add(turnId);
    if (this.ratedTurns.size > 1000) this.ratedTurns.delete(this.ratedTurns.values().next().value as string);
    return true;
  }

  private remember(trajectory: Trajectory): void {
    this.lastTurns.delete(trajectory.sessionId);
    this.lastTurns.set(trajectory.sessionId, trajectory);
    if (this.lastTurns.size > REMEMBERED_SESSIONS) this.lastTurns.delete(this.lastTurns.keys().next().value as string);
  }
}

function safeUserName(): string | undefined {
  try {
    return os.userInfo().username;
  } catch {
    return undefined;
  }
}
