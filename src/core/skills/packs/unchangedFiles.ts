import { hash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as path from 'node:path';
import type { FileStat, FileSystemPort } from '../../platform/ports';

/** What a fingerprint records of a file's stat. */
type FileTimes = Pick<FileStat, 'size' | 'mtimeMs'>;
import { HostSlices } from '../../platform/hostSlices';
import { markStart } from '../../platform/startTrace';
import { PROBLEM_CODES } from './document/skillProblems';
import type { SkillProblem } from './document/skillProblems';
import type { SkillStore } from '../store/skillStore';
import { NO_PROBLEMS } from '../store/skillFileFingerprints';
import type { FileFingerprint, StoredPackSkill } from '../store/skillFileFingerprints';
import { identityKey, sameScope } from '../store/skillScope';
import { formatAdmits, listSkillResources } from './skillPackScanner';
import { detectSkillFormat } from './document/skillDocumentParser';
import type { SkillFileRef } from './skillPackScanner';
import type { ResolvedSkillPack } from './skillPackSources';
import { packScope } from './skillPackWriter';
import type { ParsedFile } from './skillPackWriter';

/**
 * Which skill files a load need not read (a warm start): a file is trusted unchanged when its
 * fingerprint from the last load (skill_files) says it was loaded cleanly — no error but a
 * duplicate name (below) or one its own text decides (`TEXT_ERRORS`), the problems kept with the
 * fingerprint — under the same pack settings, with the same size and modification time, and the store still
 * holds exactly the skills it defined then. Never trusted, so always read: a file modified
 * within RACY_MS of its fingerprint (a write inside the clock's resolution could hide), a file
 * with a skill that has `requires` (the environment may have changed), a SKILL.md whose resource
 * folders list differently now, and a file defining a name a file that was read also defines
 * (which definition wins depends on both; see `collisions`). A file that lost a name to an
 * earlier definition (`duplicate-name`) is trusted only while that earlier file is trusted and
 * still comes first in load order: real libraries hold many such copies, and reading every one
 * (with the file it lost to) on every start read a fifth of a real library again.
 */

export interface WorkItem {
  pack: ResolvedSkillPack;
  ref: SkillFileRef;
}

export interface UnchangedCheck {
  /** Per work index: the stored skills of a file that need not be read. */
  unchanged: Map<number, StoredPackSkill[]>;
  /** Per work index: its stat before it was read (what a new fingerprint records). */
  stats: Array<FileTimes | undefined>;
  fingerprints: Map<string, FileFingerprint>;
  /** Per work index of a trusted file that lost names to earlier definitions: the work indices of those files. */
  winners: Map<number, number[]>;
  /** Per identity (`identityKey`), the work indices of the unchanged files that hold it: made at the first `collisions`. */
  holders?: Map<string, number[]>;
}

const RACY_MS = 2000;
/** Files the duplicate rule looks at between two looks at the slice clock. */
const ENTRIES_PER_LOOK = 16;
const STAT_CONCURRENCY = 32;

/**
 * What a file's fingerprint is keyed on: the pack settings that shape its records (a change means
 * every file of the pack is read again) and, per skill it defined, the identity, line and content
 * hash as stored (a row changed or damaged since means the file is read again).
 */
function fileKey(pack: ResolvedSkillPack, skills: readonly StoredPackSkill[]): string {
  const defined = skills.map((s) => `${identityKey(s)}\u0000${s.line}\u0000${s.contentHash}`).sort();
  // One-shot hashing (no Hash object per file): a warm start keys every file it trusts.
  return hash('sha256', `[${packSettings(pack)},${JSON.stringify(defined)}]`, 'hex');
}

/** Per pack (object), its settings as JSON text: asked once per file of the pack. */
const settingsText = new WeakMap<ResolvedSkillPack, string>();

function packSettings(pack: ResolvedSkillPack): string {
  let text = settingsText.get(pack);
  if (text === undefined) {
    text = JSON.stringify(
      JSON.stringify([
        pack.name,
        pack.root,
        pack.format ?? '',
        pack.scopeMode,
        pack.tenantId ?? '',
        pack.projectId ?? '',
        pack.workspace,
        pack.updateExistingPackSkills,
      ]),
    );
    settingsText.set(pack, text);
  }
  return text;
}

/**
 * The check, on the extension host's thread in VS Code: its reads of every fingerprint and every
 * pack skill's row (≈ 120 ms in one stretch at 10,000 files, which a crossing of the workbench's
 * first tool call could wait behind), its stats and its duplicate rule run in slices of `slices`,
 * the host given a turn between them.
 */
export async function findUnchangedFiles(
  fs: FileSystemPort,
  store: SkillStore,
  work: readonly WorkItem[],
  slices: Pick<HostSlices, 'pause'> = new HostSlices(),
): Promise<UnchangedCheck> {
  markStart('check:start');
  const fingerprints = await store.files.allInSlices(slices);
  const bySource = fingerprints.size > 0 ? await store.files.packSkillsByFileInSlices(slices) : new Map<string, StoredPackSkill[]>();
  markStart('check:rows');
  const stats: Array<FileTimes | undefined> = new Array(work.length);
  const unchanged = new Map<number, StoredPackSkill[]>();
  /** Records the file's stat and whether it is unchanged; a promise only when a folder must be listed to tell. */
  const consider = (i: number, stat: FileStat | undefined): Promise<void> | undefined => {
    if (!stat || stat.kind !== 'file') return undefined;
    const { pack, ref } = work[i] as WorkItem;
    stats[i] = { size: stat.size, mtimeMs: stat.mtimeMs };
    const fingerprint = fingerprints.get(ref.file);
    if (!fingerprint) return undefined;
    const skills = bySource.get(ref.file) ?? [];
    // Synchronous unless a folder must be listed: a warm start considers every file of the library.
    const verdict = trusted(fingerprint, stats[i] as FileTimes, pack, ref, skills);
    if (verdict === true) unchanged.set(i, skills);
    if (verdict !== 'resources') return undefined;
    return sameResources(fs, ref, skills).then((same) => {
      if (same) unchanged.set(i, skills);
    });
  };
  const { statSync } = fs;
  if (statSync) {
    // One file after another, synchronously, pausing for the host between slices.
    for (let i = 0; i < work.length; i++) {
      await slices.pause();
      let stat: FileStat | undefined;
      try {
        stat = statSync((work[i] as WorkItem).ref.file);
      } catch {
        stat = undefined;
      }
      const listing = consider(i, stat);
      if (listing) await listing;
    }
    return withWinners(work, { unchanged, stats, fingerprints, winners: new Map() }, slices);
  }
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const i = next++;
      await consider(i, await fs.stat((work[i] as WorkItem).ref.file).catch(() => undefined));
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, Math.max(work.length, 1)) }, worker));
  return withWinners(work, { unchanged, stats, fingerprints, winners: new Map() }, slices);
}

