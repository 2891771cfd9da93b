import { strict as assert } from 'node:assert';
import { bm25FromMatchinfo, bm25FromMatchinfoBlob, ftsOrExpression, parseMatchinfoPcnalx } from '../../../src/core/search/ftsBm25';
import { EXACT_SCORE, REGEX_SCORES, normalizeBm25 } from '../../../src/core/search/scoring';
import { analyze, splitIdentifier } from '../../../src/core/search/textAnalysis';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';

describe('FTS4 BM25 from matchinfo', () => {
  it('parses pcnalx and ranks the more relevant row first', async () => {
    const engine = await loadSqlEngine({ allowedFts: ['fts4'] });
    assert.equal(engine.fts, 'fts4');
    const db = new engine.sql.Database();
    db.run('CREATE VIRTUAL TABLE t USING fts4(a, b)');
    db.run(
      `INSERT INTO t(docid, a, b) VALUES (1, 'issue create', 'make a new issue in github'), (2, 'file read', 'read issue file'), (3, 'weather', 'forecast')`,
    );
    const rows = db.exec(`SELECT docid, matchinfo(t, 'pcnalx') FROM t WHERE t MATCH ?`, [ftsOrExpression(['issue', 'create'])])[0].values;
    assert.equal(rows.length, 2);
    const byDoc = new Map(rows.map(([id, blob]) => [Number(id), blob as Uint8Array]));
    const info = parseMatchinfoPcnalx(byDoc.get(1)!);
    assert.equal(info.phrases, 2);
    assert.equal(info.columns, 2);
    assert.equal(info.rows, 3);
    assert.deepEqual(info.hitsThisRow[0], [1, 1]);
    const s1 = bm25FromMatchinfo(info, [2, 1]);
    const s2 = bm25FromMatchinfo(parseMatchinfoPcnalx(byDoc.get(2)!), [2, 1]);
    assert.ok(s1 > s2 && s2 > 0);
    assert.ok(Math.abs(bm25FromMatchinfoBlob(byDoc.get(1)!, [2, 1]) - s1) < 1e-9);
    db.close();
  });
});

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
