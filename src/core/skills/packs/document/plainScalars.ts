/**
 * The character-level pieces of the plain front-matter reader (plainFrontMatter.ts): which text it
 * may read at all, and how its scalars read (the YAML 1.2 core schema's values, single quotes).
 * Anything outside its subset throws `notPlain`, and the full parser reads the front matter.
 */

class NotPlain extends Error {}
export const notPlain = new NotPlain();

const SPACE = 32;
const LF = 10;
const CR = 13;
const SQUOTE = 39;

/** Scalars the YAML 1.2 core schema reads as something other than a string (its tags' tests). */
const CORE_NOT_STRING =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const TRUE = /^(?:[Tt]rue|TRUE)$/;
const FALSE = /^(?:[Ff]alse|FALSE)$/;
const DIGITS = /^[0-9]{1,15}$/;

/** No tab, no control character but `\n` (and `\r` before it), no other YAML line break, BOM or lone surrogate. */
export function plainCharacters(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c < SPACE) {
      if (c === LF) continue;
      if (c === CR && source.charCodeAt(i + 1) === LF) continue;
      return false;
    }
    if ((c >= 0x7f && c <= 0x9f) || c === 0xfeff || c === 0x2028 || c === 0x2029) return false;
    if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate pair (an emoji) is text; a lone half is not.
      const low = source.charCodeAt(i + 1);
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return false;
      i++;
    }
  }
  return true;
}

/** The position of the quote that closes a single-quoted scalar, searched from `from` up to `limit` (`''` is a quote inside it); −1 when none. */
export function closingQuote(source: string, from: number, limit: number): number {
  for (let i = from; i < limit; i++) {
    if (source.charCodeAt(i) !== SQUOTE) continue;
    if (i + 1 < limit && source.charCodeAt(i + 1) === SQUOTE) i++;
    else return i;
  }
  return -1;
}

/** Single-quoted text without its escapes (`''` is one quote). */
export function unquoted(text: string): string {
  return text.includes("''") ? text.replaceAll("''", "'") : text;
}

export function skipSpaces(source: string, from: number, limit: number): number {
  let i = from;
  while (i < limit && source.charCodeAt(i) === SPACE) i++;
  return i;
}

export function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** A plain scalar's value under the core schema: a string, an integer or a boolean (other types are not read here). */
export function plainValue(text: string): unknown {
  if (!CORE_NOT_STRING.test(text)) return text;
  if (TRUE.test(text)) return true;
  if (FALSE.test(text)) return false;
  if (DIGITS.test(text)) return parseInt(text, 10);
  throw notPlain;
}
