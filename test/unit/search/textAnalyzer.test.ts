import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { porterStem } from '../../../src/core/search/porterStemmer';
import { TextAnalyzer, analyze, splitIdentifier } from '../../../src/core/search/textAnalysis';

/** Text made of what tool metadata is made of: words, identifiers, stop words, digits, accents. */
const toolText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'The',
        'the',
        'THE',
        'of',
        'by',
        'getUserById',
        'HTTPServer',
        'mcp_github_create_issue',
        'math.hypot',
        'v2',
        'searching',
        'Searches',
        'café',
        'Ünïcode',
        'ﬁle',
        '東京',
        'x86_64',
        'IDs',
      ),
      // Words that share a beginning or differ only in case ("search", "Searches", "SEARCHING"),
      // so a memo that confused two of them would show.
      fc
        .tuple(
          fc.constantFrom('search', 'Search', 'SEARCH', 'the', 'The', 'analys', 'by', 'By'),
          fc.string({ unit: fc.constantFrom(...'sSeEdDiInNgGyY'.split('')), maxLength: 4 }),
        )
        .map(([stem, tail]) => stem + tail),
      fc.string({ unit: fc.constantFrom(...'aAeEiIyYsStTzZ019 _-.é'.split('')), maxLength: 12 }),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(' '));

