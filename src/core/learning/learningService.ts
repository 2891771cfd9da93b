import { createHash } from 'node:crypto';
import type { LearningConfig } from '../config/settingsSchema';
import type { Clock, EventSink, Logger } from '../platform/ports';
import { renderPromptBlock } from '../privacy/promptBlocks';
import { isSecretShapedName } from '../privacy/redaction';
import type { SkillScoreAdjuster } from '../skills/skillRequestContext';
import { daysSince, decayFactor, STALE_DECAY } from './feedback/decay';
import { depersonalize } from './extraction/depersonalize';
import type { PersonalContext } from './extraction/depersonalize';
import { failureSignature } from './feedback/failureSignature';
import { inferTaskType } from './extraction/learnedCandidate';
import type { LearnedCandidate } from './extraction/learnedCandidate';
import type { LearnedSkillPort } from './learnedSkillPort';
import { LearnedSkillMerger } from './merge/learnedSkillMerger';
import { ProposalApproval } from './approval/proposalApproval';
import type { ApproveResolution, ApproveResult } from './approval/proposalApproval';
import type { MergeReview } from './merge/mergeReview';
import type { ClusterSuggestion } from './approval/clusterSuggestion';
import { exportLearnedSnapshot, importLearnedSnapshot } from './snapshot/snapshotTransfer';
import type { ImportReport, SnapshotStores } from './snapshot/snapshotTransfer';
import type { FeedbackCounters, LearningStore, Proposal } from './learningStore';
import { recordTurnFailures } from './feedback/failureTracker';
import { isRelevantWarning, negativeCandidate, renderWarnings, UnknownToolReportError } from './feedback/negativeLessons';
export { UnknownToolReportError } from './feedback/negativeLessons';
import { createScoreAdjuster } from './feedback/scoreAdjuster';
import type { ApprovedSkillFacts } from './feedback/scoreAdjuster';
import { extractTraceCandidate } from './extraction/traceExtractor';
import { countSkillUse, followedSkill, usedSkillSteps } from './extraction/followedSkill';
import { isLearnable, sanitizeTrajectory } from './extraction/trajectory';
import type { Trajectory } from './extraction/trajectory';
import { persistIngestJob, resumableJobs } from './extraction/ingestJobs';

/**
 * Learning, end to end over plain records: a finished turn's trajectory → (depersonalized)
 * proposal → approval → a learned skill in the store through `LearnedSkillPort`; feedback →
 * counters; repeated failure signatures → negative lessons; decay and effectiveness → the score
 * adjuster the skill service consults. No `vscode`, no model required.
 */

/** A model-backed extractor (setting `extractor: model`); `undefined` = fall back to `trace`. */
export type CandidateExtractor = (trajectory: Trajectory, fallback: LearnedCandidate) => Promise<LearnedCandidate | undefined>;

export interface LearningServiceDeps {
  store: LearningStore;
  skills: LearnedSkillPort;
  config: () => LearningConfig;
  /** False in an untrusted workspace: learning is then off whatever the setting says. */
  trusted: () => boolean;
  personal: () => PersonalContext;
  /** Scope a learned skill is stored in (project by default); `tenantId` is this window's tenant, if any. */
  scope: () => { projectId?: string; tenantId?: string };
  clock: Clock;
  events: EventSink;
  logger: Logger;
  fileExists(relativePath: string): boolean;
  /** Whether a tool of this exact name exists here (a failure report must name one). */
  knownTool(name: string): boolean;
  frameFacts(name: string): { domain: string; frames: readonly string[] } | undefined;
}

export interface IngestResult {
  proposal?: Proposal;
  negative?: Proposal;
  /** The turn followed this injected skill: counted as a use of it, nothing proposed. */
  followed?: string;
}

export class LearningService {
  private readonly approvedFacts = new Map<string, ApprovedSkillFacts>();
  private readonly counterCache = new Map<string, FeedbackCounters>();
  private readonly decayReported = new Set<string>();
  private readonly approval: ProposalApproval;
  readonly adjuster: SkillScoreAdjuster;

