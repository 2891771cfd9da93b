/**
 * Safe compilation of regular expressions that come from a model (tool_search / skill_search
 * `search_type: "regex"`).
 *
 * Exports:
 * - `compileSafeRegex(pattern, options)` → `{ ok: true, regex, anchored }` or
 *   `{ ok: false, message }` where `message` tells a model what to change.
 * - `SAFE_REGEX_LIMITS` — the bounds applied.
 * - `boundSubject(text)` — cuts a subject to the length the bounds assume.
 *
 * JavaScript regexes backtrack and cannot be interrupted, so safety comes from static limits:
 * bounded pattern length; no back-references or lookbehind; no quantified group that itself
 * contains a quantifier or an alternation (`(a+)+`, `(a|ab)*` — the exponential cases); at most
 * two unbounded quantifiers (`*`, `+`, `{n,}`), so the worst case is polynomial of low degree;
 * and subjects cut by the caller (`boundSubject`) to a length that keeps that polynomial small:
 * an unanchored search with k unbounded quantifiers costs up to n^(k+1) steps, so with two of
 * them subjects are cut to 250 characters (≈1.6·10^7 steps), else to 1000.
 * A leading or trailing `.*` is dropped first: it changes nothing for a search but costs a
 * quantifier (`.*issue.*` is `issue`).
 */

export const SAFE_REGEX_LIMITS = {
  maxPatternLength: 200,
  maxUnboundedQuantifiers: 2,
  maxRepeatBound: 100,
  maxSubjectLength: 1000,
  maxSubjectLengthTwoUnbounded: 250,
} as const;

export type SafeRegexResult =
  | { ok: true; regex: RegExp; anchored: RegExp; /** Cut subjects to this length (see boundSubject). */ maxSubjectLength: number }
  | { ok: false; message: string };

export interface SafeRegexOptions {
  caseInsensitive?: boolean;
}

const HINT = 'Use a simpler pattern such as "create.*issue" or "^git", or search_type "fts" with plain words.';

/** Validates and compiles `pattern`; never throws. */
export function compileSafeRegex(pattern: string, options: SafeRegexOptions = {}): SafeRegexResult {
  if (pattern.length === 0) return { ok: false, message: `Regex rejected: the pattern is empty. ${HINT}` };
  if (pattern.length > SAFE_REGEX_LIMITS.maxPatternLength) {
    return { ok: false, message: `Regex rejected: the pattern is ${pattern.length} characters long; the limit is ${SAFE_REGEX_LIMITS.maxPatternLength}. ${HINT}` };
  }
  const searchPattern = stripOuterDotStar(pattern);
  const scanned = findDangerousConstruct(searchPattern);
  if (typeof scanned === 'string') return { ok: false, message: `Regex rejected: ${scanned}. ${HINT}` };
  const flags = options.caseInsensitive === false ? '' : 'i';
  const unbounded = scanned.unbounded;
  const body = searchPattern.length > 0 ? searchPattern : '(?:)';
  try {
    return {
      ok: true,
      regex: new RegExp(body, flags),
      anchored: new RegExp(`^(?:${body})$`, flags),
      maxSubjectLength: unbounded >= 2 ? SAFE_REGEX_LIMITS.maxSubjectLengthTwoUnbounded : SAFE_REGEX_LIMITS.maxSubjectLength,
    };
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : String(error);
    return { ok: false, message: `Regex rejected: invalid pattern (${detail}). ${HINT}` };
  }
}

/** Cuts a subject to the bounded length the regex limits assume. */
export function boundSubject(text: string, max: number = SAFE_REGEX_LIMITS.maxSubjectLength): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** `.*x.*` → `x` (top level only; an escaped `\.*` or a trailing `\.*` is kept). */
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


interface GroupFrame {
  hasQuantifier: boolean;
  hasAlternation: boolean;
}

/** A small scanner over the pattern's syntax; returns a description of the first problem. */
function findDangerousConstruct(pattern: string): string | { unbounded: number } {
  const stack: GroupFrame[] = [{ hasQuantifier: false, hasAlternation: false }];
  let unbounded = 0;
  let i = 0;
  // Whether the previous atom was a group that just closed, and what it contained.
  let lastClosed: GroupFrame | undefined;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return 'the pattern ends with a lone backslash';
      if (/[1-9]/.test(next) || next === 'k') return 'back-references (\\1, \\k<name>) are not allowed';
      i += 2;
      lastClosed = undefined;
      continue;
    }
    if (ch === '[') {
      // Skip a character class, honouring escapes; a class is a single atom.
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      if (j >= pattern.length) return 'a character class "[" is not closed';
      i = j + 1;
      lastClosed = undefined;
      continue;
    }
    if (ch === '(') {
      if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) return 'lookbehind is not allowed';
      stack.push({ hasQuantifier: false, hasAlternation: false });
      if (pattern.startsWith('(?<', i)) {
        const close = pattern.indexOf('>', i);
        if (close < 0) return 'a named group "(?<" is not closed';
        i = close + 1;
      } else {
        i += pattern.startsWith('(?:', i) || pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i) ? 3 : 1;
      }
      lastClosed = undefined;
      continue;
    }
    if (ch === ')') {
      if (stack.length === 1) return 'a ")" has no matching "("';
      const frame = stack.pop() as GroupFrame;
      const parent = stack[stack.length - 1];
      parent.hasQuantifier ||= frame.hasQuantifier;
      lastClosed = frame;
      i++;
      continue;
    }
    if (ch === '|') {
      stack[stack.length - 1].hasAlternation = true;
      lastClosed = undefined;
      i++;
      continue;
    }
    const quantifier = readQuantifier(pattern, i);
    if (quantifier) {
      if (quantifier.max === undefined) unbounded++;
      else if (quantifier.max > SAFE_REGEX_LIMITS.maxRepeatBound) {
        return `repetition bounds above ${SAFE_REGEX_LIMITS.maxRepeatBound} are not allowed`;
      }
      const repeats = quantifier.max === undefined || quantifier.max > 1;
      if (lastClosed && repeats && (lastClosed.hasQuantifier || lastClosed.hasAlternation)) {
        return 'nested quantifiers such as "(a+)+" or a repeated alternation such as "(a|ab)*" can take exponential time';
      }
      if (unbounded > SAFE_REGEX_LIMITS.maxUnboundedQuantifiers) {
        return `more than ${SAFE_REGEX_LIMITS.maxUnboundedQuantifiers} unbounded quantifiers ("*", "+", "{n,}")`;
      }
      stack[stack.length - 1].hasQuantifier = true;
      i = quantifier.end;
      if (pattern[i] === '?' || pattern[i] === '+') i++; // lazy (or, outside JS, possessive) suffix
      lastClosed = undefined;
      continue;
    }
    lastClosed = undefined;
    i++;
  }
  if (stack.length > 1) return 'a "(" is not closed';
  return { unbounded };
}

function readQuantifier(pattern: string, i: number): { max: number | undefined; end: number } | undefined {
  const ch = pattern[i];
  if (ch === '*' || ch === '+') return { max: undefined, end: i + 1 };
  if (ch === '?') return { max: 1, end: i + 1 };
  if (ch === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (!match) return undefined; // a literal "{" in JS non-unicode mode
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? undefined : Number(match[3]);
    return { max, end: i + match[0].length };
  }
  return undefined;
}
