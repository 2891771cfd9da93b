import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { SAFE_REGEX_LIMITS, compileSafeRegex } from '../../../src/core/search/safeRegex';
import { HOSTILE_PATTERN_ARB, HOSTILE_TEXT_ARB } from './hostilePatterns';

describe('compileSafeRegex', () => {
  it('accepts ordinary patterns, case-insensitive, with prefix and whole-subject tests', () => {
    for (const pattern of ['create.*issue', '^git', 'issue|pull', 'mcp_[a-z]+_list', '\\bfile\\b', '(get|list)_issues', 'a{2,5}', '(?<name>abc)', '(a+)+$']) {
      const result = compileSafeRegex(pattern);
      assert.ok(result.ok, `${pattern}: ${result.ok ? '' : result.message}`);
    }
    const result = compileSafeRegex('read');
    assert.ok(result.ok);
    assert.ok(result.regex.test('copilot_READFILE'));
    assert.ok(!result.regex.testWhole('readFile') && result.regex.testWhole('READ'));
    assert.ok(result.regex.testPrefix('readFile') && !result.regex.testPrefix('copilot_readFile'));
    const stripped = compileSafeRegex('.*issue.*');
    assert.ok(stripped.ok && !stripped.regex.testWhole('create_issue') && stripped.regex.test('create_issue'));
  });

  it('refuses what it cannot run safely, with a message that says what to change', () => {
    const cases: Array<[string, RegExp]> = [
      ['(a)\\1', /back-references/],
      ['(?<=x)y', /lookahead and lookbehind/],
      ['x(?=y)', /lookahead and lookbehind/],
      ['\\u0041', /\\x\{XXXX\}/],
      ['a{1,5000}', /invalid pattern/],
      ['x'.repeat(SAFE_REGEX_LIMITS.maxPatternLength + 1), /characters long/],
      ['(unclosed', /invalid pattern/],
      ['a)', /invalid pattern/],
      ['[abc', /invalid pattern/],
      ['', /empty/],
      ['*a', /invalid pattern/],
      ['.{0,99}'.repeat(8), /too expensive/],
      ['(.{0,99}){8}z', /too expensive/],
    ];
    for (const [pattern, why] of cases) {
      const result = compileSafeRegex(pattern);
      assert.ok(!result.ok, `${JSON.stringify(pattern).slice(0, 40)} should be rejected`);
      assert.match(result.message, /^Regex rejected: /);
      assert.match(result.message, why);
      assert.match(result.message, /search_type "fts"/);
    }
  });

  it('an error never echoes the pattern (a tool name in it must not come back in a tool_search error)', () => {
    for (const pattern of ['(deploy_prod', 'deploy_prod)', '[deploy_prod', 'deploy_prod{2,5000}', '*deploy_prod', 'deploy_prod\\', '(?=deploy_prod)']) {
      const result = compileSafeRegex(pattern);
      assert.ok(!result.ok);
      assert.doesNotMatch(result.message, /deploy_prod/);
    }
  });

  it('a subject longer than the cut is never a whole match, and only its head is searched', () => {
    const result = compileSafeRegex('a+');
    assert.ok(result.ok);
    const long = 'a'.repeat(SAFE_REGEX_LIMITS.maxSubjectLength + 1);
    assert.ok(!result.regex.testWhole(long) && result.regex.test(long));
    const tail = compileSafeRegex('needle');
    assert.ok(tail.ok && !tail.regex.test(`${' '.repeat(SAFE_REGEX_LIMITS.maxSubjectLength)}needle`));
  });

  it('once the budget is spent, every test answers false and the matcher says exhausted', () => {
    const result = compileSafeRegex('a', { budgetMs: -1 });
    assert.ok(result.ok);
    assert.equal(result.regex.test('a'), false);
    assert.equal(result.regex.exhausted, true);
  });

  // A hang fails on mocha's timeout, naming this test; the time each pattern takes is a bench
  // row (bench/safetyBench.ts, "regex guard").
  it('property: hostile patterns finish on hostile and realistic texts (accepted or refused, never a hang)', () => {
    fc.assert(
      fc.property(HOSTILE_PATTERN_ARB, fc.array(HOSTILE_TEXT_ARB, { minLength: 1, maxLength: 20 }), (pattern, texts) => {
        const result = compileSafeRegex(pattern);
        if (result.ok) {
          for (const text of texts) {
            result.regex.test(text);
            result.regex.testPrefix(text);
            result.regex.testWhole(text);
          }
        } else {
          assert.match(result.message, /^Regex rejected: /);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("common patterns run on JavaScript's engine, risky ones on RE2", () => {
    const engine = (pattern: string) => {
      const result = compileSafeRegex(pattern);
      assert.ok(result.ok, pattern);
      return result.regex.engine;
    };
    for (const pattern of ['create.*issue', '^git', 'issue|pull', '(get|list)_issues?', '(get|list)_(issue|pr)s?', '.*issue.*', 'a{3}b+', '\\bfile\\b'])
      assert.equal(engine(pattern), 'js', pattern);
    for (const pattern of ['a.*b.*c', '(a+)+$', '(ab)*', `${'.?'.repeat(25)}x`, 'x?y?', '\\pL+', '[[:alpha:]]+', '(?i)abc', 'a{', `${'(a|a)'.repeat(22)}x`])
      assert.equal(engine(pattern), 're2', pattern);
  });

  it('property: JavaScript and RE2 agree on every pattern the fast path accepts', () => {
    const atom = fc.constantFrom('a', 'b', '.', '[a-c]', '[^b]', '\\w', '\\d', '_', 'A', '\\.', '\\b');
    const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '*?');
    const patternArb = fc
      .tuple(fc.array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 }), fc.boolean(), fc.boolean(), fc.option(fc.constantFrom('a', 'b_', 'x')))
      .map(([parts, start, end, alt]) => `${start ? '^' : ''}${parts.map(([a, q]) => a + q).join('')}${end ? '$' : ''}${alt ? `|${alt}` : ''}`);
    const subject = fc.array(fc.constantFrom('a', 'b', 'c', 'A', '_', '1', '.', ' ', 'x'), { maxLength: 12 }).map((c) => c.join(''));
    fc.assert(
      fc.property(patternArb, fc.array(subject, { minLength: 1, maxLength: 8 }), (pattern, subjects) => {
        const fast = compileSafeRegex(pattern);
        const re2 = compileSafeRegex(pattern, { engine: 're2' });
        if (!fast.ok || !re2.ok) return;
        for (const text of subjects) {
          assert.equal(fast.regex.test(text), re2.regex.test(text), `${pattern} test ${JSON.stringify(text)}`);
          assert.equal(fast.regex.testPrefix(text), re2.regex.testPrefix(text), `${pattern} prefix ${JSON.stringify(text)}`);
          assert.equal(fast.regex.testWhole(text), re2.regex.testWhole(text), `${pattern} whole ${JSON.stringify(text)}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