/**
 * Records, for each trusted file that lost names to earlier definitions, which files it lost to;
 * one whose earlier file is gone, not trusted, or no longer earlier in load order is not trusted.
 */
async function withWinners(work: readonly WorkItem[], check: UnchangedCheck, slices: Pick<HostSlices, 'pause'>): Promise<UnchangedCheck> {
  const indexOf = new Map<string, number>();
  work.forEach(({ ref }, i) => indexOf.set(ref.file, i));
  let looked = 0;
  for (const index of check.unchanged.keys()) {
    // A file of another format reads its kept problems back (inflated, parsed): the host gets its turns.
    if (++looked % ENTRIES_PER_LOOK === 0) await slices.pause();
    const { ref } = work[index] as WorkItem;
    const fingerprint = check.fingerprints.get(ref.file);
    // A SKILL.md defines one skill: one that is in the store lost no name (its problems stay unread).
    if (ref.format === 'skill-md' && fingerprint !== undefined && fingerprint.skillCount > 0) continue;
    const lostTo = storedProblems(fingerprint)
      .filter((p) => p.code === PROBLEM_CODES.duplicateName)
      .map((p) => indexOf.get(String(p.data?.otherFile)) ?? -1);
    if (lostTo.length === 0) continue;
    if (lostTo.some((winner) => winner < 0 || winner >= index)) check.unchanged.delete(index);
    else check.winners.set(index, lostTo);
  }
  for (const index of lostToUntrusted(check)) check.unchanged.delete(index);
  markStart('check:done');
  return check;
}

