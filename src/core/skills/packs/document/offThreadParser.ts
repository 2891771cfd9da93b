import type { OffThreadRunner } from '../../../platform/offThreadRunner';
import { FILE_START, makeProblem, PROBLEM_CODES } from './skillProblems';
import { parseSkillDocument } from './skillDocumentParser';
import type { ParseOptions, ParseResult } from './skillDocumentParser';

/** How a loader parses a skill file: `parseSkillDocument`, here or on another thread. */
export type SkillDocumentParse = (text: string, fileName: string, options: ParseOptions) => Promise<ParseResult>;

/** Job kind of `parseSkillDocument` in the worker script (src/workers/parseWorker.ts). */
export const SKILL_PARSE_JOB = 'skill';

/**
 * `parseSkillDocument` with files over 64 KB on the runner's worker thread (same function, same
 * result); a parse stopped by the runner's timeout is an error on that file.
 */
export function offThreadSkillParse(runner: OffThreadRunner): SkillDocumentParse {
  return (text, fileName, options) => {
    return runner.runIfLarge<ParseResult>(text.length, {
      kind: SKILL_PARSE_JOB,
      args: [text, fileName, options],
      inline: () => parseSkillDocument(text, fileName, options),
      timedOut: (ms) => ({
        format: options.format,
        skills: [],
        problems: [
          makeProblem(
            fileName,
            FILE_START,
            'error',
            PROBLEM_CODES.parseError,
            `Parsing this file took longer than ${Math.round(ms / 1000)} s and was stopped. Split it into smaller skill files.`,
          ),
        ],
      }),
    });
  };
}
