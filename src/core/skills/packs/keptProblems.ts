import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { PROBLEM_CODES } from './document/skillProblems';
import type { SkillProblem } from './document/skillProblems';
import { NO_PROBLEMS } from '../store/skillFileFingerprints';
import type { FileFingerprint } from '../store/skillFileFingerprints';
import type { ParsedFile } from './skillPackWriter';

/**
 * A file's problems kept with its fingerprint: a file loaded cleanly (`cleanLoad`) leaves its
 * problems deflated, and every report of it — this load's, and each later start's while the file
 * is unchanged and not read (unchangedFiles.ts) — reads them back only when asked for: a real
 * library's warnings are ~15 MB of JSON at 10,000 skills, ~1.5 MB deflated, and most starts (the
 * hook, the MCP server's searches) never show them.
 */

/**
 * Errors a file's text alone decides (its syntax, fields and size): the same bytes give the same
 * errors, so such a file is trusted like one with warnings and its errors are reported again. Not
 * here, so always read again: what the moment decides (an unreadable file, a parse out of time,
 * a file that is not a regular one or lies outside its pack).
 */
const TEXT_ERRORS: ReadonlySet<string> = new Set([
  PROBLEM_CODES.parseError,
  PROBLEM_CODES.duplicateKey,
  PROBLEM_CODES.missingFrontmatter,
  PROBLEM_CODES.unterminatedFrontmatter,
  PROBLEM_CODES.notAMapping,
  PROBLEM_CODES.emptyFile,
  PROBLEM_CODES.wrongType,
  PROBLEM_CODES.invalidValue,
  PROBLEM_CODES.tooLong,
  PROBLEM_CODES.missingTrigger,
  PROBLEM_CODES.missingSteps,
  PROBLEM_CODES.missingBody,
  PROBLEM_CODES.missingName,
  PROBLEM_CODES.missingDescription,
  PROBLEM_CODES.invalidName,
  PROBLEM_CODES.nameMismatchFolder,
  PROBLEM_CODES.unknownField,
  PROBLEM_CODES.midLineComment,
  PROBLEM_CODES.tooManyProblems,
  PROBLEM_CODES.noSkills,
  PROBLEM_CODES.expandedTooLarge,
  PROBLEM_CODES.binaryFile,
  PROBLEM_CODES.invalidEncoding,
  PROBLEM_CODES.fileTooLarge,
]);

/**
 * What a file loaded cleanly left: how many skills it defined, and its warnings (reported again
 * while it is unchanged) as its fingerprint keeps them (`problemsBytes`).
 */
export interface CleanLoad {
  skillCount: number;
  problems: Uint8Array;
  /** Whether those problems hold an error (a fingerprint keeps the flag: the skill list reads only those files' problems back). */
  errors: boolean;
}

/**
 * What a file read in this load leaves to fingerprint, when what it loaded depends on its text
 * alone — the parser's warnings at most — or on that and an earlier definition of a name (a
 * duplicate, trusted while that file is). Real libraries are mostly files with warnings (an
 * unknown front-matter field, a name off the naming rule) and hold many copies; the problems are
 * kept with the fingerprint and reported again while the file is unchanged.
 */
export function cleanLoad(
  report: { skills: readonly unknown[]; problems: readonly SkillProblem[] } | undefined,
  file: ParsedFile | undefined,
): CleanLoad | undefined {
  if (!report || !file || file.problems.some((p) => p.severity === 'error' && !TEXT_ERRORS.has(p.code))) return undefined;
  const added = report.problems.slice(file.problems.length);
  if (added.some((p) => p.code !== PROBLEM_CODES.duplicateName || typeof p.data?.otherFile !== 'string')) return undefined;
  return { skillCount: report.skills.length, problems: problemsBytes(report.problems), errors: report.problems.some((p) => p.severity === 'error') };
}

/**
 * A file's problems as kept deflated (a fingerprint's, or a file's just loaded): the file they are
 * of, the bytes, and whether they hold an error (when known).
 */
