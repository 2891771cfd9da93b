import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { OffThreadRunner } from '../../platform/offThreadRunner';
import type { Logger } from '../../platform/ports';
import { nodeFileSystem } from '../../platform/nodeFileSystem';
import type { CountedFields } from '../../search/countedFields';
import { TextAnalyzer } from '../../search/textAnalysis';
import type { TermIds } from '../../search/textAnalysis';
import type { TermVocabulary } from '../../search/termStore';
import { analysedIds } from '../store/skillTerms';
import { countIds } from '../../search/termStore';
import { readAndParseFile } from './skillFileReading';
import type { FileRead } from './skillFileReading';
import type { SkillFileRef } from './skillPackScanner';
import type { SkillAnalysis } from './skillPackWriter';

/**
 * A cold load's reading on a second thread: while the main thread writes one batch of files into
 * the store (sql.js, one thread), the load thread reads, parses and analyses the next (the same
 * functions: `readAndParseFile`, `analysedIds`). It stays up for the whole load (one parser
 * compiled once), is sent file paths (it reads the files itself) and sends back only what the
 * writer needs: the parsed skills, and per skill its terms counted under the thread's own term
 * numbers — typed arrays, with each batch's new terms once, mapped to the store's vocabulary ids
 * when a row is written (a skill never written adds no term). Content hashes stay on the main
 * thread: at 10,000 real files the thread had ~1.3 s more to do than the main thread, and the
 * hashes (~0.5 s) even them out.
 *
 * A thread that is unavailable, fails, hangs past the runner's timeout or answers out of step
 * loses nothing: that batch and the rest of the load are read here.
 */

/**
 * Heap limits of a load thread: a small young generation. Its parses die young (one batch), and
 * with V8's default (up to 48 MB) the thread's heap grew the process's peak by ~20 MB at 10,000
 * real files, over the 250 MB skills may take; at 6 MB it also spent less CPU collecting.
 */
export const LOAD_THREAD_LIMITS = { maxYoungGenerationSizeMb: 6 };

/**
 * The load thread of a headless skill service (the door session, the CLI's commands): the worker
 * script `script`, by default `parseWorker.js` beside this bundle (dist/, as esbuild.mjs builds
 * it); none when `script` is false or the file is not there (tests run from the sources).
 */
export function loadThreadFrom(script: string | false | undefined, logger: Logger): OffThreadRunner | undefined {
  const file = script ?? path.join(__dirname, 'parseWorker.js');
  return file && existsSync(file) ? new OffThreadRunner(file, logger, undefined, LOAD_THREAD_LIMITS) : undefined;
}

/** Job kind of `readForLoad` in the worker script (src/workers/parseWorker.ts). */
export const SKILL_LOAD_JOB = 'skill-load';

/** One file of a load thread's job. */
export type LoadJobFile = SkillFileRef & { packName: string };

interface AnalysedSkill extends CountedFields {
  /** The skill's distinct terms (thread numbers) in the order they first occur: new terms get store ids in this order. */
  firstSeen: Uint32Array;
}

/** A load thread's answer to one job. */
interface LoadJobReply {
  /** How many terms the thread had numbered for this load before this job: `terms` are numbered from there. */
  termsFrom: number;
  terms: string[];
  files: Array<FileRead & { analysed: AnalysedSkill[] }>;
}

/** A load thread's numbering of terms (ids are positions in `terms`). */
class ThreadTerms implements TermIds {
  readonly generation = 0;
  readonly terms: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Per term, the last skill (`firstSeen` call) it occurred in. */
  private seenIn = new Uint32Array(1024);
  private skills = 0;

  /** The distinct ids of `fields` (occurrence order, field after field) in the order they first occur. */
  firstSeen(fields: readonly Uint32Array[]): Uint32Array {
    if (this.seenIn.length < this.terms.length) {
      const grown = new Uint32Array(this.terms.length * 2);
      grown.set(this.seenIn);
      this.seenIn = grown;
    }
    const skill = ++this.skills;
    const out: number[] = [];
    for (const occurrences of fields)
      for (const id of occurrences)
        if (this.seenIn[id] !== skill) {
          this.seenIn[id] = skill;
          out.push(id);
        }
    return Uint32Array.from(out);
  }

  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }
}

/** Loads a thread serves at once; an older one's numbering is dropped (its client then reads here). */
const THREAD_LOADS = 4;
const threadLoads = new Map<string, { terms: ThreadTerms; analyzer: TextAnalyzer }>();

/** The load thread's side: reads, parses and analyses `files` of load `load` from the file system. */
export async function readForLoad(load: string, files: readonly LoadJobFile[]): Promise<LoadJobReply> {
  let state = threadLoads.get(load);
  if (!state) {
    if (threadLoads.size >= THREAD_LOADS) threadLoads.delete(threadLoads.keys().next().value as string);
    state = { terms: new ThreadTerms(), analyzer: new TextAnalyzer() };
    threadLoads.set(load, state);
  }
  const { terms, analyzer } = state;
  const termsFrom = terms.terms.length;
  const out: LoadJobReply['files'] = [];
  for (const file of files) {
    const read = await readAndParseFile(nodeFileSystem, undefined, file.packName, file);
    const analysed = read.skills.map((skill) => {
      const fields = analysedIds(skill, analyzer, terms);
      // Before countIds sorts each field's occurrences.
      const firstSeen = terms.firstSeen(fields);
      return { firstSeen, ...countIds(fields) };
    });
    out.push({ ...read, analysed });
  }
  return { termsFrom, terms: terms.terms.slice(termsFrom), files: out };
}

