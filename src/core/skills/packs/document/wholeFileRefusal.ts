import { PROBLEM_CODES } from './skillProblems';
import type { ProblemCode } from './skillProblems';

/** Why a whole file is refused before any format is parsed; `at` is the offending offset, if one. */
export interface WholeFileRefusal {
  at?: number;
  code: ProblemCode;
  message: string;
}

/**
 * The checks every skill file passes before its format is parsed: not too large (bounded work per
 * keystroke and per load), not binary, not empty. A refused file yields this one error and no skill.
 */
export function wholeFileRefusal(text: string, maxChars: number): WholeFileRefusal | undefined {
  if (text.length > maxChars) {
    return {
      code: PROBLEM_CODES.fileTooLarge,
      message: `File is too large (${text.length} characters; the limit is ${maxChars}). Split it into smaller skill files.`,
    };
  }
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return { at: nul, code: PROBLEM_CODES.binaryFile, message: 'File contains NUL bytes; it looks binary, not a skill file.' };
  if (text.trim().length === 0) {
    return {
      code: PROBLEM_CODES.emptyFile,
      message: 'File is empty. A skill needs at least a trigger and steps (or, for SKILL.md, a name, description and body).',
    };
  }
  return undefined;
}