  constructor(private readonly deps: LearningServiceDeps) {
    for (const proposal of deps.store.proposals('approved', 'positive')) this.rememberApproved(proposal);
    for (const counters of deps.store.allCounters()) this.counterCache.set(counters.name, counters);
    const merger = new LearnedSkillMerger({
      skills: deps.skills,
      store: deps.store,
      events: deps.events,
      clock: deps.clock,
      threshold: () => deps.config().mergeThreshold,
      projectId: () => deps.scope().projectId ?? '',
    });
    this.approval = new ProposalApproval({
      store: deps.store,
      skills: deps.skills,
      merger,
      events: deps.events,
      clock: deps.clock,
      projectId: () => deps.scope().projectId,
      cleanCandidate: (candidate, original) => this.cleanCandidate(candidate, original),
      refreshCounters: (name) => this.refreshCounters(name),
      rememberApproved: (proposal) => this.rememberApproved(proposal),
      forgetApproved: (name) => this.approvedFacts.delete(name),
    });
    this.adjuster = createScoreAdjuster({
      approved: (name) => this.approvedFacts.get(name),
      counters: (name) => this.counters(name),
      frameFacts: (name) => deps.frameFacts(name),
      fileExists: (file) => deps.fileExists(file),
      now: () => deps.clock.now(),
      onStale: (name, reasons) => this.markStale(name, reasons),
      onDecay: (name, decay, taskType) => {
        const key = `${name}:${decay.toFixed(2)}`;
        if (this.decayReported.has(key)) return;
        // Reported once per skill and (rounded) value; bounded so a long session cannot grow it without end.
        if (this.decayReported.size >= 10_000) this.decayReported.clear();
        this.decayReported.add(key);
        deps.events.emit({ type: 'skill_decay_applied', payload: { skill_id: name, decay: Number(decay.toFixed(4)), task_type: taskType } });
      },
    });
  }

  get enabled(): boolean {
    return this.deps.trusted() && this.deps.config().mode === 'propose';
  }

  /** Depersonalization with this workspace's context (roots, home, user name). */
  clean(text: string): string {
    return depersonalize(text, this.deps.personal());
  }

  /** The trajectory as it may be kept, queued or persisted. */
  sanitize(trajectory: Trajectory): Trajectory {
    return sanitizeTrajectory(trajectory, (text) => this.clean(text));
  }

  /**
   * Post-flight ingestion of one (sanitized) turn: failure signatures first (a repeated one
   * proposes a negative lesson), then — for a turn that finished with ≥ 2 successful calls — a
   * candidate from the configured extractor, falling back to `trace` on any failure.
   */
  async ingest(raw: Trajectory, options: { extractor?: CandidateExtractor; origin?: string; force?: boolean; jobId?: string } = {}): Promise<IngestResult> {
    if (!this.enabled) return {};
    const trajectory = this.sanitize(raw);
    const result: IngestResult = {};
    // Everything below changes only the in-memory database; one save at the end writes it (and
    // drops the finished job) atomically, so a crash in between leaves the job to be resumed.
    const finish = async () => {
      if (options.jobId) this.deps.store.removeJob(options.jobId);
      await this.deps.store.save();
      return result;
    };
    result.negative = recordTurnFailures(this.deps.store, trajectory, (candidate) => this.propose(candidate, 'failure'));
    if (!options.force && !isLearnable(trajectory)) return finish();
    const personal = this.deps.personal();
    const trace = extractTraceCandidate(options.force ? { ...trajectory, stoppedBecause: 'done' } : trajectory, personal);
    // `/learn` is the person asking for a proposal: only automatic ingestion defers to a followed skill.
    const followed = trace && !options.force ? followedSkill(trace, usedSkillSteps(this.deps.skills, trajectory.skillsUsed)) : undefined;
    if (followed) {
      result.followed = followed;
      countSkillUse(followed, { ...this.deps, now: this.deps.clock.now() });
      this.refreshCounters(followed);
      return finish();
    }
    if (trace) {
      let candidate = trace;
      let origin = options.origin ?? 'trace';
      if (options.extractor && this.deps.config().extractor === 'model') {
        try {
          const fromModel = await options.extractor(trajectory, trace);
          if (fromModel) {
            candidate = this.cleanCandidate(fromModel, trace);
            origin = 'model';
          }
        } catch (error) {
          this.deps.logger.warn(`Learning: the model extractor failed (${error instanceof Error ? error.message : String(error)}); kept the trace proposal.`);
        }
      }
      result.proposal = this.propose(candidate, origin);
    }
    return finish();
  }

