import { parentPort } from 'node:worker_threads';
import { parseSkillDocument } from '../core/skills/packs/document/skillDocumentParser';
import { SKILL_PARSE_JOB } from '../core/skills/packs/document/offThreadParser';
import { parseToolExamplesFile } from '../core/tools/examples/toolExamples';
import { TOOL_EXAMPLES_PARSE_JOB } from '../core/tools/examples/offThreadExamples';
import { readAnalysedSkillFile, SKILL_FILE_JOB } from '../core/skills/packs/offThreadSkillFiles';

/**
 * Entry of the parser thread (bundled as `dist/parseWorker.js`; the client is
 * src/core/platform/offThreadRunner.ts): runs one job per message and posts the result back, in
 * the order the messages came (a job that waits, such as a file read, finishes in a turn of its
 * own). Results are plain data, so they cross the thread boundary as they are.
 */
const JOBS: Record<string, (...args: never[]) => unknown> = {
  [SKILL_PARSE_JOB]: parseSkillDocument,
  [TOOL_EXAMPLES_PARSE_JOB]: parseToolExamplesFile,
  [SKILL_FILE_JOB]: readAnalysedSkillFile,
};

parentPort?.on('message', (message: { id: number; kind: string; args: never[] }) => {
  const job = JOBS[message.kind];
  const fail = (error: unknown) => parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  try {
    if (!job) throw new Error(`unknown job kind "${message.kind}"`);
    const result = job(...message.args);
    if (result instanceof Promise) result.then((value: unknown) => parentPort?.postMessage({ id: message.id, result: value }), fail);
    else parentPort?.postMessage({ id: message.id, result });
  } catch (error) {
    fail(error);
  }
});