describe('TextAnalyzer (analysis with a word memo)', () => {
  it('analyses as the documented pipeline: split identifiers, lower-case, drop stop words, stem', () => {
    const analyzer = new TextAnalyzer();
    assert.deepEqual(analyzer.analyze('getUserById: Searches the HTTPServer logs'), ['get', 'user', 'id', 'search', 'http', 'server', 'log']);
    assert.deepEqual(analyzer.analyze('getUserById', { keepStopWords: true }), ['get', 'user', 'by', 'id']);
    assert.deepEqual(analyzer.analyze('Café menus'), ['cafe', 'menu']);
  });

  it('gives the same terms as memo-less analysis, call after call, for any text (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(toolText, fc.boolean()), { minLength: 1, maxLength: 20 }), fc.constantFrom(1, 3, 50, 20_000), (calls, memoWords) => {
        // One analyser across every call, as an index uses it: a word remembered from one text
        // (or with the other stop-word option) must not change another text's terms.
        const memo = new TextAnalyzer(memoWords);
        for (const [text, keepStopWords] of calls) {
          const expected = new TextAnalyzer(0).analyze(text, { keepStopWords });
          assert.deepEqual(memo.analyze(text, { keepStopWords }), expected);
          assert.deepEqual(analyze(text, { keepStopWords }), expected);
        }
        assert.ok(memo.memoSize <= memoWords);
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same terms and ids while its memo grows past its first room, and after it is cleared when full (fast-check)', () => {
    // Thousands of distinct words (a real library's case variants and stems), so the memo grows
    // from its first 1,024 words and, bounded at 2,500, is cleared too.
    const word = fc
      .tuple(fc.constantFrom('Search', 'index', 'THE', 'run', 'by'), fc.nat({ max: 1999 }), fc.constantFrom('', 'ing', 'es', 'S'))
      .map(([stem, n, tail]) => `${stem}${n}${tail}`);
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 200, maxLength: 400 }), { minLength: 5, maxLength: 12 }),
        fc.constantFrom(2500, 1 << 17),
        (texts, memoWords) => {
          const analyzer = new TextAnalyzer(memoWords);
          const ids = new Map<string, number>();
          const dictionary = { generation: 0, idOf: (term: string) => ids.get(term) ?? (ids.set(term, ids.size), ids.size - 1) };
          for (const words of texts) {
            const text = words.join(' ');
            const expected = new TextAnalyzer(0).analyze(text);
            assert.deepEqual(
              [...analyzer.analyzeIds(text, dictionary)],
              expected.map((term) => dictionary.idOf(term)),
            );
            assert.deepEqual(analyzer.analyze(text), expected);
            assert.ok(analyzer.memoSize <= memoWords);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("analyzeIds gives the ids of analyze's terms, in order, through dictionaries that change and ids given out anew (fast-check)", () => {
    /** A dictionary that can forget every id (a new generation) and then gives ids from another start. */
    class Dictionary {
      generation = 0;
      private ids = new Map<string, number>();
      private next = 0;
      idOf(term: string): number {
        let id = this.ids.get(term);
        if (id === undefined) this.ids.set(term, (id = this.next++));
        return id;
      }
      renumber(): void {
        this.ids = new Map();
        this.next += 1000;
        this.generation++;
      }
    }
    fc.assert(
      fc.property(
        fc.array(fc.tuple(toolText, fc.boolean(), fc.constantFrom('same', 'other', 'renumber')), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(0, 3, 20_000),
        (calls, memoWords) => {
          const analyzer = new TextAnalyzer(memoWords);
          const first = new Dictionary();
          const second = new Dictionary();
          for (const [text, keepStopWords, step] of calls) {
            if (step === 'renumber') first.renumber();
            const dictionary = step === 'other' ? second : first;
            const expected = new TextAnalyzer(0).analyze(text, { keepStopWords }).map((term) => dictionary.idOf(term));
            assert.deepEqual([...analyzer.analyzeIds(text, dictionary, { keepStopWords })], expected);
            assert.deepEqual(analyzer.analyze(text, { keepStopWords }), new TextAnalyzer(0).analyze(text, { keepStopWords }));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the one-scan ASCII path equals splitIdentifier + lower-case + stem (fast-check)', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'aAbByYsSzZ09 _-.:/'.split('')), maxLength: 40 });
    fc.assert(
      fc.property(ascii, (text) => {
        const expected = splitIdentifier(text).map((word) => porterStem(word.toLowerCase()));
        assert.deepEqual(new TextAnalyzer().analyze(text, { keepStopWords: true }), expected);
      }),
      { numRuns: 500 },
    );
  });

  it('text with non-ASCII characters analyses as its NFKD form split by splitIdentifier (fast-check)', () => {
    // Characters NFKD leaves as separators (dashes, quotes, arrows, emoji, CJK, a lone surrogate)
    // and ones it turns into letters or digits (accents, ligatures, full-width, math letters, ①).
    const units = [...'aAbByYsSzZ09 _-.'.split(''), '—', '’', '→', '✅', '🚀', '東', '\ud800', 'é', 'e\u0301', 'ﬁ', 'Ａ', '𝐀', '①', '™', '½', '\u00a0'];
    const mixed = fc.array(fc.constantFrom(...units), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(mixed, fc.boolean(), (text, keepStopWords) => {
        const expected = splitIdentifier(text.normalize('NFKD')).map((word) => porterStem(word.toLowerCase()));
        assert.deepEqual(new TextAnalyzer().analyze(text, { keepStopWords: true }), expected);
        assert.deepEqual(new TextAnalyzer().analyze(text, { keepStopWords }), new TextAnalyzer(0).analyze(text.normalize('NFKD'), { keepStopWords }));
      }),
      { numRuns: 1000 },
    );
  });

  it('tells apart words of the same length whose memo keys (32-bit FNV-1a hashes) collide', () => {
    // Each pair hashes alike; the memo compares the characters.
    const pairs = [
      ['opcwesc', 'kmkjbhy'],
      ['ykgennr', 'ynuqjtu'],
      ['rnzvuez', 'twjegpg'],
    ];
    for (const memoWords of [3, 20_000]) {
      const analyzer = new TextAnalyzer(memoWords);
      for (const [a, b] of pairs) {
        assert.deepEqual(analyzer.analyze(`${a} ${b} ${a}`), [a, b, a]);
        assert.deepEqual(analyzer.analyze(`${b} ${a}`), [b, a]);
      }
    }
  });

  it('analyses a text of more words than its scan buffers keep room for, and short texts after it', () => {
    const long = Array.from({ length: 70_000 }, (_, i) => `w${i % 97}x searching`).join(' ');
    const analyzer = new TextAnalyzer();
    const terms = analyzer.analyze(long);
    assert.equal(terms.length, 280_000);
    assert.deepEqual(terms.slice(0, 8), ['w', '0', 'x', 'search', 'w', '1', 'x', 'search']);
    assert.deepEqual(analyzer.analyze('getUserById: Searches'), ['get', 'user', 'id', 'search']);
    assert.deepEqual(splitIdentifier('HTTPServer2x'), ['HTTP', 'Server', '2', 'x']);
  });

  it('keeps its memo bounded however many distinct words it sees', () => {
    const analyzer = new TextAnalyzer(1_000);
    const words = Array.from({ length: 5_000 }, (_, i) => `word${i.toString(36).replace(/[0-9]/g, 'q')}s`);
    for (let i = 0; i < words.length; i += 50) analyzer.analyze(words.slice(i, i + 50).join(' '));
    assert.ok(analyzer.memoSize > 0 && analyzer.memoSize <= 1_000, `memo holds ${analyzer.memoSize} words`);
    // Still right after the memo was cleared and refilled.
    assert.deepEqual(analyzer.analyze(`${words[0]} ${words[4_999]}`), new TextAnalyzer(0).analyze(`${words[0]} ${words[4_999]}`));
  });

  it('remembers nothing when told not to (memoWords 0)', () => {
    const analyzer = new TextAnalyzer(0);
    analyzer.analyze('many different words here');
    assert.equal(analyzer.memoSize, 0);
  });
});
