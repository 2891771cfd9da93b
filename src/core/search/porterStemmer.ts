/**
 * The Porter (1980) stemming algorithm, so "searching", "searches" and "searched" all index
 * as "search". Used on both sides (indexing and querying), so it only has to be consistent.
 *
 * Written for a cold process (an index is built right after activation, before the JIT has
 * warmed up): character codes and end positions instead of substrings, and the suffix tables
 * of steps 2–4 grouped by their next-to-last letter, so a word is checked against the two or
 * three suffixes it can end with rather than against every one in turn.
 */

const A = 97;
const E = 101;
const I = 105;
const O = 111;
const U = 117;
const Y = 121;

/** Porter's consonant: not a, e, i, o, u, and not a y that follows a consonant. */
function isConsonant(word: string, i: number): boolean {
  const code = word.charCodeAt(i);
  if (code === A || code === E || code === I || code === O || code === U) return false;
  if (code === Y) return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** m() in Porter's paper: the number of VC sequences in `word`'s first `end` letters. */
function measure(word: string, end: number): number {
  let count = 0;
  let i = 0;
  while (i < end && isConsonant(word, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(word, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonant(word, i)) i++;
    count++;
  }
  return count;
}

function hasVowel(word: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(word, i)) return true;
  return false;
}

/** The first `end` letters end with a double consonant. */
function endsDoubleConsonant(word: string, end: number): boolean {
  return end >= 2 && word.charCodeAt(end - 1) === word.charCodeAt(end - 2) && isConsonant(word, end - 1);
}

/** *o: the first `end` letters end cvc, where the second c is not w, x or y. */
function endsCvc(word: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonant(word, end - 1) || isConsonant(word, end - 2) || !isConsonant(word, end - 3)) return false;
  const last = word.charCodeAt(end - 1);
  return last !== 119 /* w */ && last !== 120 /* x */ && last !== Y;
}

function isLsz(code: number): boolean {
  return code === 108 /* l */ || code === 115 /* s */ || code === 122; /* z */
}

type SuffixRule = readonly [suffix: string, replacement: string];

const STEP2: readonly SuffixRule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: readonly SuffixRule[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4: readonly SuffixRule[] = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
].map((suffix) => [suffix, ''] as const);

/**
 * A step's rules by the suffix's next-to-last letter (a–z → 0–25), in table order. Two suffixes
 * of one word share their last two letters (every suffix has ≥ 2), so the first rule of the
 * word's group that matches is the first rule of the whole table that matches.
 */
function byNextToLast(rules: readonly SuffixRule[]): ReadonlyArray<readonly SuffixRule[]> {
  const groups: SuffixRule[][] = Array.from({ length: 26 }, () => []);
  for (const rule of rules) groups[rule[0].charCodeAt(rule[0].length - 2) - A].push(rule);
  return groups;
}

const STEP2_GROUPS = byNextToLast(STEP2);
const STEP3_GROUPS = byNextToLast(STEP3);
const STEP4_GROUPS = byNextToLast(STEP4);

/** The rule of `groups` whose suffix `word` ends with first in table order, if any. */
function matchingRule(word: string, groups: ReadonlyArray<readonly SuffixRule[]>): SuffixRule | undefined {
  const group = word.length >= 2 ? groups[word.charCodeAt(word.length - 2) - A] : undefined;
  if (group === undefined) return undefined;
  for (let r = 0; r < group.length; r++) if (word.endsWith(group[r][0])) return group[r];
  return undefined;
}

/** Steps 2 and 3: the matching suffix is replaced when the stem before it has m() > 0. */
function replaceSuffix(word: string, groups: ReadonlyArray<readonly SuffixRule[]>): string {
  const rule = matchingRule(word, groups);
  if (rule === undefined) return word;
  const stemEnd = word.length - rule[0].length;
  return measure(word, stemEnd) > 0 ? word.slice(0, stemEnd) + rule[1] : word;
}

export function porterStem(input: string): string {
  let word = input;
  let n = word.length;
  if (n <= 2) return word;

  // Step 1a
  const last = word.charCodeAt(n - 1);
  if (last === 115 /* s */) {
    if (word.endsWith('sses') || word.endsWith('ies')) word = word.slice(0, n - 2);
    else if (word.charCodeAt(n - 2) !== 115) word = word.slice(0, n - 1);
    n = word.length;
  }

  // Step 1b
  let extra = false;
  if (word.endsWith('eed')) {
    if (measure(word, n - 3) > 0) word = word.slice(0, n - 1);
  } else if (word.endsWith('ed') && hasVowel(word, n - 2)) {
    word = word.slice(0, n - 2);
    extra = true;
  } else if (word.endsWith('ing') && hasVowel(word, n - 3)) {
    word = word.slice(0, n - 3);
    extra = true;
  }
  n = word.length;
  if (extra) {
    if (word.endsWith('at') || word.endsWith('bl') || word.endsWith('iz')) {
      word += 'e';
    } else if (endsDoubleConsonant(word, n) && !isLsz(word.charCodeAt(n - 1))) {
      word = word.slice(0, n - 1);
    } else if (measure(word, n) === 1 && endsCvc(word, n)) {
      word += 'e';
    }
    n = word.length;
  }

  // Step 1c
  if (word.charCodeAt(n - 1) === Y && hasVowel(word, n - 1)) word = word.slice(0, n - 1) + 'i';

  // Steps 2 and 3
  word = replaceSuffix(word, STEP2_GROUPS);
  word = replaceSuffix(word, STEP3_GROUPS);

  // Step 4: the suffix goes when the stem before it has m() > 1 ("ion" only after s or t).
  const rule = matchingRule(word, STEP4_GROUPS);
  if (rule !== undefined) {
    const stemEnd = word.length - rule[0].length;
    if (measure(word, stemEnd) > 1) {
      const before = stemEnd > 0 ? word.charCodeAt(stemEnd - 1) : 0;
      if (rule[0] !== 'ion' || before === 115 /* s */ || before === 116 /* t */) word = word.slice(0, stemEnd);
    }
  }

  // Step 5a
  n = word.length;
  if (word.charCodeAt(n - 1) === E) {
    const m = measure(word, n - 1);
    if (m > 1 || (m === 1 && !endsCvc(word, n - 1))) word = word.slice(0, n - 1);
  }
  // Step 5b
  n = word.length;
  if (word.charCodeAt(n - 1) === 108 /* l */ && measure(word, n) > 1 && endsDoubleConsonant(word, n)) word = word.slice(0, n - 1);

  return word;
}
