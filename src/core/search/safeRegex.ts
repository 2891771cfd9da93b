import { RE2JS } from 're2js';

/**
 * Safe matching with regular expressions that come from a model (tool_search / skill_search
 * `search_type: "regex"`).
 *
 * Exports:
 * - `compileSafeRegex(pattern, options)` → `{ ok: true, regex }` or `{ ok: false, message }`
 *   where `message` tells a model what to change.
 * - `SAFE_REGEX_LIMITS` — the bounds applied.
 *
 * JavaScript's own regexes backtrack and cannot be interrupted: a pattern such as `.?` ×25
 * followed by a literal, or `.{0,99}` ×8, passes any shape check and still runs for tens of
 * seconds. So model patterns run on RE2 (the `re2js` port): matching is linear in
 * program size × subject length whatever the pattern's shape — except patterns with at most
 * one variable repeat on a single atom (`create.*issue`, `^git`, `issue|pull`), which
 * JavaScript runs in at most quadratic time and 20–50× faster. The work of one search is then
 * bounded three ways: the compiled program size (big bounded repeats are refused as "too
 * expensive"), the subject length (texts are cut), and a wall-clock budget per search that
 * the matcher checks before every subject — once spent, the matcher reports `exhausted` and
 * callers stop their scan and say so.
 */

export const SAFE_REGEX_LIMITS = {
  maxPatternLength: 200,
  /** RE2 program instructions; `[a-z]{1,100}` is ~200, `.{0,99}` ×4 is ~800. Work per character grows with it. */
  maxProgramSize: 500,
  maxSubjectLength: 1000,
  /** Wall-clock budget for all matching in one search. */
  searchBudgetMs: 250,
} as const;

/** A compiled pattern with a work budget; one per search, never shared between searches. */
export interface SafeRegex {
  /** Which engine runs it: JavaScript's for patterns it runs in at most quadratic time, else RE2. */
  readonly engine: 'js' | 're2';
  /** The pattern matches somewhere in the subject (subjects are cut to the length limit). */
  test(subject: string): boolean;
  /** A match starts at the subject's first character. */
  testPrefix(subject: string): boolean;
  /** The whole subject matches. */
  testWhole(subject: string): boolean;
  /** True once the search's time budget is spent; every test then answers false. */
  readonly exhausted: boolean;
}

export type SafeRegexResult = { ok: true; regex: SafeRegex } | { ok: false; message: string };

export interface SafeRegexOptions {
  caseInsensitive?: boolean;
  /** Forces RE2 even where JavaScript's engine is safe (tests compare the two). */
  engine?: 'auto' | 're2';
  /** Overrides `SAFE_REGEX_LIMITS.searchBudgetMs` (tests). */
  budgetMs?: number;
}

const HINT = 'Use a simpler pattern such as "create.*issue" or "^git", or search_type "fts" with plain words.';

/** What a model reads when a scan ran out of its budget. */
export const REGEX_BUDGET_NOTE =
  'The regex pattern was too expensive: matching stopped at the time budget, so results may be incomplete. Use a shorter, more specific pattern (fewer optional or bounded repeats), or search_type "fts".';

/** Validates and compiles `pattern`; never throws, never runs unbounded. */
export function compileSafeRegex(pattern: string, options: SafeRegexOptions = {}): SafeRegexResult {
  if (pattern.length === 0) return { ok: false, message: `Regex rejected: the pattern is empty. ${HINT}` };
  if (pattern.length > SAFE_REGEX_LIMITS.maxPatternLength) {
    return {
      ok: false,
      message: `Regex rejected: the pattern is ${pattern.length} characters long; the limit is ${SAFE_REGEX_LIMITS.maxPatternLength}. ${HINT}`,
    };
  }
  const unsupported = unsupportedSyntax(pattern);
  if (unsupported) return { ok: false, message: `Regex rejected: ${unsupported}. ${HINT}` };
  const body = stripOuterDotStar(pattern) || '(?:)';
  const flags = options.caseInsensitive === false ? 0 : RE2JS.CASE_INSENSITIVE;
  let anywhere: RE2JS;
  let atStart: RE2JS;
  try {
    anywhere = RE2JS.compile(body, flags);
    atStart = RE2JS.compile(`^(?:${body})`, flags);
  } catch (error) {
    // RE2 quotes the offending part of the pattern; it is left out so that an error never
    // echoes text (such as a tool name) back to the model.
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '').replace(/:\s*`[\s\S]*`\s*$/, '') : String(error);
    return { ok: false, message: `Regex rejected: invalid pattern (${detail}). ${HINT}` };
  }
  if (anywhere.programSize() > SAFE_REGEX_LIMITS.maxProgramSize) {
    return {
      ok: false,
      message: `Regex rejected: the pattern is too expensive (its repeats expand to ${anywhere.programSize()} steps per character; the limit is ${SAFE_REGEX_LIMITS.maxProgramSize}). Use smaller repeat bounds such as "{0,20}", fewer optional parts, or search_type "fts".`,
    };
  }
  const budget = options.budgetMs ?? SAFE_REGEX_LIMITS.searchBudgetMs;
  // RE2 is linear but 20–50× slower than JavaScript's engine; most model patterns
  // ("create.*issue", "^git", "issue|pull") are safe to backtrack, so they run natively.
  const native = options.engine === 're2' ? undefined : nativeMatchers(body, options.caseInsensitive === false ? '' : 'i');
  if (native) return { ok: true, regex: budgeted('js', native, budget) };
  return {
    ok: true,
    regex: budgeted(
      're2',
      {
        test: (s) => anywhere.test(s),
        testPrefix: (s) => atStart.test(s),
        testWhole: (s) => anywhere.testExact(s),
      },
      budget,
    ),
  };
}