  /**
   * Post-flight entry point for a finished turn: with `ingestMode: persisted` the sanitized turn
   * is stored as a job first; then it is ingested. Any failure is logged, never thrown (learning
   * must never surface as a chat error).
   */
  async enqueue(raw: Trajectory, options: { extractor?: CandidateExtractor } = {}): Promise<IngestResult> {
    if (!this.enabled) return {};
    const mode = this.deps.config().ingestMode;
    this.deps.events.emit({ type: 'skill_ingest_queued', payload: { mode: mode === 'persisted' ? 'tasks' : 'fire_and_forget' } });
    try {
      const job = mode === 'persisted' ? await this.persistJob(raw) : undefined;
      return await this.ingest(job?.trajectory ?? raw, { extractor: options.extractor, jobId: job?.jobId });
    } catch (error) {
      this.deps.logger.warn(`Learning: extraction failed (${error instanceof Error ? error.message : String(error)}).`);
      return {};
    }
  }

  /** Why an approved learned skill is stale ('' when its citations hold). */
  staleReason(name: string): string {
    return this.approvedFacts.has(name) ? (this.deps.store.approvedAs(name)?.stale_reason ?? '') : '';
  }

  /** `ingestMode: persisted`: stores the sanitized turn before extraction (extraction/ingestJobs.ts). */
  async persistJob(raw: Trajectory): Promise<{ jobId: string; trajectory: Trajectory }> {
    const trajectory = this.sanitize(raw);
    return { jobId: await persistIngestJob(this.deps.store, trajectory), trajectory };
  }

  /** Finishes persisted jobs left by an earlier window; an unreadable one is dropped. */
  async resumeJobs(options: { extractor?: CandidateExtractor } = {}): Promise<number> {
    let done = 0;
    for await (const { jobId, trajectory } of resumableJobs(this.deps.store, () => this.enabled, this.deps.logger)) {
      await this.ingest(trajectory, { ...options, jobId });
      done++;
    }
    return done;
  }

  pendingJobs(): number {
    return this.deps.store.jobs().length;
  }

  /**
   * A proposal from an explicit failure report (`skill_report_failure`). The tool is free text a
   * model chose, and it becomes a lesson's title, trigger, steps and name: it must be the exact
   * name of a tool that exists here and nothing redaction would touch, else the report is refused
   * (UnknownToolReportError) without echoing it.
   */
  async reportFailure(input: { tool: string; error: string; note?: string }, sessionId: string): Promise<Proposal | undefined> {
    if (!this.enabled) return undefined;
    if (isSecretShapedName(input.tool) || this.clean(input.tool) !== input.tool || !this.deps.knownTool(input.tool)) throw new UnknownToolReportError();
    const error = this.clean(input.error);
    const signature = failureSignature(input.tool, error);
    this.deps.store.recordFailure(
      { key: signature.key, tool: signature.tool, error_class: signature.errorClass, message: signature.message, last_turn: '', keywords: [], recovery: '' },
      `report:${sessionId}:${this.deps.clock.now()}`,
    );
    const record = this.deps.store.failure(signature.key)!;
    const proposal = this.propose(
      negativeCandidate({
        signature,
        keywords: record.keywords,
        recovery: record.recovery || undefined,
        taskType: inferTaskType([input.tool], record.keywords.join(' ')),
        note: input.note ? this.clean(input.note).slice(0, 300) : undefined,
      }),
      'report',
    );
    await this.deps.store.save();
    return proposal;
  }

  proposals(): Proposal[] {
    return this.deps.store.proposals('proposed');
  }

  approvedLessons(): Proposal[] {
    return this.deps.store.proposals('approved');
  }

  proposal(id: string): Proposal | undefined {
    return this.deps.store.proposal(id);
  }

  edit(id: string, candidate: LearnedCandidate): Promise<void> {
    return this.approval.edit(id, candidate);
  }

