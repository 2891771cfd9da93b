import type { ApproveResolution, ApproveResult } from '../../core/learning/approval/proposalApproval';
import type { LearnedCandidate } from '../../core/learning/extraction/learnedCandidate';
import type { Trajectory } from '../../core/learning/extraction/trajectory';
import type { IngestResult, LearningService } from '../../core/learning/learningService';
import type { Proposal } from '../../core/learning/learningStore';
import type { ImportReport } from '../../core/learning/snapshot/snapshotTransfer';
import type { SkillRecord } from '../../core/skills/skillSchema';
import type { SkillService } from '../../core/skills/skillService';
import type { SkillScope } from '../../core/skills/store/skillScope';
import type { SkillChange, SkillChanges } from '../skillChanges';

const SKILL_LIST: SkillChange = { skills: true };
const LEARNING_ONLY: SkillChange = { skills: false };

/**
 * Learning's writes as the commands, chat and the language-model tools make them: proposals, learned skills and feedback
 * counters. Each fires the skill change event once, after the write and only when something changed, so the views follow
 * without any caller asking them to refresh. Reads go to the `LearningService` directly.
 */
export class LearningWrites {
  constructor(
    private readonly service: LearningService,
    private readonly skills: Pick<SkillService, 'promoteLearnedSkill'>,
    private readonly changes: Pick<SkillChanges, 'fire'>,
  ) {}

  /** A review or a name conflict changes nothing yet; an approved warning adds no skill. */
  async approve(id: string, resolution?: ApproveResolution): Promise<ApproveResult> {
    const result = await this.service.approve(id, resolution);
    if (result.status === 'approved' || result.status === 'merged') this.changes.fire({ skills: result.kind === 'positive' });
    return result;
  }

  /** Discarding an approved proposal takes its skill back too. */
  async discard(id: string): Promise<boolean> {
    const wasApproved = this.service.proposal(id)?.status === 'approved';
    const done = await this.service.discard(id);
    if (done) this.changes.fire(wasApproved ? SKILL_LIST : LEARNING_ONLY);
    return done;
  }

  async edit(id: string, candidate: LearnedCandidate): Promise<void> {
    await this.service.edit(id, candidate);
    this.changes.fire(LEARNING_ONLY);
  }

  /** Extracts now (`/learn`); fires when a proposal or a warning came out. */
  async ingest(trajectory: Trajectory, options: Parameters<LearningService['ingest']>[1]): Promise<IngestResult> {
    const result = await this.service.ingest(trajectory, options);
    if (result.proposal || result.negative) this.changes.fire(LEARNING_ONLY);
    return result;
  }

  async unmerge(name: string, sourceHash: string): Promise<{ restored: string; proposalId: string } | undefined> {
    const undone = await this.service.unmerge(name, sourceHash);
    if (undone) this.changes.fire(SKILL_LIST);
    return undone;
  }

  async importSnapshot(bytes: Uint8Array): Promise<ImportReport> {
    const report = await this.service.importSnapshot(bytes);
    this.changes.fire(SKILL_LIST);
    return report;
  }

  async recordOutcome(names: readonly string[], outcome: 'helpful' | 'harmful'): Promise<number> {
    const recorded = await this.service.recordOutcome(names, outcome);
    if (recorded > 0) this.changes.fire(LEARNING_ONLY);
    return recorded;
  }

  async reportFailure(input: { tool: string; error: string; note?: string }, sessionId: string): Promise<Proposal | undefined> {
    const proposal = await this.service.reportFailure(input, sessionId);
    if (proposal) this.changes.fire(LEARNING_ONLY);
    return proposal;
  }

  /** Moves a learned skill to a wider scope (project → tenant → global). */
  async promote(name: string, to: 'tenant' | 'global', options?: { from?: SkillScope; tenantId?: string }): Promise<SkillRecord> {
    const promoted = await this.skills.promoteLearnedSkill(name, to, options);
    this.changes.fire(SKILL_LIST);
    return promoted;
  }
}
