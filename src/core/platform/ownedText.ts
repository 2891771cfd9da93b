/**
 * Copies of text that hold no reference to a larger string. V8 keeps a substring (a slice, or a
 * string built by concatenating one) as a view into the string it came from, so a skill's name
 * or description kept for the life of the process would keep its whole SKILL.md alive: after a
 * cold load of 10,000 real skills, about 100 MB of file text nothing else used.
 */

/** `text` as a string of its own. */
export function ownedString(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/** A copy of plain data (JSON values) whose strings are its own; `undefined` properties are dropped. */
export function ownedCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
