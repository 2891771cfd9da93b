import type { EventSink } from '../../platform/ports';
import { chosenCluster, suggestCluster } from './clusterSuggestion';
import { termVector } from '../merge/similarity';
import type { TermVector } from '../merge/similarity';
import type { ClusterSuggestion } from './clusterSuggestion';
import type { LearnedCandidate } from '../extraction/learnedCandidate';
import type { LearnedSkillPort } from '../learnedSkillPort';
import type { LearningStore, Proposal } from '../learningStore';
import type { LearnedSkillMerger } from '../merge/learnedSkillMerger';
import { changesText, mergeReview } from '../merge/mergeReview';
import type { MergeReview } from '../merge/mergeReview';

/**
 * The approval side of learning: a proposal edited, approved (as its own learned skill, or
 * merged into the near-duplicate learned skill of this project), discarded, or a merge undone.
 * Split from LearningService so ingestion and approval each stay one concern; the service
 * delegates here and keeps the caches this module reports changes to.
 */

export type ApproveResult =
  | { status: 'approved'; name: string; kind: LearnedCandidate['kind']; cluster?: string }
  | { status: 'merged'; name: string; kind: 'positive'; score: number; identical: boolean }
  | { status: 'conflict'; name: string; existing: 'pack' | 'learned'; suggestion: string }
  /** A model-rewritten proposal would change an existing learned skill: shown for approval first. */
  | { status: 'review'; name: string; review: MergeReview }
  | { status: 'missing' };

export interface ApproveResolution {
  /** Store under this name (no merge). */
  name?: string;
  /** Replace the learned skill that has the proposal's name (no merge). */
  replaceLearned?: boolean;
  /** Keep it as its own skill even if it duplicates one. */
  noMerge?: boolean;
  /** The person approved the merge review of a model-written proposal. */
  confirmMerge?: boolean;
  /** Where the person approved it; the skill says so (and says nothing when this is unknown). */
  via?: ApprovalChannel;
}

/** The surfaces a proposal is approved from. */
export type ApprovalChannel = 'chat' | 'skillDirectory' | 'editor';

const CHANNEL_PHRASES: Readonly<Record<ApprovalChannel, string>> = {
  chat: 'approved with the Approve button in chat',
  skillDirectory: 'approved in the Skill Directory',
  editor: 'approved after editing it in the editor',
};

/** The description of an approved learned skill: where it came from and, when known, how it was approved. */
export function approvedSkillDescription(origin: string, via: ApprovalChannel | undefined): string {
  const how = via && Object.hasOwn(CHANNEL_PHRASES, via) ? `; ${CHANNEL_PHRASES[via]}` : '';
  return `Learned from use (${origin})${how}.`;
}

export interface ApprovalDeps {
  store: LearningStore;
  skills: LearnedSkillPort;
  merger: LearnedSkillMerger;
  events: EventSink;
  clock: { now(): number };
  projectId(): string | undefined;
  /** Text written by a person, cleaned again (identity fields stay the original's). */
  cleanCandidate(candidate: LearnedCandidate, original: LearnedCandidate): LearnedCandidate;
  /** The service's caches: counters of a skill changed; a skill was approved; one was removed. */
  refreshCounters(name: string): void;
  rememberApproved(proposal: Proposal): void;
  forgetApproved(name: string): void;
}

/** Cached peer vectors kept at most (a store with more clustered skills re-analyses the rest). */
const MAX_CACHED_VECTORS = 20_000;

export class ProposalApproval {
  /** Analysed terms of clustered skills by name + content hash (a changed skill is analysed again). */
  private readonly peerVectors = new Map<string, TermVector>();

  constructor(private readonly deps: ApprovalDeps) {}

  /** Replaces a proposal's content with an edited version (still a proposal until approved). */
  async edit(id: string, candidate: LearnedCandidate): Promise<void> {
    const proposal = this.deps.store.proposal(id);
    if (!proposal) throw new Error(`No proposal ${id}; it may have been approved or discarded already.`);
    this.deps.store.setCandidate(id, { ...this.deps.cleanCandidate(candidate, proposal.candidate), source_hash: proposal.candidate.source_hash });
    await this.deps.store.save();
  }