/** Trusted files that lost a name to a file no longer trusted (which must then be read with it). */
function lostToUntrusted(check: UnchangedCheck): number[] {
  const out: number[] = [];
  for (;;) {
    const next = [...check.winners]
      .filter(([index, winners]) => check.unchanged.has(index) && winners.some((w) => !check.unchanged.has(w)))
      .map(([index]) => index);
    if (next.length === 0) return out;
    for (const index of next) {
      check.unchanged.delete(index);
      out.push(index);
    }
  }
}

/** Whether the file is trusted unchanged; `'resources'` when that depends on its skill folder's resources (`sameResources`). */
function trusted(
  fingerprint: FileFingerprint,
  stat: FileTimes,
  pack: ResolvedSkillPack,
  ref: SkillFileRef,
  skills: readonly StoredPackSkill[],
): boolean | 'resources' {
  if (!asFingerprinted(fingerprint, stat, pack, skills)) return false;
  if (ref.format !== 'skill-md' || skills.length === 0) return true;
  if (!ref.resourceDirs?.length) return skills.every((s) => s.resources === '[]');
  return 'resources';
}

/** The file's stat and its stored skills are what its fingerprint recorded, under these pack settings. */
function asFingerprinted(fingerprint: FileFingerprint, stat: FileTimes, pack: ResolvedSkillPack, skills: readonly StoredPackSkill[]): boolean {
  if (fingerprint.size !== stat.size || fingerprint.mtimeMs !== stat.mtimeMs) return false;
  // The file system's clock, not the editor's: fingerprints compare modification times.
  if (stat.mtimeMs > fingerprint.recordedAt - RACY_MS) return false;
  const scope = packScope(pack);
  if (skills.length !== fingerprint.skillCount || skills.some((s) => !sameScope(s, scope) || s.requires !== '[]')) return false;
  return fingerprint.packKey === fileKey(pack, skills);
}

/**
 * One stored file checked as the load's check would trust it (an answer given before that check
 * ends: earlyAnswers.ts): its `lstat` against its fingerprint, under the pack the load reads it
 * with, and a SKILL.md's resource folders listed again (the load's scan would see one added).
 */
export async function stillAsStored(
  fs: FileSystemPort,
  pack: ResolvedSkillPack,
  file: string,
  fingerprint: FileFingerprint | undefined,
  skills: readonly StoredPackSkill[],
): Promise<boolean> {
  if (!fingerprint) return false;
  let stat: FileStat | undefined;
  try {
    stat = fs.statSync ? fs.statSync(file) : await fs.stat(file);
  } catch {
    stat = undefined;
  }
  const format = detectSkillFormat(path.basename(file));
  if (stat?.kind !== 'file' || !formatAdmits(pack.format, format)) return false;
  if (!asFingerprinted(fingerprint, stat, pack, skills)) return false;
  return format !== 'skill-md' || skills.length === 0 || sameResources(fs, { file, relativePath: '', format }, skills, true);
}

/** Whether a SKILL.md's skills still list the resources its folder holds now (`now`: listed synchronously, see `listSkillResources`). */
async function sameResources(fs: FileSystemPort, ref: SkillFileRef, skills: readonly StoredPackSkill[], now = false): Promise<boolean> {
  const resources = JSON.stringify(await listSkillResources(fs, path.dirname(ref.file), now));
  return skills.every((s) => s.resources === resources);
}

/**
 * Work indices of unchanged files that define a name (in their pack's scope) that a file being
 * read defines, or that lost a name to a file being read: they are read too, so the first
 * definition in pack order wins as on a cold load.
 */