/** A file a load reads, by its position in the load's work list. */
export interface LoadFile {
  index: number;
  packName: string;
  ref: SkillFileRef;
}

/** A file as the writer takes it: read and parsed, and when read on the load thread, analysed. */
export type LoadedFile = FileRead & { analysed?: SkillAnalysis[] };

/**
 * The main thread's side, one per load: `read` gives a batch's files (from the thread, or read
 * here by `readHere`), `prefetch` starts the next batch on the thread while this one is written.
 */
export class OffThreadLoadReader {
  private readonly load = randomUUID();
  /** The thread's terms for this load, by its numbers. */
  private readonly threadTerms: string[] = [];
  /** The store vocabulary's id of each thread number, filled as rows are written. */
  private storeIds: number[] = [];
  private mappedFor: { vocabulary: TermVocabulary; generation: number } | undefined;
  private readonly pending = new Map<number, Promise<LoadedFile>>();
  private onThread = true;

  constructor(
    private readonly runner: OffThreadRunner,
    private readonly readHere: (file: LoadFile) => Promise<FileRead>,
  ) {}

  /** Whether every batch so far came from the thread (false once one was read here instead). */
  get threaded(): boolean {
    return this.onThread;
  }

  /** Starts reading these files (those not started yet) on the thread. */
  prefetch(files: readonly LoadFile[]): void {
    const fresh = files.filter((file) => !this.pending.has(file.index));
    if (fresh.length === 0) return;
    const batch = this.send(fresh);
    fresh.forEach((file, k) =>
      this.pending.set(
        file.index,
        batch.then((read) => read[k] as LoadedFile),
      ),
    );
  }

  async read(files: readonly LoadFile[]): Promise<LoadedFile[]> {
    this.prefetch(files);
    const read = await Promise.all(files.map((file) => this.pending.get(file.index) as Promise<LoadedFile>));
    for (const file of files) this.pending.delete(file.index);
    return read;
  }

  private async send(files: readonly LoadFile[]): Promise<LoadedFile[]> {
    const here = () => {
      this.onThread = false;
      return Promise.all(files.map((file) => this.readHere(file)));
    };
    if (!this.onThread) return here();
    const reply = await this.runner.run<LoadJobReply | Promise<FileRead[]>>({
      kind: SKILL_LOAD_JOB,
      args: [this.load, files.map((file): LoadJobFile => ({ ...file.ref, packName: file.packName }))],
      inline: here,
      timedOut: here,
    });
    if (Array.isArray(reply)) return reply;
    // Out of step (a restarted thread, or this load's numbering dropped): this batch and the rest here.
    if (reply.termsFrom !== this.threadTerms.length) return here();
    for (const term of reply.terms) this.threadTerms.push(term);
    return reply.files.map(({ analysed, ...read }) => ({
      ...read,
      analysed: analysed.map(({ firstSeen, ...counted }) => ({ terms: (vocabulary) => this.inVocabulary(counted, firstSeen, vocabulary) })),
    }));
  }

  /** Counted terms under the thread's numbers → under `vocabulary`'s ids, ascending within each field. */
  private inVocabulary(counted: CountedFields, firstSeen: Uint32Array, vocabulary: TermVocabulary): CountedFields {
    if (this.mappedFor?.vocabulary !== vocabulary || this.mappedFor.generation !== vocabulary.generation) {
      this.storeIds = [];
      this.mappedFor = { vocabulary, generation: vocabulary.generation };
    }
    // New terms get store ids in the order they occur in the skill, as analysing it here would
    // give them: the vocabulary, and so every score, comes out the same to the last bit.
    for (const id of firstSeen) if (this.storeIds[id] === undefined) this.storeIds[id] = vocabulary.idOf(this.threadTerms[id] as string);
    const ids = counted.ids.map((id) => this.storeIds[id] as number);
    const counts = counted.counts.slice();
    let start = 0;
    for (const end of counted.fieldEnds) {
      sortField(ids, counts, start, end);
      start = end;
    }
    return { ids, counts, fieldEnds: counted.fieldEnds };
  }
}

/** Sorts `ids[start, end)` ascending, `counts` along (usually already in order). */
function sortField(ids: Uint32Array, counts: Uint32Array, start: number, end: number): void {
  let sorted = true;
  for (let i = start + 1; i < end && sorted; i++) sorted = (ids[i - 1] as number) < (ids[i] as number);
  if (sorted) return;
  const order = Array.from({ length: end - start }, (_, k) => start + k).sort((a, b) => (ids[a] as number) - (ids[b] as number));
  const pairs = order.map((i) => [ids[i] as number, counts[i] as number] as const);
  pairs.forEach(([id, count], k) => {
    ids[start + k] = id;
    counts[start + k] = count;
  });
}