/**
 * JavaScript matchers for `body` when backtracking cannot blow up: at most one variable
 * repeat (`*`, `+`, `?`, `{m,n}`), on a single character, class or escape — never on a group
 * — so an unanchored search costs at most about n² steps on an n-character subject. Syntax
 * whose meaning differs between the engines (POSIX classes, `\p`, `\A`, `\z`, `\Q`, inline
 * flags) always goes to RE2.
 */
function nativeMatchers(body: string, flags: string): RawMatchers | undefined {
  if (!backtrackingSafe(body)) return undefined;
  try {
    const anywhere = new RegExp(body, flags);
    const atStart = new RegExp(`^(?:${body})`, flags);
    const whole = new RegExp(`^(?:${body})$`, flags);
    return { test: (s) => anywhere.test(s), testPrefix: (s) => atStart.test(s), testWhole: (s) => whole.test(s) };
  } catch {
    return undefined;
  }
}

/** Alternatives inside groups multiply the paths a backtracking engine may try: `(a|a)` ×22 is 4 million. */
const MAX_NATIVE_GROUP_PATHS = 16;

function backtrackingSafe(pattern: string): boolean {
  if (pattern.includes('[:')) return false;
  let variableRepeats = 0;
  let afterGroup = false;
  let afterQuantifier = false;
  let paths = 1;
  const groupBranches: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\') {
      if (/[pPAzZQECk0-9]/.test(pattern[i + 1] ?? '')) return false;
      i++;
    } else if (ch === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
    } else if (ch === '(') {
      if (pattern[i + 1] === '?' && !/^\(\?(?::|<[A-Za-z])/.test(pattern.slice(i, i + 4))) return false;
      groupBranches.push(1);
    } else if (ch === '|') {
      if (groupBranches.length > 0) groupBranches[groupBranches.length - 1]! += 1;
    } else if (ch === ')') {
      paths *= groupBranches.pop() ?? 1;
      if (paths > MAX_NATIVE_GROUP_PATHS) return false;
      afterGroup = true;
      afterQuantifier = false;
      continue;
    } else if (ch === '*' || ch === '+' || ch === '?' || ch === '{') {
      if (ch === '?' && afterQuantifier) continue; // lazy suffix
      const bounds = ch === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) : null;
      if (ch === '{' && !bounds) return false; // a literal "{": engines disagree
      if (afterGroup) return false;
      const fixed = bounds !== null && bounds[2] === undefined;
      if (!fixed && ++variableRepeats > 1) return false;
      if (bounds) i += bounds[0].length - 1;
      afterQuantifier = true;
      afterGroup = false;
      continue;
    }
    afterGroup = false;
    afterQuantifier = false;
  }
  return true;
}

type RawMatchers = Pick<SafeRegex, 'test' | 'testPrefix' | 'testWhole'>;

/** Wraps raw matchers with the subject cut and the per-search time budget. */
function budgeted(engine: SafeRegex['engine'], raw: RawMatchers, budgetMs: number): SafeRegex {
  const deadline = performance.now() + budgetMs;
  let exhausted = false;
  const spent = (): boolean => {
    if (!exhausted && performance.now() > deadline) exhausted = true;
    return exhausted;
  };
  const max = SAFE_REGEX_LIMITS.maxSubjectLength;
  return {
    engine,
    test: (s) => !spent() && raw.test(s.length > max ? s.slice(0, max) : s),
    testPrefix: (s) => !spent() && raw.testPrefix(s.length > max ? s.slice(0, max) : s),
    // A subject longer than the cut cannot be judged whole; it is never a whole match.
    testWhole: (s) => s.length <= max && !spent() && raw.testWhole(s),
    get exhausted() {
      return exhausted;
    },
  };
}

/** Names the JavaScript-only constructs RE2 refuses, in words a model can act on. */
function unsupportedSyntax(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return 'the pattern ends with a lone backslash';
      if (/[1-9]/.test(next) || next === 'k') return 'back-references (\\1, \\k<name>) are not supported';
      if (next === 'u') return '"\\uXXXX" escapes are not supported; write the character itself or "\\x{XXXX}"';
      i++;
    } else if (ch === '(' && /^\(\?<?[=!]/.test(pattern.slice(i, i + 4))) {
      return 'lookahead and lookbehind ("(?=", "(?!", "(?<=", "(?<!") are not supported';
    }
  }
  return undefined;
}

/** `.*x.*` → `x` (top level only; an escaped `\.*` or a trailing `\.*` is kept), so the score tiers see the literal. */
function stripOuterDotStar(pattern: string): string {
  let out = pattern;
  if (out.startsWith('.*') && !out.startsWith('.*?') && !/^\.\*[*+?{]/.test(out)) out = out.slice(2);
  if (out.endsWith('.*') && !out.endsWith('\\.*') && out.length >= 2 && !hasTopLevelAlternation(out)) out = out.slice(0, -2);
  return out;
}

function hasTopLevelAlternation(pattern: string): boolean {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) return true;
  }
  return false;
}
