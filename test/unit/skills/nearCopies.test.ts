import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { collapseNearCopies } from '../../../src/core/skills/nearCopies';

/**
 * Near-copy collapse hides every copy but one, so its fingerprint must tell apart any two
 * descriptions that differ in a letter of any script: a Devanagari or Thai vowel sign is a
 * combining mark, and dropping marks made "पढ़ें" and "पढ़" (or Thai "ดู" and "ด") one word.
 * True copies (case, punctuation and spacing aside) still collapse.
 */

/** Letters and the combining marks (vowel signs, tone marks, diacritics) of a few scripts. */
const SCRIPTS: Record<string, { letters: string; marks: string }> = {
  devanagari: { letters: 'कखगघचछजझटठडढणतथदधनपफबभमयरलवशषसह', marks: '\u093e\u093f\u0940\u0941\u0942\u0947\u0948\u094b\u094c\u0902\u0901\u094d\u093c' },
  thai: { letters: 'กขคงจฉชซญดตถทนบปผพฟภมยรลวศสหอฮ', marks: '\u0e31\u0e34\u0e35\u0e36\u0e37\u0e38\u0e39\u0e47\u0e48\u0e49\u0e4a\u0e4b\u0e4c' },
  bengali: { letters: 'কখগঘচছজঝটঠডঢণতথদধনপফবভমযরলশষসহ', marks: '\u09be\u09bf\u09c0\u09c1\u09c2\u09c7\u09c8\u09cb\u09cc\u0982\u09cd' },
  arabic: { letters: 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي', marks: '\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652' },
  latin: { letters: 'abcdefghijklmnopqrstuvwxyz', marks: '\u0300\u0301\u0302\u0303\u0308' },
};

const chars = (text: string) => [...text];

/** A word of one script: letters, each maybe followed by a mark. */
function word(script: { letters: string; marks: string }) {
  return fc
    .array(fc.tuple(fc.constantFrom(...chars(script.letters)), fc.option(fc.constantFrom(...chars(script.marks)), { nil: '' })), { minLength: 1, maxLength: 5 })
    .map((pairs) => pairs.map(([letter, mark]) => letter + mark).join(''));
}

const scriptName = fc.constantFrom(...Object.keys(SCRIPTS));

describe('near-copy collapse keeps every script’s letters', () => {
  it('the Hindi and Thai skills of the report stay two skills', () => {
    const hindi = collapseNearCopies([
      { name: 'read-summary', description: 'फ़ाइल को पढ़ें और सारांश लिखें' },
      { name: 'send-summary', description: 'फ़ाइल को पढ़ और सारांश लिख' },
    ]);
    assert.deepEqual(
      hindi.map((h) => h.name),
      ['read-summary', 'send-summary'],
    );
    const thai = collapseNearCopies([
      { name: 'thai-look', description: 'ดู ไฟล์ แล้ว สรุป ผล' },
      { name: 'thai-other', description: 'ด ไฟล์ แล้ว สรุป ผล' },
    ]);
    assert.equal(thai.length, 2, JSON.stringify(thai));
  });

  it('two descriptions that differ in one letter or mark of any script are never collapsed (fast-check)', () => {
    fc.assert(
      fc.property(
        scriptName.chain((name) => {
          const script = SCRIPTS[name]!;
          const alphabet = chars(script.letters + script.marks);
          return fc.tuple(fc.array(word(script), { minLength: 4, maxLength: 8 }), fc.nat(), fc.constantFrom(...alphabet), fc.boolean());
        }),
        ([words, at, replacement, drop]) => {
          const first = words.join(' ');
          const position = at % first.length;
          if (first[position] === ' ') return true;
          const changed = [...first];
          // Either change one letter or mark, or drop one (a word never becomes empty: its letter stays).
          if (drop && /\p{M}/u.test(first[position]!)) changed.splice(position, 1);
          else changed[position] = replacement;
          const second = changed.join('');
          if (second.normalize('NFKC').toLowerCase() === first.normalize('NFKC').toLowerCase()) return true;
          const kept = collapseNearCopies([
            { name: 'one', description: first },
            { name: 'two', description: second },
          ]);
          return kept.length === 2;
        },
      ),
      { numRuns: 500 },
    );
  });

  it('true copies still collapse in every script: case, punctuation and spacing aside (fast-check)', () => {
    fc.assert(
      fc.property(
        scriptName.chain((name) => fc.array(word(SCRIPTS[name]!), { minLength: 4, maxLength: 8 })),
        fc.constantFrom(' ', '  ', ', ', ' — ', '. ', '\n'),
        (words, separator) => {
          const kept = collapseNearCopies([
            { name: 'original', description: words.join(' ') },
            { name: 'copy', description: `${words.join(separator).toUpperCase()}!` },
          ]);
          return kept.length === 1 && kept[0]!.name === 'original' && kept[0]!.nearCopies?.[0] === 'copy';
        },
      ),
      { numRuns: 300 },
    );
  });
});
