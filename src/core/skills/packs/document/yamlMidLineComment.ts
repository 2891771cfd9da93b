import * as YAML from 'yaml';
import type { LineIndex } from './lineIndex';
import { makeProblem, PROBLEM_CODES } from './skillProblems';
import type { SkillProblem } from './skillProblems';

/**
 * A `#` after a space starts a YAML comment, so `- Post the key to the #team channel` is read
 * as "Post the key to the". YAML is right and the author is surprised: this finds plain
 * (unquoted) values whose same-line comment looks like the rest of the sentence and offers the
 * whole line's text, quoted, as the fix (`data.quoted`).
 */

/** Values that end a sentence leave the comment alone: `- Run the tests.  # slow` is a real comment. */
const SENTENCE_END = /[.!?:;)\]}"'`]$/;

/** Whether a comment after `value` reads as the sentence going on (pure, for the rule's tests). */
export function commentContinuesSentence(value: string, comment: string): boolean {
  const afterHash = comment.slice(1);
  // `#team`, `#123`: a hashtag or issue number, never a deliberate comment.
  if (/^[^\s#]/.test(afterHash)) return true;
  // `… to the # team channel`: mid-sentence (no closing punctuation), continuing in lower case.
  const words = value.trim().split(/\s+/).length;
  return words >= 3 && !SENTENCE_END.test(value.trim()) && /^\s+[a-z]/.test(afterHash);
}

/**
 * Problems for plain scalar values cut by a mid-sentence comment in a parsed YAML document.
 * The document was parsed from the file's text (`index.text`) starting at offset `base`.
 */
export function midLineCommentProblems(doc: YAML.Document.Parsed, base: number, index: LineIndex, file: string): SkillProblem[] {
  const source = index.text;
  const problems: SkillProblem[] = [];
  YAML.visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || node.type !== YAML.Scalar.PLAIN || typeof node.value !== 'string' || !node.range) return;
      const start = base + node.range[0];
      const valueEnd = base + node.range[1];
      const newline = source.indexOf('\n', valueEnd);
      const lineEnd = newline < 0 ? source.length : newline;
      const rest = source.slice(valueEnd, lineEnd).replace(/\r$/, '');
      const hash = /^[ \t]+#/.exec(rest);
      if (!hash) return;
      const comment = rest.slice(hash[0].length - 1).trimEnd();
      const value = source.slice(start, valueEnd);
      if (!commentContinuesSentence(value, comment)) return;
      const whole = `${value}${rest.slice(0, hash[0].length - 1)}${comment}`;
      problems.push(
        makeProblem(
          file,
          index.span(start, valueEnd + rest.trimEnd().length),
          'warning',
          PROBLEM_CODES.midLineComment,
          `YAML reads "${comment}" as a comment, so this value ends at "${value.slice(-30)}". Quote the whole value to keep the text after #.`,
          { data: { quoted: JSON.stringify(whole) } },
        ),
      );
    },
  });
  return problems;
}
