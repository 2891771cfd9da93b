import fc from 'fast-check';
import { SAFE_REGEX_LIMITS } from '../../../src/core/search/safeRegex';

/** Patterns that make a backtracking engine run for seconds or forever on the texts below. */
export const HOSTILE_PATTERN_ARB = fc.oneof(
  fc.integer({ min: 20, max: 60 }).map((n) => `${'.?'.repeat(n)}x`.slice(0, SAFE_REGEX_LIMITS.maxPatternLength)),
  fc.integer({ min: 2, max: 12 }).map((n) => `${'.{0,99}'.repeat(n)}z`),
  fc.integer({ min: 2, max: 12 }).map((n) => `${'[a-z]{0,40}'.repeat(n)}!`),
  fc
    .tuple(fc.integer({ min: 10, max: 30 }), fc.constantFrom('(a|a)', '(a|ab)', '(?:a|.)', '(x|x?)'))
    .map(([n, group]) => `${group.repeat(n)}y`.slice(0, SAFE_REGEX_LIMITS.maxPatternLength)),
  fc.constantFrom('(a+)+$', '(a*)*b', '(.*)+x', '(a|aa)*$', '(\\w+\\s?)+$', '([a-z]+)*!', '((ab)*)+c', '(x+x+)+y', '(.*a){20}', '(a|a?)+b', '(?:a?){50}a{50}'),
  fc
    .tuple(
      fc.constantFrom('a', '.', '\\w', '[a-z]', '(a|b)', '(?:a|.)'),
      fc.constantFrom('*', '+', '?', '{0,30}', '{1,99}'),
      fc.integer({ min: 1, max: 8 }),
      fc.constantFrom('$', '!', 'x', ''),
    )
    .map(([atom, q, n, tail]) => `(${atom}${q})${q}`.repeat(n) + tail),
);

/** Long repetitive texts and realistic tool/skill-like texts. */
export const HOSTILE_TEXT_ARB = fc.oneof(
  fc.constantFrom('a'.repeat(5000), 'ab'.repeat(3000), `${'x'.repeat(2000)}y`),
  fc
    .array(fc.constantFrom('create', 'issue', 'repository', 'deploy_prod', 'a', 'aaaa', 'x', ' ', '\n', 'zz', '!', 'file_path'), { maxLength: 400 })
    .map((w) => w.join(' ')),
);