  /** See ProposalApproval.approve. */
  approve(id: string, resolution: ApproveResolution = {}): Promise<ApproveResult> {
    return this.approval.approve(id, resolution);
  }

  /** The merge approving a pending proposal would make, before and after (see ProposalApproval.mergeReview). */
  mergeReview(id: string): MergeReview | undefined {
    return this.approval.mergeReview(id);
  }

  discard(id: string): Promise<boolean> {
    return this.approval.discard(id);
  }

  /** The cluster approving this candidate would give it when none is chosen (see ProposalApproval). */
  suggestedCluster(candidate: Pick<LearnedCandidate, 'trigger' | 'steps'>): ClusterSuggestion | undefined {
    return this.approval.suggestedCluster(candidate);
  }

  mergeTarget(candidate: Pick<LearnedCandidate, 'trigger' | 'steps' | 'source_hash'>): { name: string; score: number; identical: boolean } | undefined {
    return this.approval.mergeTarget(candidate);
  }

  unmerge(name: string, sourceHash: string): Promise<{ restored: string; proposalId: string } | undefined> {
    return this.approval.unmerge(name, sourceHash);
  }

  /** Writes this workspace's learned skills, counters and proposals as a snapshot (JSONL text). */
  exportSnapshot(toolshedVersion: string): { text: string; learned: number; proposals: number } {
    return exportLearnedSnapshot(this.snapshotStores(), { toolshedVersion, now: this.deps.clock.now() });
  }

  /**
   * Imports a snapshot into this project (see importLearnedSnapshot); throws SnapshotError, with
   * nothing changed, for a snapshot it refuses.
   */
  async importSnapshot(bytes: Uint8Array, options: { dryRun?: boolean } = {}): Promise<ImportReport> {
    const report = await importLearnedSnapshot(this.snapshotStores(), bytes, {
      projectId: this.deps.scope().projectId,
      tenantId: this.deps.scope().tenantId ?? '',
      dryRun: options.dryRun,
    });
    if (options.dryRun) return report;
    for (const counters of this.deps.store.allCounters()) this.counterCache.set(counters.name, counters);
    for (const proposal of this.deps.store.proposals('approved', 'positive')) this.rememberApproved(proposal);
    this.deps.events.emit({
      type: 'skill_ingested',
      payload: { skill_id: 'snapshot', name: '', action: 'imported', added: report.added.length, merged: report.merged.length },
    });
    return report;
  }

  /** 👍/👎 or `skill_report_outcome`: +1 helpful/harmful for each named skill (small deltas). */
  async recordOutcome(names: readonly string[], outcome: 'helpful' | 'harmful'): Promise<number> {
    if (!this.enabled) return 0;
    const unique = [...new Set(names.map((n) => n.trim()).filter(Boolean))].slice(0, 20);
    this.deps.store.transaction(() => unique.forEach((name) => this.deps.store.recordOutcome(name, outcome)));
    unique.forEach((name) => this.refreshCounters(name));
    await this.deps.store.save();
    await this.shareOutcome(unique, outcome);
    this.deps.events.emit({ type: 'skill_feedback', payload: { names: unique, outcome } });
    return unique.length;
  }

  /** A skill's feedback counters: of a shared (tenant/global) skill, summed over every window; else this workspace's. */
  counters(name: string): FeedbackCounters | undefined {
    return this.deps.skills.sharedCounters(name) ?? this.counterCache.get(name);
  }

