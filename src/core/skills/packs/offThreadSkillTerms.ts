import type { OffThreadRunner } from '../../platform/offThreadRunner';
import type { CountedFields } from '../../search/countedFields';
import { TermSession, ThreadTermCounter } from '../../search/threadTerms';
import type { CountedElsewhere } from '../../search/threadTerms';
import { countedTerms } from '../store/skillRows';
import type { AnalysedContent } from '../store/skillRows';
import type { ParsedSkill } from './document/parsedSkill';
import type { ParsedFile } from './skillPackWriter';

/**
 * A load's search terms counted on the parser thread (src/workers/parseWorker.ts), so the thread
 * that writes the store (the extension host's, or a door's) does not analyse the text: at 10,000
 * real files that was ≈ 1 s of a cold load's main thread, which the parser thread now does while
 * the previous batch is written (loadBatches.ts). Only the fields analysis reads cross to it (a
 * body's first 4,000 characters: all it analyses); each skill's counted terms come back, in the
 * parser thread's own vocabulary, relabelled to the store's when the skill is stored
 * (`TermSession`): the same terms and counts as analysing here. Parsing stays here: a parse's
 * garbage on a second heap cost more memory than the parse cost time, and with the whole parse
 * there the loading thread waited on this one instead (two cores: docs/benchmarks.md, "Tried and
 * not kept").
 */

/** Job kind of `countSkillTerms` in the worker script. */
export const SKILL_TERMS_JOB = 'skill-terms';

/** What the parser thread sends back for one file's skills. */
interface SkillTermsReply {
  /** The worker's vocabulary (one per worker life). */
  session: string;
  /** Terms the worker's vocabulary gave ids while making this reply. */
  added: Array<[number, string]>;
  /** Per skill (in the order sent), its counted terms in the worker's ids. */
  counted: CountedFields[];
}

/** How a load has its parsed skills' terms counted elsewhere (undefined: they are analysed when stored); `release` once a load has ended. */
export interface SkillTermCount {
  (skills: readonly ParsedSkill[]): Promise<CountedElsewhere[] | undefined>;
  release?(): void;
}

/** The worker's analyser and vocabulary, made on its first job (a thread that never runs one makes none). */
let terms: ThreadTermCounter | undefined;

/** The parser thread's job: each skill's counted terms (and the terms met first while counting them). */
export function countSkillTerms(contents: readonly AnalysedContent[]): SkillTermsReply {
  const counter = (terms ??= new ThreadTermCounter());
  const counted = contents.map((content) => countedTerms(content, counter.analyzer, counter.ids));
  return { session: counter.session, added: counter.added(), counted };
}

/** The characters of a body that analysis reads (skillRows.countedTerms): all that need cross. */
const ANALYSED_BODY_CHARS = 4000;

/**
 * A load's `SkillTermCount` over `runner`'s worker. When the worker is unavailable, fails or
 * times out, the skills' terms are analysed when they are stored, as without one.
 */
export function offThreadSkillTerms(runner: OffThreadRunner): SkillTermCount {
  let current: TermSession | undefined;
  const count: SkillTermCount = async (skills) => {
    const contents: AnalysedContent[] = skills.map((s) => ({
      name: s.name,
      title: s.title,
      trigger: s.trigger,
      // The same text is sent once: the worker sees the description is the trigger, as the store would.
      description: s.description === s.trigger ? s.trigger : s.description,
      tags: s.tags,
      triggers: s.triggers,
      domain: s.domain,
      frames: s.frames,
      task_type: s.task_type,
      steps: s.steps,
      preconditions: s.preconditions,
      failure_modes: s.failure_modes,
      body: s.body.length > ANALYSED_BODY_CHARS ? s.body.slice(0, ANALYSED_BODY_CHARS) : s.body,
    }));
    const reply = await runner.run<SkillTermsReply | undefined>({
      kind: SKILL_TERMS_JOB,
      args: [contents],
      inline: () => undefined,
      timedOut: () => undefined,
    });
    if (!reply) return undefined;
    // Replies are read in the order the worker made them: a new session is a new worker.
    if (current?.id !== reply.session) current = new TermSession(reply.session);
    current.learn(reply.added);
    const session = current;
    return reply.counted.map((counted) => ({ session, counted }));
  };
  // A load's end: the worker (its vocabulary, its heap) goes until it is next needed, and so does
  // this side's copy of its terms.
  count.release = () => {
    if (runner.release()) current = undefined;
  };
  return count;
}

/** Per file of a batch whose terms are being counted, that job (done: each file's `analysed` set, when they were counted). */
const counting = new WeakMap<ParsedFile, Promise<void>>();

/**
 * Starts counting a load's batch of parsed files' terms in one job (`termsCounted` waits for it).
 * One job a batch, not one a file: a job per file kept each file's parse alive across its own
 * round trip, and the loading thread's heap grew by 30–55 MB with them at 10,000 real files.
 */
export function countBatchTerms(count: SkillTermCount, parsed: Iterable<ParsedFile>): void {
  const files = [...parsed].filter((file) => file.skills.length > 0);
  if (files.length === 0) return;
  const job = count(files.flatMap((file) => file.skills)).then((analysed) => {
    let at = 0;
    for (const file of analysed ? files : []) file.analysed = analysed?.slice(at, (at += file.skills.length));
  });
  for (const file of files) counting.set(file, job);
}

/** Once every job counting these files' terms has ended (their `analysed` set, or left unset: analysed when stored). */
export async function termsCounted(files: Iterable<ParsedFile>): Promise<void> {
  await Promise.all([...files].flatMap((file) => counting.get(file) ?? []));
}
