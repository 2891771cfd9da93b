import type { TaskType } from '../config/settingsSchema';
import type { SkillSummarizer } from './render/modelSummary';
import type { SkillSearchType } from './skillToolSchemas';
import { passingRelevance } from '../search/relativeCut';
import type { GateVerdict } from '../search/gateVerdict';

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
 * Each hit with the gate's verdict on it, in their order: a hit that looks stuffed (`stuffed`
 * set: a describing vocabulary far broader than the store's usual) never passes, as for tools —
 * its relevance was bought with breadth; then the threshold; then SKILL_RELATIVE_CUT of the best
 * hit's relevance (a hit without an absolute measure — an exact or regex match — passes both).
 * A threshold of 0 turns the whole gate off, the relative cut included. The verdicts are the
 * gate itself (`passingGate` keeps those that passed), and Explain Last Turn prints them.
 */
function judgeSkills<T extends { relevance?: number; stuffed?: string }>(
  hits: readonly T[],
  minRelevance: number,
  ratio = minRelevance > 0 ? SKILL_RELATIVE_CUT : 0,
): Array<T & { verdict: GateVerdict }> {
  const eligible = hits.filter((hit) => hit.stuffed === undefined);
  const passes = new Set(passingRelevance(eligible, (hit) => hit.relevance, minRelevance, ratio));
  const best = eligible.reduce((top, hit) => Math.max(top, hit.relevance ?? 0), 0);
  return hits.map((hit) => {
    const relevance = hit.relevance ?? 1;
    let verdict: GateVerdict;
    if (hit.stuffed !== undefined) verdict = { passed: false, rule: 'stuffed', reason: hit.stuffed };
    else if (passes.has(hit)) verdict = { passed: true };
    else if (relevance < minRelevance) verdict = { passed: false, rule: 'minRelevance', relevance, minimum: minRelevance };
    else verdict = { passed: false, rule: 'relativeCut', relevance, best, cut: ratio };
    return { ...hit, verdict };
  });
}

/** Every hit with its verdict (`judgeSkills`), and those that passed, in order. */
export function gateSkills<T extends { relevance?: number; stuffed?: string }>(hits: readonly T[], minRelevance: number) {
  const judged = judgeSkills(hits, minRelevance);
  return { judged, passed: judged.filter((hit) => hit.verdict.passed) };
}

/**
 * The records of the passing hits, in their order, at most `max`; a hit whose record is past them
 * passed the gate but not the top k, and gets the cap's verdict so the explanation says so.
 */
export function capSkills<R>(hits: Array<{ name: string; verdict: GateVerdict }>, records: ReadonlyMap<string, R>, max: number): R[] {
  const kept: R[] = [];
  hits.forEach((hit, i) => {
    const record = records.get(hit.name);
    if (record === undefined) return;
    if (kept.length < max) kept.push(record);
    else hit.verdict = { passed: false, rule: 'cap', position: i + 1, max };
  });
  return kept;
}

/** The hits that pass the gate (`judgeSkills`), in their order. */
export function passingGate<T extends { relevance?: number; stuffed?: string }>(hits: readonly T[], minRelevance: number, ratio?: number): T[] {
  const judged = judgeSkills(hits, minRelevance, ratio);
  return hits.filter((_, i) => judged[i]!.verdict.passed);
}

/** A candidate for active-skill selection. */
export interface SelectionCandidateRow {
  /** As every answer shows it (redacted, tool-gated): what the model reads and chooses. */
  name: string;
  /** The stored name, to load the skill by (a redacted name finds nothing); never shown or sent. */
  key: string;
  /** One line: what the skill does / when to use it (already redacted and tool-gated). */
  description: string;
  /** Absolute relevance to the request in [0, 1] (0 for a skill added without a match). */
  relevance: number;
  /** False when search alone does not put it before a model: it shares too few of the request's words (hybridDecision.ts). */
  corroborated?: false;
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

/** A search hit as the relevance gate saw it (Explain Last Turn): its relevance and the gate's verdict. */
export interface RankedSkill {
  name: string;
  relevance?: number;
  verdict?: GateVerdict;
  /** False when it shares too few of the request's words for search alone to put it before a model (absent: it does, or not known). */
  corroborated?: false;
}

/** Search hits as the relevance gate judged them, names as every answer shows them (`clean`: redacted, tool-gated). */
export function rankedSkills(
  hits: ReadonlyArray<{ name: string; relevance?: number; verdict?: GateVerdict; corroborated?: boolean }>,
  clean: (name: string) => string,
): RankedSkill[] {
  return hits.map((hit) => ({
    name: clean(hit.name),
    ...(hit.relevance === undefined ? {} : { relevance: hit.relevance }),
    ...(hit.verdict ? { verdict: hit.verdict } : {}),
    ...(hit.corroborated === false ? { corroborated: false as const } : {}),
  }));
}
