import type { TaskType } from '../config/settingsSchema';
import { REGEX_BUDGET_NOTE, compileSafeRegex } from '../search/safeRegex';
import type { SafeRegex } from '../search/safeRegex';
import { boundedRelevance, EXACT_SCORE, minMax, REGEX_SCORES } from '../search/scoring';
import { LEXICAL_POOL, exactNameMatcher, fusedScores, hybridRank } from '../search/embedding/semanticStage';
import { fusedRelevance } from '../search/embedding/fusedRelevance';
import type { SkillVectors } from './skillVectors';
import type { AnswerVetting } from './earlyAnswers';
import { collapseNearCopies } from './nearCopies';
import { editDistance } from './packs/document/keySuggestion';
import type { SkillStore, StoreFilter } from './store/skillStore';
import type { SkillSearchType } from './skillToolSchemas';

/**
 * Candidate generation for the skill queries: exact, regex and ranked full-text search (over the
 * store's term index, with an optional re-ranking of its hits), and closest names for an unknown
 * one. Scope, trust and status come in as the request's store filter.
 */

export interface ScoredSkill {
  name: string;
  title: string;
  trigger: string;
  task_type: string;
  /** Relative to this response (min-max over the hits; the skill_search contract). */
  score: number;
  /** Absolute relevance in [0, 1], comparable across requests (absent for a regex query). */
  relevance?: number;
  /** Lower-ranked near-copies of this skill left out of the list (nearCopies.ts). */
  nearCopies?: string[];
  /** Set when the skill looks stuffed: why, in words. Pre-flight's gate never passes it (relevantSkills.ts). */
  stuffed?: string;
  /** False when its describing fields share too few of the request's words for search alone to put it before a model (SkillSearchIndex.corroborated); absent = not known. */
  corroborated?: boolean;
}

/** Re-ranks full-text hits (learning's score adjuster bound to one request); may leave some out. */
export type HitAdjuster = (hits: ReadonlyArray<{ name: string; task_type: TaskType; score: number }>, query: string) => Array<{ name: string; score: number }>;

export interface SkillFinderDeps {
  store: SkillStore;
  /** Hybrid ranking's skill vectors (none = lexical ranking). */
  vectors?: SkillVectors;
  /** Asked before ranked skills are returned while a load is under way (earlyAnswers.ts). */
  vetting?: AnswerVetting;
}

const pick = (row: { name: string; title: string; trigger: string; description: string; task_type: TaskType }) => ({
  name: row.name,
  title: row.title,
  trigger: row.trigger,
  description: row.description,
  task_type: row.task_type,
});

/** Full-text hits fetched per wanted result, so the list still holds `limit` skills once near-copies are collapsed. */
const COPY_MARGIN = 2;

export class SkillFinder {
  constructor(private readonly deps: SkillFinderDeps) {}

  /**
   * `find` after fetching what an asynchronous embedder (an endpoint) needs for a ranked query:
   * the visible skills' vectors and the query's (never rejects; down = lexical ranking).
   */
  async rank(
    query: string,
    requested: SkillSearchType,
    filter: StoreFilter,
    limit: number,
    adjust?: HitAdjuster,
  ): Promise<{ hits: ScoredSkill[]; effective: SkillSearchType; note?: string }> {
    if (requested === 'fts' && this.deps.vectors) await this.deps.vectors.prepare(query, () => this.deps.store.visibleEntries(filter));
    const found = this.find(query, requested, filter, limit, adjust);
    // Every hit is vetted, not only those a caller keeps: pre-flight reports the ones it judged too.
    await this.deps.vetting?.vet(() => {
      const resolve = this.deps.store.resolver(filter);
      return found.hits.map((hit) => resolve(hit.name)).filter((entry) => entry !== undefined);
    });
    return found;
  }

