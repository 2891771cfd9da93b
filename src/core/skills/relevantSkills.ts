import type { TaskType } from '../config/settingsSchema';
import type { SkillSummarizer } from './render/modelSummary';
import type { SkillSearchType } from './skillToolSchemas';
import { passingRelevance } from '../search/relativeCut';

/**
 * Pre-flight's request and answer shapes, and the absolute relevance gate that decides whether
 * a search hit may be injected at all (`toolshed.skills.minRelevance`): search scores are
 * relative to one response (the best hit always scores 1), so only the absolute measure can say
 * that nothing found applies.
 */

/**
 * A hit is injected (or offered to selection) only when its relevance also reaches this share of
 * the best hit's (search/relativeCut.ts): a skill that shares a word or two with the request next
 * to one that matches it well only costs prompt tokens. Chosen on the skills relevance set's
 * tune half (docs/benchmarks.md).
 */
export const SKILL_RELATIVE_CUT = 0.7;

/**
 * Hits at or above the threshold and SKILL_RELATIVE_CUT of the best hit's relevance, in their
 * order (a hit without an absolute measure — an exact or regex match — passes). A threshold of 0
 * turns the whole gate off, the relative cut included. A hit that looks stuffed (`stuffed` set:
 * a describing vocabulary far broader than the store's usual) never passes, as for tools: its
 * relevance was bought with breadth.
 */
export function passingGate<T extends { relevance?: number; stuffed?: string }>(
  hits: readonly T[],
  minRelevance: number,
  ratio = minRelevance > 0 ? SKILL_RELATIVE_CUT : 0,
): T[] {
  return passingRelevance(
    hits.filter((hit) => hit.stuffed === undefined),
    (hit) => hit.relevance,
    minRelevance,
    ratio,
  );
}

/** A candidate for active-skill selection. */
export interface SelectionCandidateRow {
  name: string;
  /** One line: what the skill does / when to use it (already redacted and tool-gated). */
  description: string;
  /** Absolute relevance to the request in [0, 1] (0 for a skill added without a match). */
  relevance: number;
}

export interface RelevantRequest {
  task: string;
  top_k?: number;
  max_tokens?: number;
  task_type?: TaskType;
  /** Skills already in the prompt (pinned): neither injected again nor counted. */
  exclude?: readonly string[];
  /** `toolshed.skills.summarize`: condenses what structured compression had to cut (falls back on any failure). */
  summarize?: SkillSummarizer;
}

export interface RelevantResult {
  /** Injection block for the system prompt ('' when nothing relevant or disabled). */
  text: string;
  skills: string[];
  top_k_used: number;
  raw_tokens_est: number;
  final_tokens_est: number;
  was_summarized: boolean;
  search_type: SkillSearchType | 'none';
  /** Relevant skills that did not fit the budget (gated names). */
  omitted: string[];
  /** Skills added as cluster siblings of a top match (part of `skills`; toolshed.skills.clusterExpansion). */
  cluster_siblings: string[];
  /** Tools the injected skills name that this run may use (never a denied or hidden one). */
  suggested_tools: string[];
  /** Absolute relevance of each search hit that passed the gate, by name. */
  relevance: Record<string, number>;
  /** Every search hit the gate looked at, best first, with its relevance (none for an exact or regex match). */
  ranked: RankedSkill[];
}

/** A search hit as the relevance gate saw it (Explain Last Turn). */
export interface RankedSkill {
  name: string;
  relevance?: number;
}

/** Search hits as the relevance gate saw them, names as every answer shows them (`clean`: redacted, tool-gated). */
export function rankedSkills(hits: ReadonlyArray<{ name: string; relevance?: number }>, clean: (name: string) => string): RankedSkill[] {
  return hits.map((hit) => (hit.relevance === undefined ? { name: clean(hit.name) } : { name: clean(hit.name), relevance: hit.relevance }));
}
