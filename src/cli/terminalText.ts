/**
 * Text from files (names, keys, messages that quote them) printed one record per line: a
 * newline or other control character in a file name must not start a forged line, and escape
 * sequences must not drive the terminal. Control characters, line/paragraph separators and
 * the backslash itself are written as escapes, so every record stays one line and reads back
 * unambiguously.
 */
export function escapeForLine(text: string): string {
  return text.replace(/[\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => {
    if (ch === '\\') return '\\\\';
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
