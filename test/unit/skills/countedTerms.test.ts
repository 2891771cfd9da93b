import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { TextAnalyzer, analyze } from '../../../src/core/search/textAnalysis';
import { TermVocabulary } from '../../../src/core/search/termStore';
import { SKILL_FIELDS } from '../../../src/core/skills/store/skillSearchIndex';
import { countedTerms } from '../../../src/core/skills/store/skillRows';
import { skillRecord } from './helpers';

/**
 * A stored skill's counted terms (`countedTerms`, what its term blob holds): each field's terms
 * as analysing that field's text alone gives them — a description that is its trigger's text is
 * analysed once and counted in both fields, one that differs in anything is analysed on its own.
 */

const words = fc.constantFrom('deploy', 'Deploys', 'the', 'review', 'pull', 'request', 'getUserById', 'café', 'of', 'PDF', 'x86_64');
const sentence = fc.array(words, { maxLength: 8 }).map((w) => w.join(' '));

/** Each field's terms and counts, read back through the vocabulary (field order: SKILL_FIELDS). */
function countsByField(counted: ReturnType<typeof countedTerms>, vocabulary: TermVocabulary): Array<Record<string, number>> {
  const out: Array<Record<string, number>> = [];
  let at = 0;
  for (const end of counted.fieldEnds) {
    const field: Record<string, number> = {};
    for (; at < end; at++) field[vocabulary.term(counted.ids[at] as number) as string] = counted.counts[at] as number;
    out.push(field);
  }
  return out;
}

function expectedCounts(texts: Record<string, string>): Array<Record<string, number>> {
  return SKILL_FIELDS.map((field) => {
    const counts: Record<string, number> = {};
    for (const term of analyze(texts[field] as string, { keepStopWords: field === 'name' })) counts[term] = (counts[term] ?? 0) + 1;
    return counts;
  });
}

describe('countedTerms (a stored skill’s terms per field)', () => {
  it('counts every field as its own text analyses, a description equal to the trigger or not (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(sentence, sentence, fc.constantFrom('same text', 'equal copy', 'other text', 'one more word')), { minLength: 1, maxLength: 12 }),
        (skills) => {
          // One analyser and vocabulary across the skills, as the store keeps them.
          const analyzer = new TextAnalyzer();
          const vocabulary = new TermVocabulary();
          for (const [trigger, other, how] of skills) {
            const description =
              how === 'same text' ? trigger : how === 'equal copy' ? [...trigger].join('') : how === 'one more word' ? `${trigger} deploy` : other;
            const record = skillRecord({ name: 'skill-a', title: 'Skill A', trigger, description, body: `${other} body` });
            const counted = countedTerms(record, analyzer, vocabulary);
            const texts = {
              name: record.name,
              title: record.title,
              trigger,
              description,
              tags: [...record.tags, ...record.triggers, record.domain, ...record.frames, record.task_type].join(' '),
              content: [...record.steps, ...record.preconditions, ...record.failure_modes, record.body].join('\n'),
            };
            assert.deepEqual(countsByField(counted, vocabulary), expectedCounts(texts));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
