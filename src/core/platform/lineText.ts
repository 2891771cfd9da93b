/**
 * Text from files, scripts or a model (names, arguments, messages that quote them) shown one
 * record per line — in a terminal or a confirmation dialog. A newline or other control character
 * must not start a forged line, escape sequences must not drive a terminal, and bidirectional
 * overrides must not make the text read differently from what it is. Control characters (C0,
 * DEL, C1), line/paragraph separators, bidi controls and the backslash itself are written as
 * escapes, so every record stays one line and reads back unambiguously.
 */
const LINE_BREAKING = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069';
const NEEDS_ESCAPE = new RegExp(`[\\\\${LINE_BREAKING}]`, 'g');
const HAS_LINE_BREAKING = new RegExp(`[${LINE_BREAKING}]`);

export function escapeForLine(text: string): string {
  return text.replace(NEEDS_ESCAPE, (ch) => {
    if (ch === '\\') return '\\\\';
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** Whether `text` holds a character escapeForLine would rewrite other than the backslash. */
export function hasLineBreakingCharacter(text: string): boolean {
  return HAS_LINE_BREAKING.test(text);
}