export function collisions(check: UnchangedCheck, parsed: ReadonlyArray<ParsedFile | undefined>): number[] {
  const { unchanged } = check;
  // Asked once per batch of a load: the unchanged files' names are indexed once, not listed each time.
  const holders = (check.holders ??= holdersOf(unchanged));
  const lost = new Set<number>();
  for (const file of parsed) {
    if (!file) continue;
    const scope = packScope(file.pack);
    for (const skill of file.skills)
      for (const index of holders.get(identityKey({ ...scope, name: skill.name })) ?? []) if (unchanged.has(index)) lost.add(index);
  }
  const out = [...lost].sort((a, b) => a - b);
  for (const [index, winners] of check.winners)
    if (unchanged.has(index) && !lost.has(index) && winners.some((w) => lost.has(w) || !unchanged.has(w))) out.push(index);
  return out;
}

function holdersOf(unchanged: ReadonlyMap<number, readonly StoredPackSkill[]>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [index, skills] of unchanged) {
    for (const skill of skills) {
      const key = identityKey(skill);
      const list = out.get(key);
      if (list) list.push(index);
      else out.set(key, [index]);
    }
  }
  return out;
}

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
function storedProblems(fingerprint: KeptProblems | undefined): SkillProblem[] {
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
function withErrorFlag(kept: FileFingerprint): FileFingerprint {
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

/**
 * A load's fingerprints written in one transaction (a cancelled load's: what it wrote stays, with
 * the fingerprints of the files written, and the next load reads the rest).
 */
export function writeFingerprints(
  store: SkillStore,
  work: readonly WorkItem[],
  check: UnchangedCheck,
  loadedCleanly: (index: number) => CleanLoad | undefined,
): void {
  // Wall-clock time: fingerprints are compared with the file system's modification times.
  const rows = nextFingerprints(work, check, loadedCleanly, () => store.files.packSkillsByFile(), Date.now());
  store.transaction(() => store.files.replaceAll(rows, check.fingerprints));
}

/**
 * A complete load's fingerprints written in slices, as its files were read: at 10,000 files the
 * whole write held the extension host's thread ≈ 0.2 s in one stretch.
 */
export async function writeFingerprintsInSlices(
  store: SkillStore,
  work: readonly WorkItem[],
  check: UnchangedCheck,
  loadedCleanly: (index: number) => CleanLoad | undefined,
  slices: Pick<HostSlices, 'pause'>,
): Promise<void> {
  const stored = check.unchanged.size < work.length ? await store.files.packSkillsByFileInSlices(slices) : new Map<string, StoredPackSkill[]>();
  await store.files.replaceAllInSlices(
    nextFingerprints(work, check, loadedCleanly, () => stored, Date.now()),
    check.fingerprints,
    slices,
  );
}

/** The fingerprints after a load: kept for files not read, new for files read and loaded cleanly (`CleanLoad`). */
function nextFingerprints(
  work: readonly WorkItem[],
  check: UnchangedCheck,
  loadedCleanly: (index: number) => CleanLoad | undefined,
  storedByFile: () => ReadonlyMap<string, StoredPackSkill[]>,
  now: number,
): FileFingerprint[] {
  const out: FileFingerprint[] = [];
  let stored: ReadonlyMap<string, StoredPackSkill[]> | undefined;
  work.forEach(({ pack, ref }, i) => {
    if (check.unchanged.has(i)) {
      const kept = check.fingerprints.get(ref.file);
      if (kept) out.push(withErrorFlag(kept));
      return;
    }
    const stat = check.stats[i];
    const clean = loadedCleanly(i);
    if (!stat || clean === undefined) return;
    stored ??= storedByFile();
    const skills = stored.get(ref.file) ?? [];
    if (skills.length !== clean.skillCount) return;
    out.push({
      file: ref.file,
      packKey: fileKey(pack, skills),
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      recordedAt: now,
      skillCount: clean.skillCount,
      problems: clean.problems,
      errors: clean.errors,
    });
  });
  return out;
}
