import { strict as assert } from 'node:assert';
import { EXACT_SCORE, REGEX_SCORES, normalizeBm25 } from '../../../src/core/search/scoring';
import { analyze, splitIdentifier } from '../../../src/core/search/textAnalysis';

describe('text analysis', () => {
  it('the one-pass ASCII analyzer splits exactly like splitIdentifier (randomised)', () => {
    const reference = (text: string, keepStopWords: boolean) =>
      splitIdentifier(text)
        .map((part) => part.toLowerCase())
        .filter((lower) => keepStopWords || analyze(lower).length > 0)
        .map((lower) => analyze(lower, { keepStopWords: true })[0]);
    const fixed = ['getUserById', 'HTTPServer2Go', 'mcp_github_create_issue', 'math.hypot', 'ID3v2Tag', 'aB9cDEFg_h-1.x', 'the Use of IO', ''];
    const alphabet = 'aAbBzZ09_ .-xXyYHTTPServer getUserById$ID3v2';
    let seed = 11;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const random = Array.from({ length: 3000 }, () =>
      Array.from({ length: Math.floor(rand() * 16) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(''),
    );
    for (const text of [...fixed, ...random]) {
      for (const keep of [false, true]) assert.deepEqual(analyze(text, { keepStopWords: keep }), reference(text, keep), JSON.stringify(text));
    }
    assert.deepEqual(analyze('Café crème'), ['cafe', 'cre']); // non-ASCII keeps the NFKD path (unchanged)
  });
});

describe('score contract helpers', () => {
  it('normalizeBm25 maps into [0,1], 0.5 when all equal, monotone', () => {
    assert.deepEqual(normalizeBm25([]), []);
    assert.deepEqual(normalizeBm25([3, 3]), [0.5, 0.5]);
    assert.deepEqual(normalizeBm25([7]), [0.5]);
    const scores = normalizeBm25([10, 5, 1, 0, -1, Number.NaN]);
    assert.ok(scores.every((s) => s >= 0 && s <= 1));
    assert.equal(scores[0], 1);
    assert.ok(scores[0] > scores[1] && scores[1] > scores[2]);
    assert.equal(EXACT_SCORE, 1);
    assert.deepEqual([REGEX_SCORES.fullName, REGEX_SCORES.namePrefix, REGEX_SCORES.nameSubstring, REGEX_SCORES.descriptionOrTags], [0.95, 0.9, 0.85, 0.75]);
  });

  it('text analysis splits identifiers and stems', () => {
    assert.deepEqual(splitIdentifier('getUserById'), ['get', 'User', 'By', 'Id']);
    assert.deepEqual(analyze('mcp_github_createIssue searching'), ['mcp', 'github', 'creat', 'issu', 'search']);
    assert.deepEqual(analyze('math.hypot'), ['math', 'hypot']);
  });
});