  /**
   * Feedback on shared skills also goes to the store every window shares, as increments (so 👍 in
   * two windows counts twice). If that store is busy or unreadable the feedback still counts here.
   */
  private async shareOutcome(names: readonly string[], outcome: 'helpful' | 'harmful'): Promise<void> {
    const now = this.deps.clock.now();
    const deltas = names.map((name) => ({
      name,
      helpful: outcome === 'helpful' ? 1 : 0,
      harmful: outcome === 'harmful' ? 1 : 0,
      use_count: 1,
      last_used: now,
      last_validated: outcome === 'helpful' ? now : 0,
    }));
    try {
      await this.deps.skills.addSharedCounters(deltas);
    } catch (error) {
      this.deps.logger.warn(
        `Feedback counted in this window only (the shared skill store was not available): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * Approved negative lessons relevant to a request, as a `<skill_warnings>` block (or '').
   * `offeredTools` are the tools the run can see: a lesson about one of them is always relevant.
   */
  warnings(request: string, offeredTools: ReadonlySet<string> = new Set()): { block: string; names: string[] } {
    if (!this.enabled) return { block: '', names: [] };
    const lessons = this.deps.store
      .proposals('approved', 'negative')
      .map((p) => ({ ...p.candidate, name: p.approved_name || p.candidate.name }))
      .filter((lesson) => isRelevantWarning(request, lesson, offeredTools))
      .slice(0, 3);
    return { block: renderWarnings(lessons), names: lessons.map((l) => l.name) };
  }

  /** Staleness notes for injected learned skills whose decay fell below 0.25. */
  stalenessNotes(names: readonly string[]): string {
    if (!this.enabled) return '';
    const now = this.deps.clock.now();
    const notes: string[] = [];
    for (const name of names) {
      const facts = this.approvedFacts.get(name);
      if (!facts) continue;
      const validated = Math.max(facts.lastValidated, this.counters(name)?.last_validated ?? 0);
      if (decayFactor(facts.task_type, validated, now) < STALE_DECAY) {
        notes.push(
          `- \`${name}\` was learned from use and last confirmed ${daysSince(validated, now)} days ago: check that its steps still apply before following them.`,
        );
      }
    }
    return notes.length ? renderPromptBlock('skill_staleness', notes) : '';
  }

  /** The adjuster applies only while learning is on (off = relevance as before). */
  activeAdjuster(): SkillScoreAdjuster | undefined {
    return this.enabled ? this.adjuster : undefined;
  }

  /** Depersonalization context of this workspace (for extractors that write their own text). */
  personalContext(): PersonalContext {
    return this.deps.personal();
  }

  // ── internals ─────────────────────────────────────────────────────────

  /** Text written by a model or a person, cleaned again; identity fields stay the original's. */
  private cleanCandidate(candidate: LearnedCandidate, original: LearnedCandidate): LearnedCandidate {
    return {
      ...candidate,
      kind: original.kind,
      citations: original.citations,
      title: this.clean(candidate.title),
      trigger: this.clean(candidate.trigger),
      steps: candidate.steps.map((s) => this.clean(s)),
      failure_modes: candidate.failure_modes.map((s) => this.clean(s)),
      tags: candidate.tags.map((t) => this.clean(t)),
      ...(candidate.cluster !== undefined ? { cluster: this.clean(candidate.cluster) } : {}),
    };
  }

  private propose(candidate: LearnedCandidate, origin: string): Proposal {
    const id = `pr_${createHash('sha256').update(candidate.source_hash).digest('hex').slice(0, 16)}`;
    const { proposal, action } = this.deps.store.propose(id, candidate, origin);
    this.deps.events.emit({
      type: 'skill_ingested',
      payload: { skill_id: proposal.id, name: proposal.candidate.name, action: action === 'created' ? 'proposed' : 'incremented', kind: candidate.kind },
    });
    return proposal;
  }

  private snapshotStores(): SnapshotStores {
    return { skills: this.deps.skills, store: this.deps.store, mergeThreshold: this.deps.config().mergeThreshold };
  }

  private rememberApproved(proposal: Proposal): void {
    if (proposal.candidate.kind !== 'positive' || !proposal.approved_name) return;
    this.approvedFacts.set(proposal.approved_name, {
      task_type: proposal.candidate.task_type,
      citations: proposal.candidate.citations,
      lastValidated: proposal.updated_at,
    });
  }

  private refreshCounters(name: string): void {
    const counters = this.deps.store.counters(name);
    if (counters) this.counterCache.set(name, counters);
  }

  private markStale(name: string, reasons: string[]): void {
    const proposal = this.deps.store.approvedAs(name);
    const reason = reasons.join('; ');
    if (!proposal || proposal.stale_reason === reason) return;
    this.deps.store.setStale(proposal.id, reason);
    this.deps.events.emit({ type: 'skill_stale', payload: { name, reasons } });
    void this.deps.store.save();
  }
}
