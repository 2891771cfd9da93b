import { strict as assert } from 'node:assert';
import { SAFE_REGEX_LIMITS, boundSubject, compileSafeRegex } from '../../../src/core/search/safeRegex';

describe('compileSafeRegex', () => {
  it('accepts ordinary patterns, case-insensitive, with an anchored twin', () => {
    for (const pattern of ['create.*issue', '^git', 'issue|pull', 'mcp_[a-z]+_list', '\\bfile\\b', '(get|list)_issues', 'a{2,5}', '(?<name>abc)', 'x(?=y)']) {
      const result = compileSafeRegex(pattern);
      assert.ok(result.ok, `${pattern}: ${result.ok ? '' : result.message}`);
    }
    const result = compileSafeRegex('read');
    assert.ok(result.ok && result.regex.test('copilot_READFILE') && !result.anchored.test('readFile') && result.anchored.test('READ'));
  });

  it('rejects catastrophic shapes with an actionable message', () => {
    const bad = ['(a+)+$', '(a*)*b', '(.*)+x', '(a|aa)*$', '(\\w+\\s?)+$', '([a-z]+)*', '((ab)*)+', 'a.*b.*c.*d', '(x+){2,}'];
    for (const pattern of bad) {
      const result = compileSafeRegex(pattern);
      assert.ok(!result.ok, `${pattern} should be rejected`);
      assert.match(result.message, /Regex rejected/);
      assert.match(result.message, /simpler pattern|search_type/);
    }
  });

  it('rejects back-references, lookbehind, huge bounds, long and invalid patterns', () => {
    for (const pattern of ['(a)\\1', '(?<=x)y', 'a{1,5000}', 'x'.repeat(SAFE_REGEX_LIMITS.maxPatternLength + 1), '(unclosed', 'a)', '[abc', '', '*a']) {
      const result = compileSafeRegex(pattern);
      assert.ok(!result.ok, `${JSON.stringify(pattern).slice(0, 40)} should be rejected`);
    }
  });

  it('never hangs: every accepted pattern runs fast on a hostile bounded subject', () => {
    const hostile = 'a'.repeat(50_000) + '!';
    assert.equal(boundSubject(hostile).length, SAFE_REGEX_LIMITS.maxSubjectLength);
    const accepted = ['a*a*$', '(?:a|b)c', 'a+b', '.*.*z', '.*a.*a.*', 'a.*a.*z', '(ab)+', 'a{1,100}a{1,100}$', '\\w+\\s+x'];
    for (const pattern of accepted) {
      const result = compileSafeRegex(pattern);
      assert.ok(result.ok, pattern);
      const start = performance.now();
      result.regex.test(boundSubject(hostile, result.maxSubjectLength));
      result.anchored.test(boundSubject(hostile, result.maxSubjectLength));
      assert.ok(performance.now() - start < 500, `${pattern} took too long`);
    }
  });
});
