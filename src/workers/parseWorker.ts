import { parentPort } from 'node:worker_threads';
import { parseSkillDocument } from '../core/skills/packs/document/skillDocumentParser';
import { SKILL_PARSE_JOB } from '../core/skills/packs/document/offThreadParser';
import { parseToolExamplesFile } from '../core/tools/examples/toolExamples';
import { TOOL_EXAMPLES_PARSE_JOB } from '../core/tools/examples/offThreadExamples';
import { countSkillTerms, SKILL_TERMS_JOB } from '../core/skills/packs/offThreadSkillTerms';

/**
 * Entry of the parser thread (bundled as `dist/parseWorker.js`; the client is
 * src/core/platform/offThreadRunner.ts): runs one job per message (a parse, or counting a load's
 * skill terms) and posts the result back, in the order the messages came.
 * Results are plain data, so they cross the thread boundary as they are.
 */
const JOBS: Record<string, (...args: never[]) => unknown> = {
  [SKILL_PARSE_JOB]: parseSkillDocument,
  [TOOL_EXAMPLES_PARSE_JOB]: parseToolExamplesFile,
  [SKILL_TERMS_JOB]: countSkillTerms,
};

parentPort?.on('message', (message: { id: number; kind: string; args: never[] }) => {
  const job = JOBS[message.kind];
  try {
    if (!job) throw new Error(`unknown job kind "${message.kind}"`);
    parentPort?.postMessage({ id: message.id, result: job(...message.args) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