type KeptProblems = Pick<FileFingerprint, 'file' | 'problems'> & { errors?: boolean };

/** What a report knows of its problems before they are read back (`problemsOnDemand`). */
export interface KnownErrorFree {
  /** Set when they are known to hold no error: the skill list then need not read them (skillTree.ts). */
  errorFree?: boolean;
}

/** Problems already read back, per fingerprint (a trusted file's are asked for twice: duplicates, then its report). */
const readBack = new WeakMap<KeptProblems, SkillProblem[]>();

/** The problems a trusted file had when it was last read (none for a fingerprint without any). */
export function storedProblems(fingerprint: KeptProblems | undefined): SkillProblem[] {
  if (!fingerprint || fingerprint.problems.length === 0) return [];
  let problems = readBack.get(fingerprint);
  if (!problems) {
    problems = decodedProblems(fingerprint);
    readBack.set(fingerprint, problems);
  }
  return problems;
}

function decodedProblems(fingerprint: KeptProblems): SkillProblem[] {
  if (fingerprint.problems.length === 0) return [];
  try {
    const stored = JSON.parse(inflateRawSync(fingerprint.problems).toString('utf8')) as unknown;
    return Array.isArray(stored) ? (stored as Array<Omit<SkillProblem, 'file'>>).map((p) => ({ ...p, file: fingerprint.file })) : [];
  } catch {
    return [];
  }
}

/**
 * A kept fingerprint as the next load keeps it: one whose error flag is set although its problems
 * hold no error (a fingerprint from before the flag, which marked every one) has it cleared, so the
 * skill list stops reading those problems back (once per file, at the first load after the upgrade;
 * not cached, so the warnings are not held for the session).
 */
export function withErrorFlag(kept: FileFingerprint): FileFingerprint {
  if (!kept.errors) return kept;
  const problems = readBack.get(kept) ?? decodedProblems(kept);
  return problems.some((p) => p.severity === 'error') ? kept : { ...kept, errors: false };
}

/**
 * `target.problems` (a file's report) as its fingerprint keeps them, read back when first asked
 * for: a real library's files hold tens of thousands of warnings (15 MB of JSON at 10,000 files),
 * and a start that shows none of them (the hook, the MCP server's searches) need not inflate and
 * parse them — here a file just loaded, from the bytes its new fingerprint will keep. Assigning a
 * list replaces them. (A trusted file's report is made with them: `reportWithKeptProblems`.)
 */
export function problemsOnDemand<T extends { problems: SkillProblem[] } & KnownErrorFree>(target: T, fingerprint: KeptProblems | undefined): T {
  // Whether they hold an error is kept beside them: the skill list asks only that (skillTree.ts).
  if (fingerprint?.errors === false) target.errorFree = true;
  let value: SkillProblem[] | undefined;
  Object.defineProperty(target, 'problems', {
    enumerable: true,
    configurable: true,
    get: () => (value ??= storedProblems(fingerprint)),
    set: (problems: SkillProblem[]) => {
      value = problems;
    },
  });
  return target;
}

/**
 * A trusted (unchanged) file's report, `fields` with the problems its stored fingerprint keeps,
 * read back when first asked for (as `problemsOnDemand`). A warm start makes one per file of the
 * library and keeps them until the next load, so they hold only the problems' bytes, with the
 * report's own path, not the fingerprint row, and share one class accessor.
 */
export function reportWithKeptProblems<T extends { file: string } & KnownErrorFree>(
  fields: T,
  fingerprint: KeptProblems | undefined,
): T & { problems: SkillProblem[] } {
  const kept = fingerprint && fingerprint.problems.length > 0 ? { file: fields.file, problems: fingerprint.problems } : undefined;
  const report = Object.assign(new ProblemsKept(kept), fields) as unknown as T & { problems: SkillProblem[] };
  // Already read back (a trusted file's duplicate check): those, not a second read.
  const known = fingerprint && readBack.get(fingerprint);
  if (known) report.problems = known;
  // Whether they hold an error is kept beside them: the skill list asks only that (skillTree.ts).
  if (fingerprint?.errors === false) report.errorFree = true;
  return report;
}

