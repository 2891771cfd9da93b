import * as YAML from 'yaml';
import { lineEnd, nextLine } from './documentValues';

/**
 * Where a markdown skill's front matter is: opened by a first line `---`, closed by a line `---`
 * or `...`; the body follows.
 */
export type FrontMatterBlock =
  | { found: true; yamlStart: number; closeStart: number; closeEnd: number; body: string }
  | { found: false; code: 'missing-frontmatter' | 'unterminated-frontmatter'; message: string };

export function frontMatterBlock(text: string): FrontMatterBlock {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstLineEnd = lineEnd(text, bom);
  if (text.slice(bom, firstLineEnd).trimEnd() !== '---') {
    return {
      found: false,
      code: 'missing-frontmatter',
      message: 'Missing YAML frontmatter: the file must start with a line `---`, the skill fields, and a closing `---`.',
    };
  }
  const yamlStart = nextLine(text, firstLineEnd);
  for (let cursor = yamlStart; cursor < text.length;) {
    const end = lineEnd(text, cursor);
    const line = text.slice(cursor, end).trimEnd();
    if (line === '---' || line === '...') return { found: true, yamlStart, closeStart: cursor, closeEnd: end, body: text.slice(nextLine(text, end)).trim() };
    cursor = nextLine(text, end);
  }
  return { found: false, code: 'unterminated-frontmatter', message: 'Frontmatter is not closed: add a line `---` after the skill fields.' };
}

/**
 * A fallback for SKILL.md front matter that is not valid YAML only because a plain `key: value`
 * line holds text YAML reads as syntax — `description: Use when: (1) …` (a second `: `),
 * `description: , and then …` (a leading `,`), `argument-hint: [file] [line]` (brackets that are
 * not a list). Other agents read such a line as the key and the text after it, and public skills
 * are written that way (docs/skills.md, "Front matter other tools accept").
 *
 * Only top-level lines whose value alone does not parse are rewritten, as a quoted string of the
 * same text (continuation lines indented under it joined with spaces, as YAML folds a plain value);
 * line numbers stay as they were. Keys that change what runs or what a skill may use are never
 * rewritten: their file keeps its syntax error.
 */

/** Keys whose value is never guessed from broken YAML. */
const NEVER_REWRITTEN = new Set(['allowed-tools', 'scripts', 'requires', 'disable-model-invocation', 'id']);
const KEY_LINE = /^([A-Za-z0-9_][A-Za-z0-9_.-]*):[ \t]+(\S.*?)[ \t]*$/;
/** Front matter longer than this (real ones hold a few dozen lines) keeps its syntax error. */
const MAX_REREAD_LINES = 500;
/** Quoted and block values, anchors, aliases and tags are YAML the author meant as YAML. */
const NOT_PLAIN_START = /^["'|>&*!%@`#]/;

export interface QuotedValue {
  key: string;
  /** 0-based line of the key within the front matter. */
  line: number;
}

/**
 * The front matter with its unparsable plain values quoted, when that makes the whole of it valid
 * YAML; otherwise `undefined` (the original syntax error stands).
 */
/** The warning on a value read as text by `quoteUnparsablePlainValues`. */
export function quotedValueMessage(key: string): string {
  return `\`${key}\`: this value is not valid YAML (it holds \`: \`, or starts with a character YAML reads as syntax); it is read as the text after \`${key}:\`. Put the value in quotes so every tool reads it the same way.`;
}

export function quoteUnparsablePlainValues(source: string): { text: string; quoted: QuotedValue[] } | undefined {
  const lines = source.split('\n');
  // Each candidate line is parsed on its own: bounded so a hostile file cannot make that costly.
  if (lines.length > MAX_REREAD_LINES) return undefined;
  const quoted: QuotedValue[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const cr = line.endsWith('\r') ? '\r' : '';
    const match = KEY_LINE.exec(cr ? line.slice(0, -1) : line);
    if (!match) continue;
    const [, key = '', value = ''] = match;
    if (NEVER_REWRITTEN.has(key) || NOT_PLAIN_START.test(value)) continue;
    let end = i + 1;
    while (end < lines.length && /^[ \t]+\S/.test(lines[end] as string)) end++;
    if (!hasErrors(lines.slice(i, end).join('\n'))) continue;
    const text = [value, ...lines.slice(i + 1, end).map((l) => l.trim())].join(' ');
    lines[i] = `${key}: ${JSON.stringify(text)}${cr}`;
    for (let j = i + 1; j < end; j++) lines[j] = '';
    quoted.push({ key, line: i });
    i = end - 1;
  }
  if (quoted.length === 0) return undefined;
  const text = lines.join('\n');
  return hasErrors(text) ? undefined : { text, quoted };
}

function hasErrors(source: string): boolean {
  try {
    return YAML.parseDocument(source, { uniqueKeys: false, logLevel: 'silent' }).errors.length > 0;
  } catch {
    return true;
  }
}
