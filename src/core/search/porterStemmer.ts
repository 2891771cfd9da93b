/**
 * The Porter (1980) stemming algorithm, so "searching", "searches" and "searched" all index
 * as "search". Used on both sides (indexing and querying), so it only has to be consistent.
 */

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

function isConsonant(word: string, i: number): boolean {
  const ch = word[i];
  if (VOWELS.has(ch)) return false;
  if (ch === 'y') return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** m() in Porter's paper: the number of VC sequences in the stem. */
function measure(stem: string): number {
  let count = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    count++;
  }
  return count;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o: stem ends cvc, where the second c is not w, x or y. */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  if (!isConsonant(word, n - 1) || isConsonant(word, n - 2) || !isConsonant(word, n - 3)) return false;
  const last = word[n - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
}

function replaceSuffix(word: string, suffix: string, replacement: string, minMeasure: number): string | undefined {
  if (!word.endsWith(suffix)) return undefined;
  const stem = word.slice(0, word.length - suffix.length);
  return measure(stem) > minMeasure ? stem + replacement : word;
}

const STEP2: Array<[string, string]> = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];
const STEP3: Array<[string, string]> = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];
const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou',
  'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];

export function porterStem(input: string): string {
  let word = input;
  if (word.length <= 2) return word;

  // Step 1a
  if (word.endsWith('sses')) word = word.slice(0, -2);
  else if (word.endsWith('ies')) word = word.slice(0, -2);
  else if (word.endsWith('ss')) { /* keep */ }
  else if (word.endsWith('s')) word = word.slice(0, -1);

  // Step 1b
  let extra = false;
  if (word.endsWith('eed')) {
    if (measure(word.slice(0, -3)) > 0) word = word.slice(0, -1);
  } else if (word.endsWith('ed') && hasVowel(word.slice(0, -2))) {
    word = word.slice(0, -2);
    extra = true;
  } else if (word.endsWith('ing') && hasVowel(word.slice(0, -3))) {
    word = word.slice(0, -3);
    extra = true;
  }
  if (extra) {
    if (word.endsWith('at') || word.endsWith('bl') || word.endsWith('iz')) word += 'e';
    else if (endsDoubleConsonant(word) && !/[lsz]$/.test(word)) word = word.slice(0, -1);
    else if (measure(word) === 1 && endsCvc(word)) word += 'e';
  }

  // Step 1c
  if (word.endsWith('y') && hasVowel(word.slice(0, -1))) word = word.slice(0, -1) + 'i';

  // Step 2
  for (const [suffix, replacement] of STEP2) {
    if (word.endsWith(suffix)) {
      word = replaceSuffix(word, suffix, replacement, 0) ?? word;
      break;
    }
  }

  // Step 3
  for (const [suffix, replacement] of STEP3) {
    if (word.endsWith(suffix)) {
      word = replaceSuffix(word, suffix, replacement, 0) ?? word;
      break;
    }
  }

  // Step 4
  for (const suffix of STEP4) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (measure(stem) > 1) {
      if (suffix === 'ion') {
        if (/[st]$/.test(stem)) word = stem;
      } else {
        word = stem;
      }
    }
    break;
  }

  // Step 5a
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) word = stem;
  }
  // Step 5b
  if (measure(word) > 1 && endsDoubleConsonant(word) && word.endsWith('l')) word = word.slice(0, -1);

  return word;
}
