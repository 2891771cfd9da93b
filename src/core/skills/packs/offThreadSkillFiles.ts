import type { OffThreadRunner } from '../../platform/offThreadRunner';
import { nodeFileSystem } from '../../platform/nodeFileSystem';
import type { FileSystemPort } from '../../platform/ports';
import type { CountedFields } from '../../search/countedFields';
import { TermSession, ThreadTermCounter } from '../../search/threadTerms';
import type { CountedElsewhere } from '../../search/threadTerms';
import { countedTerms } from '../store/skillRows';
import { parseSkillDocument } from './document/skillDocumentParser';
import type { ParseOptions, ParseResult } from './document/skillDocumentParser';
import type { SkillDocumentParse } from './document/offThreadParser';
import { FILE_START, makeProblem, PROBLEM_CODES } from './document/skillProblems';
import type { SkillProblem } from './document/skillProblems';
import { readSkillFile } from './skillPackScanner';

/**
 * A load's skill files read, parsed and their search terms analysed on the parser thread
 * (src/workers/parseWorker.ts), so the thread that writes the store (the extension host's, or a
 * door's) does none of it: at 10,000 real files that was 1.7 s of a cold load's main thread —
 * reading and parsing ≈ 0.7 s, analysis ≈ 1 s — which the parser thread now does while the
 * previous batch is written (loadBatches.ts). The file is read under the loader's rules
 * (`readSkillFile`: a regular file, no link, at most 1 MiB, UTF-8) from the parser thread's own
 * file system access, so only a path crosses to it; the parse and the counted terms come back.
 * Terms are counted in the parser thread's own vocabulary and relabelled to the store's when a
 * skill is stored (`TermSession`): same terms and counts as analysing here.
 */

/** Job kind of `readAnalysedSkillFile` in the worker script. */
export const SKILL_FILE_JOB = 'skill-file';

/** What the parser thread sends back for one file. */
export interface SkillFileReply {
  /** Why the file was not read (it is not parsed then). */
  problem?: SkillProblem;
  result?: ParseResult;
  /** The worker's vocabulary (one per worker life). */
  session: string;
  /** Terms the worker's vocabulary gave ids while making this reply. */
  added: Array<[number, string]>;
  /** Per parsed skill (in `result.skills` order), its counted terms in the worker's ids. */
  counted: CountedFields[];
}

/** One file read and parsed: the read's problem, or the parse (with each skill's counted terms when they were analysed with it). */
type ReadSkill = { ok: false; problem: SkillProblem } | { ok: true; result: ParseResult; analysed?: CountedElsewhere[] };

/** How a load reads and parses one of its files. */
export type SkillFileParse = (file: string, options: ParseOptions) => Promise<ReadSkill>;

/** The worker's analyser and vocabulary, made on its first job (a thread that never runs one makes none). */
let terms: ThreadTermCounter | undefined;

/** The parser thread's job: reads `file`, parses it and counts each skill's terms. */
export async function readAnalysedSkillFile(file: string, options: ParseOptions): Promise<SkillFileReply> {
  const counter = (terms ??= new ThreadTermCounter());
  const read = await readSkillFile(nodeFileSystem, file);
  // From here to the reply nothing waits: the terms a reply uses were sent with it or before it.
  if (!read.ok) return { problem: read.problem, session: counter.session, added: [], counted: [] };
  const result = parseSkillDocument(read.text, file, options);
  const counted = result.skills.map((skill) => countedTerms(skill, counter.analyzer, counter.ids));
  return { result, session: counter.session, added: counter.added(), counted };
}

/**
 * A load's `SkillFileParse` over `runner`'s worker for a load on the node file system (`fs`
 * reads here when the worker is unavailable or fails: then the terms are analysed when stored,
 * as without a worker). A parse stopped by the runner's timeout is an error on that file.
 */
export function offThreadSkillFiles(runner: OffThreadRunner, fs: FileSystemPort): SkillFileParse {
  let current: TermSession | undefined;
  return async (file, options) => {
    const reply = await runner.run<SkillFileReply | ReadSkill>({
      kind: SKILL_FILE_JOB,
      args: [file, options],
      inline: () => readAndParseHere(fs)(file, options),
      timedOut: (ms) => ({
        ok: false,
        problem: makeProblem(
          file,
          FILE_START,
          'error',
          PROBLEM_CODES.parseError,
          `Parsing this file took longer than ${Math.round(ms / 1000)} s and was stopped. Split it into smaller skill files.`,
        ),
      }),
    });
    if ('ok' in reply) return reply;
    // Replies are read in the order the worker made them: a new session is a new worker.
    if (current?.id !== reply.session) current = new TermSession(reply.session);
    current.learn(reply.added);
    if (reply.problem || !reply.result) return { ok: false, problem: reply.problem ?? missingResult(file) };
    const session = current;
    return { ok: true, result: reply.result, analysed: reply.counted.map((counted) => ({ session, counted })) };
  };
}

/** Reading and parsing on this thread, with `fs` and `parse` (default: inline): no terms, they are analysed when stored. */
export function readAndParseHere(fs: FileSystemPort, parse?: SkillDocumentParse): SkillFileParse {
  return async (file, options) => {
    const read = await readSkillFile(fs, file);
    if (!read.ok) return read;
    return { ok: true, result: parse ? await parse(read.text, file, options) : parseSkillDocument(read.text, file, options) };
  };
}

function missingResult(file: string): SkillProblem {
  return makeProblem(file, FILE_START, 'error', PROBLEM_CODES.loadFailed, 'This file could not be loaded: the parser thread sent no result.');
}
