import type { Clock, EventSink } from '../../platform/ports';
import type { SkillRecord } from '../../skills/skillSchema';
import { exportedTo } from '../../skills/store/learned/exportedLearnedSkills';
import type { LearnedCandidate } from '../extraction/learnedCandidate';
import type { LearnedSkillPort } from '../learnedSkillPort';
import type { LearningStore, Proposal } from '../learningStore';
import { lineageOf, mergeRecords, NO_COUNTERS, undoMerge } from './lineage';
import type { MergedSource } from './lineage';
import { MergeIndex } from './mergeIndex';

/**
 * Merge on approval for the learning service: finds the learned skill of this project
 * a proposal duplicates, folds the proposal into it with lineage, and undoes such a merge. Pack
 * skills are never targets (the index holds learned skills only).
 */
export interface MergerDeps {
  skills: LearnedSkillPort;
  store: LearningStore;
  events: EventSink;
  clock: Clock;
  threshold(): number;
  projectId(): string;
}

export interface MergeOutcome {
  name: string;
  score: number;
  identical: boolean;
}

export class LearnedSkillMerger {
  private readonly index = new MergeIndex();
  /** The list last synced into the index (the store hands out a new list after each learned write). */
  private synced: readonly SkillRecord[] | undefined;

  constructor(private readonly deps: MergerDeps) {}

  /** The learned skill of this project a skill with this trigger and steps would merge into. */
  target(candidate: Pick<LearnedCandidate, 'trigger' | 'steps' | 'source_hash'>): (MergeOutcome & { record: SkillRecord }) | undefined {
    const projectId = this.deps.projectId();
    const records = this.deps.skills.learnedSkills();
    if (records !== this.synced) this.index.sync(records);
    this.synced = records;
    // A retired (exported) learned skill is not a target: the committed pack skill stands for it now.
    const match = this.index.best(candidate, this.deps.threshold(), (r) => r.scope_mode === 'project' && r.scope_project_id === projectId && !exportedTo(r));
    return match ? { name: match.record.name, score: match.score, identical: match.identical, record: match.record } : undefined;
  }

  /**
   * What merging a proposal would do, without doing it: its target as stored now and the record
   * the merge would write (the same computation `mergeProposal` then stores).
   */
  preview(proposal: Proposal): (MergeOutcome & { current: SkillRecord; merged: SkillRecord }) | undefined {
    const candidate = proposal.candidate;
    const target = this.target(candidate);
    if (!target) return undefined;
    const source: MergedSource = {
      proposal_id: proposal.id,
      name: candidate.name,
      source_hash: candidate.source_hash,
      origin_ref: `learning:${proposal.id}`,
      trigger: candidate.trigger,
      steps: [...candidate.steps],
      preconditions: [],
      failure_modes: [...candidate.failure_modes],
      tags: [...candidate.tags],
      counters: { ...NO_COUNTERS },
      merged_at: this.deps.clock.now(),
    };
    // Read fresh: the listed copy's usage counts may lag behind the store's.
    const current = this.deps.skills.learnedSkill(target.record) ?? target.record;
    return { name: target.name, score: target.score, identical: target.identical, current, merged: mergeRecords(current, [source]) };
  }

  /** Merges a positive proposal into its target, if it has one; the proposal is then approved as that skill. */
  async mergeProposal(proposal: Proposal): Promise<MergeOutcome | undefined> {
    const target = this.preview(proposal);
    if (!target) return undefined;
    const { current, merged } = target;
    if (merged !== current) await this.deps.skills.restoreLearnedSkills([merged]);
    this.deps.store.setStatus(proposal.id, 'approved', target.name);
    this.deps.store.validate(target.name);
    await this.deps.store.save();
    this.deps.events.emit({
      type: 'skill_merged',
      payload: { into_skill_id: target.name, merged_skill_id: proposal.id, score: Number(target.score.toFixed(4)), identical: target.identical },
    });
    return { name: target.name, score: target.score, identical: target.identical };
  }

  /**
   * Undoes one merge (from the skill's lineage): the skill recomputed without it — exactly as it
   * was when that was its only merge — the counters it brought taken back, and its proposal
   * pending again (approve it with `noMerge` to keep it as its own skill).
   */
  async unmerge(name: string, sourceHash: string): Promise<{ restored: string; proposalId: string } | undefined> {
    const record = this.projectRecord(name);
    const undone = record ? undoMerge(record, sourceHash) : undefined;
    if (!undone) return undefined;
    await this.deps.skills.restoreLearnedSkills([undone.record]);
    const back = undone.removed.counters;
    this.deps.store.addCounters(name, { helpful: -back.helpful, harmful: -back.harmful, use_count: -back.use_count });
    const proposal = undone.removed.proposal_id ? this.deps.store.proposal(undone.removed.proposal_id) : undefined;
    if (proposal?.status === 'approved') this.deps.store.setStatus(proposal.id, 'proposed');
    await this.deps.store.save();
    this.deps.events.emit({ type: 'skill_unmerged', payload: { from_skill_id: name, restored_skill_id: undone.removed.proposal_id || undone.removed.name } });
    return { restored: name, proposalId: proposal?.id ?? '' };
  }

  /** Whether an approved proposal lives on as a merge into another skill (not as its base). */
  isMerged(proposal: Proposal): boolean {
    const record = this.projectRecord(proposal.approved_name);
    return Boolean(record && lineageOf(record)?.merged_from.some((s) => s.proposal_id === proposal.id));
  }

  private projectRecord(name: string): SkillRecord | undefined {
    return this.deps.skills.learnedSkill({ name, scope_mode: 'project', scope_tenant_id: '', scope_project_id: this.deps.projectId() });
  }
}