  /** Candidate generation for every search type (`fts`: the ranked search of the store's term index). */
  find(
    query: string,
    requested: SkillSearchType,
    filter: StoreFilter,
    limit: number,
    adjust?: HitAdjuster,
  ): { hits: ScoredSkill[]; effective: SkillSearchType; note?: string } {
    const store = this.deps.store;
    if (requested === 'exact') {
      const records = store.byNames([query.trim()], filter);
      return {
        hits: records.map((r) => ({ name: r.name, title: r.title, trigger: r.trigger, task_type: r.task_type, score: EXACT_SCORE, relevance: 1 })),
        effective: 'exact',
      };
    }
    if (requested === 'regex') {
      const compiled = compileSafeRegex(query);
      if (!compiled.ok) return { hits: [], effective: 'regex', note: compiled.message };
      const hits = this.regexScan(compiled.regex, filter, limit);
      return { hits, effective: 'regex', note: compiled.regex.exhausted ? REGEX_BUDGET_NOTE : undefined };
    }
    // With an adjuster, over-fetch so a re-ranked skill from just below the cut can move up.
    const wanted = adjust ? Math.max(limit * 3, limit + 10) : limit;
    const resolve = store.resolver(filter);
    const stage = this.deps.vectors?.stage({ resolve, all: () => store.visibleEntries(filter) });
    const hits = store.searchRanked(query, filter, stage ? Math.max(wanted * COPY_MARGIN, LEXICAL_POOL) : wanted * COPY_MARGIN);
    // Adjustments (±0.1/0.2, × decay) apply on the absolute relevance scale, then min-max as usual.
    let scored: Array<ScoredSkill & { description: string; task_type: TaskType }> = hits.map((h) => ({
      ...pick(h),
      score: boundedRelevance(h.relevance),
      relevance: h.absolute,
      ...(h.stuffed === undefined ? {} : { stuffed: h.stuffed }),
      ...(h.corroborated ? {} : { corroborated: false }),
    }));
    if (stage) {
      // Hybrid: the fused order (an exact name never demoted), scores on the contract's scale;
      // the absolute relevance takes both kinds of evidence, so a skill only the embedding
      // found can pass pre-flight's gate when the model's calibration says it is close enough.
      const absolute = new Map(hits.map((h) => [h.name, h.absolute]));
      const uncorroborated = new Set(hits.filter((h) => !h.corroborated).map((h) => h.name));
      const ranking = hybridRank(hits, query, stage, (name) => resolve(name) !== undefined, exactNameMatcher(query)).slice(0, wanted * COPY_MARGIN);
      const fused = fusedScores(ranking);
      scored = ranking.map((c, i) => {
        const stuffed = store.stuffedReason(c.name, filter);
        return {
          ...pick(resolve(c.name)!),
          score: fused[i],
          relevance: fusedRelevance(absolute.get(c.name) ?? 0, c.similarity, stage.calibration),
          ...(stuffed === undefined ? {} : { stuffed }),
          ...(uncorroborated.has(c.name) ? { corroborated: false } : {}),
        };
      });
    }
    if (!adjust) {
      const kept = collapseNearCopies(scored).slice(0, limit);
      const scores = minMax(kept.map((h) => h.score));
      return { hits: kept.map(({ description: _d, ...h }, i) => ({ ...h, score: scores[i] ?? 0 })), effective: 'fts' };
    }
    const byName = new Map(scored.map((h) => [h.name, h]));
    const adjusted = collapseNearCopies(
      adjust(scored, query)
        .filter((a) => byName.has(a.name))
        .sort((a, b) => b.score - a.score)
        .map((a) => ({ ...a, description: byName.get(a.name)!.description })),
    ).slice(0, limit);
    const scores = minMax(adjusted.map((a) => a.score));
    return {
      hits: adjusted.map((a, i) => {
        const { description: _d, ...hit } = byName.get(a.name)!;
        return { ...hit, score: scores[i] ?? 0, ...(a.nearCopies ? { nearCopies: a.nearCopies } : {}) };
      }),
      effective: 'fts',
    };
  }

  private regexScan(regex: SafeRegex, filter: StoreFilter, limit: number): ScoredSkill[] {
    const scored: ScoredSkill[] = [];
    for (const row of this.deps.store.scan(filter)) {
      let score = 0;
      if (regex.testWhole(row.name)) score = REGEX_SCORES.fullName;
      else if (regex.testPrefix(row.name)) score = REGEX_SCORES.namePrefix;
      else if (regex.test(row.name)) score = REGEX_SCORES.nameSubstring;
      else if ([row.title, row.trigger, row.description, row.tags].some((f) => regex.test(f ?? ''))) score = REGEX_SCORES.descriptionOrTags;
      // Once the budget is spent every test answers false: stop rather than scan on blind.
      if (regex.exhausted) break;
      if (score === 0) continue;
      scored.push({ name: row.name, title: row.title, trigger: row.trigger, task_type: row.task_type, score });
    }
    scored.sort((a, b) => b.score - a.score || a.name.length - b.name.length || (a.name < b.name ? -1 : 1));
    return scored.slice(0, limit);
  }

  /** Closest names the caller may see (never out of scope, never from excluded packs). */
  closestNames(name: string, filter: StoreFilter): string[] {
    const candidates = new Map<string, number>();
    const lower = name.toLowerCase();
    const all = this.deps.store.names(filter);
    if (all.length <= 20000) {
      for (const candidate of all) {
        const d = editDistance(lower, candidate.toLowerCase());
        if (d <= Math.max(3, Math.floor(name.length / 2))) candidates.set(candidate, d);
      }
    }
    for (const hit of this.deps.store.searchRanked(name, filter, 3)) {
      if (!candidates.has(hit.name)) candidates.set(hit.name, 100);
    }
    return [...candidates.entries()]
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 3)
      .map(([n]) => n);
  }
}
