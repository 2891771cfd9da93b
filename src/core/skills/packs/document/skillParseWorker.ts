import { parentPort } from 'node:worker_threads';
import { parseSkillDocument } from './skillDocumentParser';
import type { ParseOptions } from './skillDocumentParser';

/**
 * Entry of the parse worker (bundled as `dist/skillParseWorker.js`; see offThreadParser.ts):
 * parses one skill file per message and posts the result back. The result is plain data
 * (skills, problems with spans), so it crosses the thread boundary as it is.
 */
parentPort?.on('message', (message: { id: number; text: string; fileName: string; options: ParseOptions }) => {
  let reply: { id: number; result?: ReturnType<typeof parseSkillDocument>; error?: string };
  try {
    reply = { id: message.id, result: parseSkillDocument(message.text, message.fileName, message.options) };
  } catch (error) {
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