  /**
   * Approves a proposal. A positive one becomes a learned skill (project scope); its name must be
   * free, or taken by a learned skill the caller chose to replace — a pack skill is never
   * overwritten: the caller gets `conflict` with a free name to offer instead.
   *
   * Merging into a near-duplicate learned skill is automatic for text taken from the trace. When
   * a model wrote the text (`origin: model`) and the merge would add lines to the existing skill,
   * approval returns `review` instead: the merge is its own proposal, done only when approved
   * again with `confirmMerge` (or kept apart with `noMerge`, or the proposal edited/discarded).
   */
  async approve(id: string, resolution: ApproveResolution = {}): Promise<ApproveResult> {
    const { store, skills } = this.deps;
    const proposal = store.proposal(id);
    if (!proposal || proposal.status !== 'proposed') return { status: 'missing' };
    const candidate = proposal.candidate;
    const name = (resolution.name ?? candidate.name).trim();
    if (candidate.kind === 'negative') {
      store.setStatus(id, 'approved', name);
      await store.save();
      this.deps.events.emit({ type: 'skill_negative_created', payload: { skill_id: id, name } });
      return { status: 'approved', name, kind: 'negative' };
    }
    if (!resolution.noMerge && !resolution.replaceLearned && !resolution.name) {
      const review = proposal.origin === 'model' && !resolution.confirmMerge ? this.mergeReview(id) : undefined;
      if (review && changesText(review)) return { status: 'review', name: review.target, review };
      const merged = await this.deps.merger.mergeProposal(proposal);
      if (merged) {
        this.deps.refreshCounters(merged.name);
        return { status: 'merged', kind: 'positive', ...merged };
      }
    }
    const existing = skills.inspect(name);
    if (existing && (existing.origin === 'pack' || !resolution.replaceLearned)) {
      return { status: 'conflict', name, existing: existing.origin, suggestion: this.freeName(name) };
    }
    const cluster = chosenCluster(candidate, () => this.suggestedCluster(candidate));
    await skills.addLearnedSkill({
      name,
      title: candidate.title,
      description: approvedSkillDescription(proposal.origin, resolution.via),
      trigger: candidate.trigger,
      task_type: candidate.task_type,
      tags: candidate.tags,
      steps: candidate.steps,
      failure_modes: candidate.failure_modes,
      scope_mode: 'project',
      project_id: this.deps.projectId(),
      origin_ref: `learning:${id}`,
      cluster,
      extra: { learned_kind: candidate.kind, source_hash: candidate.source_hash },
    });
    store.setStatus(id, 'approved', name);
    store.validate(name);
    this.deps.refreshCounters(name);
    this.deps.rememberApproved({ ...proposal, approved_name: name, status: 'approved' });
    await store.save();
    this.deps.events.emit({ type: 'skill_ingested', payload: { skill_id: id, name, action: 'approved', ...(cluster ? { cluster } : {}) } });
    return { status: 'approved', name, kind: 'positive', ...(cluster ? { cluster } : {}) };
  }

  async discard(id: string): Promise<boolean> {
    const proposal = this.deps.store.proposal(id);
    if (!proposal) return false;
    if (proposal.status === 'approved' && proposal.candidate.kind === 'positive' && this.deps.merger.isMerged(proposal)) {
      // Merged into another skill: discarding it takes back only what it brought.
      await this.unmerge(proposal.approved_name, proposal.candidate.source_hash);
    } else if (proposal.status === 'approved' && proposal.candidate.kind === 'positive') {
      // Approved into this project's scope (see approve), so removed from there.
      await this.deps.skills.removeLearnedSkill(proposal.approved_name, {
        scope_mode: 'project',
        scope_tenant_id: '',
        scope_project_id: this.deps.projectId() ?? '',
      });
      this.deps.forgetApproved(proposal.approved_name);
    }
    // Kept as `discarded` so the same lesson is not proposed again (dedup by source hash).
    this.deps.store.setStatus(id, 'discarded');
    await this.deps.store.save();
    this.deps.events.emit({ type: 'skill_ingested', payload: { skill_id: id, name: proposal.candidate.name, action: 'discarded' } });
    return true;
  }

  /** What approving this (positive, pending) proposal would merge into which skill, or undefined when it would not merge. */
  mergeReview(id: string): MergeReview | undefined {
    const proposal = this.deps.store.proposal(id);
    if (!proposal || proposal.status !== 'proposed' || proposal.candidate.kind !== 'positive') return undefined;
    const preview = this.deps.merger.preview(proposal);
    return preview ? mergeReview(preview, preview.current, preview.merged) : undefined;
  }

  /**
   * The cluster approval gives a candidate that has none chosen: that of the most similar
   * clustered skill this project sees (pack or learned), if any is similar enough.
   */
  suggestedCluster(candidate: Pick<LearnedCandidate, 'trigger' | 'steps'>): ClusterSuggestion | undefined {
    const records = this.deps.skills.clusteredSkills(this.deps.projectId() ?? '');
    const peers = records.map((record) => ({
      name: record.name,
      trigger: record.trigger,
      steps: record.steps,
      cluster: record.meta.cluster,
      key: `${record.id}\u0000${record.content_hash}`,
    }));
    return suggestCluster(candidate, peers, undefined, (peer) => {
      let vector = this.peerVectors.get(peer.key);
      if (!vector) {
        if (this.peerVectors.size >= MAX_CACHED_VECTORS) this.peerVectors.clear();
        vector = termVector(peer.trigger, peer.steps);
        this.peerVectors.set(peer.key, vector);
      }
      return vector;
    });
  }

  /** The learned skill of this project an approved skill with this trigger and steps would merge into. */
  mergeTarget(candidate: Pick<LearnedCandidate, 'trigger' | 'steps' | 'source_hash'>): { name: string; score: number; identical: boolean } | undefined {
    const target = this.deps.merger.target(candidate);
    return target ? { name: target.name, score: target.score, identical: target.identical } : undefined;
  }

  /** Undoes one merge into a learned skill from its lineage (see LearnedSkillMerger.unmerge). */
  async unmerge(name: string, sourceHash: string): Promise<{ restored: string; proposalId: string } | undefined> {
    const result = await this.deps.merger.unmerge(name, sourceHash);
    if (result) this.deps.refreshCounters(name);
    return result;
  }

  private freeName(name: string): string {
    for (let i = 2; i < 1000; i++) {
      const candidate = `${name}-${i}`;
      if (!this.deps.skills.inspect(candidate)) return candidate;
    }
    return `${name}-${this.deps.clock.now()}`;
  }
}