/**
 * A report whose problems are read back when first asked for, by the class's accessor: a getter
 * and setter defined on each report turned it into a dictionary-mode object with two closures of
 * its own (≈ 0.6 KB), ≈ 6 MB kept across a warm start's 10,000 file reports.
 */
class ProblemsKept {
  #kept: KeptProblems | undefined;
  #problems: SkillProblem[] | undefined;

  constructor(kept: KeptProblems | undefined) {
    this.#kept = kept;
  }

  get problems(): SkillProblem[] {
    return (this.#problems ??= storedProblems(this.#kept));
  }

  set problems(problems: SkillProblem[]) {
    this.#problems = problems;
    this.#kept = undefined;
  }
}

type ReportProblems = { problems: readonly SkillProblem[]; files: ReadonlyArray<{ problems: readonly SkillProblem[] }> };

/**
 * A load summary's problems and per-pack problem counts (`reports[i]` is `summary.packs[i]`'s),
 * gathered when first asked for (`problemsOnDemand`). Made here, not in the load, so the getters
 * keep only the reports alive, not the load's parsed files.
 */
export function problemsWhenAsked(summary: { problems: SkillProblem[]; packs: Array<{ problemCount: number }> }, reports: readonly ReportProblems[]): void {
  let problems: SkillProblem[] | undefined;
  Object.defineProperty(summary, 'problems', { enumerable: true, get: () => (problems ??= problemsOf(reports)) });
  summary.packs.forEach((pack, i) => {
    const report = reports[i];
    Object.defineProperty(pack, 'problemCount', { enumerable: true, get: () => (report ? problemsOf([report]).length : 0) });
  });
}

/** Every problem of a load's pack reports, pack problems first, then each file's in load order. */
function problemsOf(
  reports: ReadonlyArray<{ problems: readonly SkillProblem[]; files: ReadonlyArray<{ problems: readonly SkillProblem[] }> }>,
): SkillProblem[] {
  const out: SkillProblem[] = [];
  // Loops, not `push(...spread)`: a spread of a very long list overflows the call stack.
  for (const report of reports) {
    for (const problem of report.problems) out.push(problem);
    for (const file of report.files) for (const problem of file.problems) out.push(problem);
  }
  return out;
}

/**
 * How a file's problems are deflated. zlib's output chunk: most deflate to a few hundred bytes.
 * A small window and hash table and the fastest level: a file's problems are a few kilobytes of
 * JSON, and a cold load deflates 10,000 of them, each with a compressor of its own, whose set-up
 * (≈ 256 KB of tables at zlib's defaults) cost more than the deflating. Any raw deflate stream
 * inflates with the defaults, so problems kept by earlier versions read back as before; at 10,000
 * real skills they take 4 % more room (1.60 instead of 1.54 MB for the pool).
 */
const PROBLEMS_DEFLATE = { chunkSize: 1024, windowBits: 11, memLevel: 4, level: 1 } as const;

/**
 * A file's problems as a fingerprint keeps them: JSON with their file left empty (it is the
 * fingerprint's own; the key stays in its place, so a problem read back lists its fields in the
 * order a load made them), deflated — a real library's warnings are ~15 MB of JSON at 10,000
 * skills, ~1.5 MB deflated, and the store is held in memory (and copied on save) whole.
 */
function problemsBytes(problems: readonly SkillProblem[]): Uint8Array {
  if (problems.length === 0) return NO_PROBLEMS;
  // zlib writes into output chunks of `chunkSize` (16 KB by default), and its result is a view of
  // one: a load's 10,000 new fingerprints kept 160 MB alive until written, and made that much
  // garbage. The result is copied to its size.
  return new Uint8Array(deflateRawSync(JSON.stringify(problems.map((problem) => ({ ...problem, file: '' }))), PROBLEMS_DEFLATE));
}
