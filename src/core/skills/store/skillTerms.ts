import type { CountedFields } from '../../search/countedFields';
import type { TermIds, TextAnalyzer } from '../../search/textAnalysis';
import { countIds } from '../../search/termStore';
import type { TermVocabulary } from '../../search/termStore';
import type { SkillRecord } from '../skillSchema';

/**
 * What a skill's text is analysed into: the one home of skill term analysis. The store runs it
 * as it writes a row, a load thread ahead of the write (packs/offThreadLoad.ts) — the same
 * function either way, so both store the same terms. Kept apart from the store's SQL code, so
 * the load thread's bundle carries only the analysis.
 */

/** The analysed fields of a skill, in stored order (search/termStore.ts keeps their terms). */
export const SKILL_FIELDS = ['name', 'title', 'trigger', 'description', 'tags', 'content'] as const;
export type SkillField = (typeof SKILL_FIELDS)[number];

/** The parts of a skill (a record, or the parsed skill it is made from) its terms come from. */
export type SkillTermSource = Pick<
  SkillRecord,
  'name' | 'title' | 'trigger' | 'description' | 'tags' | 'triggers' | 'domain' | 'frames' | 'task_type' | 'steps' | 'preconditions' | 'failure_modes' | 'body'
>;

/**
 * A skill's analysed terms per field, counted with the ids `ids` gives them (the store's
 * vocabulary, stored compactly in `skill_terms`, search/termStore.ts; or a load thread's own
 * numbering); `analyzer` is the caller's own (its word memo spans every skill and remembers each
 * word's id).
 */
export function countedTerms(record: SkillTermSource, analyzer: TextAnalyzer, ids: TermIds): CountedFields {
  return countIds(analysedIds(record, analyzer, ids));
}

/** Per field, the ids of a skill's analysed terms in the order they occur (what `countedTerms` counts). */
export function analysedIds(record: SkillTermSource, analyzer: TextAnalyzer, ids: TermIds): Uint32Array[] {
  const tags = [...record.tags, ...record.triggers, record.domain, ...record.frames, record.task_type].join(' ');
  const content = [...record.steps, ...record.preconditions, ...record.failure_modes, record.body.slice(0, 4000)].join('\n');
  const texts: Record<SkillField, string> = {
    name: record.name,
    title: record.title,
    trigger: record.trigger,
    description: record.description,
    tags,
    content,
  };
  // A skill's name keeps its stop words ("get", "by" matter in a name).
  return SKILL_FIELDS.map((field) => analyzer.analyzeIds(texts[field], ids, { keepStopWords: field === 'name' }));
}

/**
 * A skill's terms analysed before its row is written (by `countedTerms` on a load thread), given
 * the store vocabulary's ids (ascending within each field, as `countedTerms` gives them) when the
 * row is written.
 */
export type AnalysedTerms = (vocabulary: TermVocabulary) => CountedFields;
