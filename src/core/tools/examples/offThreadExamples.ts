import type { OffThreadRunner } from '../../platform/offThreadRunner';
import { parseToolExamplesFile } from './toolExamples';
import type { ParsedExamplesFile, ToolExamplesParse } from './toolExamples';

/** Job kind of `parseToolExamplesFile` in the worker script (src/workers/parseWorker.ts). */
export const TOOL_EXAMPLES_PARSE_JOB = 'toolExamples';

/** `parseToolExamplesFile` with files over 64 KB on the runner's worker thread (same result). */
export function offThreadToolExamplesParse(runner: OffThreadRunner): ToolExamplesParse {
  return (text, fileName) => {
    return runner.runIfLarge<ParsedExamplesFile>(text.length, {
      kind: TOOL_EXAMPLES_PARSE_JOB,
      args: [text, fileName],
      inline: () => parseToolExamplesFile(text, fileName),
      timedOut: (ms) => ({
        examples: {},
        problems: [`${fileName}: parsing took longer than ${Math.round(ms / 1000)} s and was stopped — split it into smaller *.tools.yaml files`],
      }),
    });
  };
}
